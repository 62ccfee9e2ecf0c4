/**
 * Fixture expedia.com and hotels.com: property pages (`/h<id>.Hotel-Information`) carrying
 * `window.__PLUGIN_STATE__` with `context.context.{site.{id, eapid, tpid}, locale, currency,
 * deviceId}` and `apollo.clientInfo`, and Expedia Group's GraphQL, `POST /graphql` with
 * `[{operationName: "PWAReviewsSortingAndFiltersQuery", variables: {productIdentifier, context},
 * extensions.persistedQuery}]` and a `client-info` header, answering `[{data: {productReviewDetails:
 * {reviews: {details: [{review: {__typename, text}, summary: {primary: "10/10 Excellent", secondary,
 * supportingMessages: [{text}]}}], pagination: {button: {primary: "More reviews"}}}}}}]`. All of it
 * as the public client in the exact-string index (id 1234087952, undated, ≥2023) sends and reads it;
 * the property page and the reviews are invented, and how the page assigns the state is not shown by
 * that client (it reads `window.__PLUGIN_STATE__` in a browser): expedia.com's page here uses
 * `JSON.parse("…")`, hotels.com's an object literal, and the module reads both. Only the client's
 * sort selection gives newest first here.
 *
 *
 * 2026: the Revamp operation as a fewo-direkt.de (Expedia Group) client sends and reads it, "tested
 * for real on 5.10.2026" (README.md names it): `PWAReviewsSortingAndFiltersRevampQuery`, hash
 * `5d801d9b…`, only the sort among the selections; `details[].id` a 24-hex ObjectId whose first 8 hex
 * digits are its creation time, `supportingMessages` carrying only the stay, and `reviews.pagination`
 * an object while more follow, null on the last page. Without `client-info` the answer is 403
 * `CLIENT_INFO_HEADER_NOT_PRESENT`.
 *
 * Properties: 96727634 (60 reviews: page 0 of 50, page 1 of 10; one detail with a text that is not
 * a string; both operations known), 7000 (the same reviews, but the Revamp's hash unknown:
 * `PersistedQueryNotFound`, only the older operation answers), 1111 (none), 4290 (Akamai's 429
 * challenge), 5000 (a page without the state).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export const SORT_BY = "urn:expediagroup:taxonomies:core:#e9f32feb-5946-4b19-a6f2-8206edc7a130";
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const NEWEST = Date.UTC(2026, 10, 16);

export const REVAMP_HASH = "5d801d9b6cd0a13885881999fe810b4e5b489aec8dfd7ab0fbe25278c2ef2279";
export const LEGACY_HASH = "6ef916a9f1758506bd39254623a4704123d75898667a06ca7b2c216cf22ee061";

export interface ExpediaFixtureDetail {
  id: string;
  review: { __typename: string; text: unknown };
  summary: { primary: string; secondary: string; supportingMessages: { text: string }[] };
}

/** When review i was written: 10:00 UTC, every third day back from 2026-11-16. */
export const writtenAt = (i: number) => NEWEST - i * 3 * 86_400_000 + 10 * 3_600_000;

/** A 24-hex ObjectId created at `ms` (its first 8 hex digits are the seconds). */
const objectId = (ms: number, i: number) =>
  `${Math.floor(ms / 1000)
    .toString(16)
    .padStart(8, "0")}${(0xa1b2c3000000 + i).toString(16).padStart(16, "0")}`;

function detail(i: number): ExpediaFixtureDetail {
  const d = new Date(NEWEST - i * 3 * 86_400_000);
  return {
    id: objectId(writtenAt(i), i),
    review: {
      __typename: "ReviewSection",
      text:
        i === 33
          ? { html: "<b>x</b>" }
          : i === 1
            ? "  Quiet rooms and a great breakfast.  "
            : `Stay ${i} was fine.`,
    },
    summary: {
      primary: `${10 - (i % 5)}/10 ${i % 5 === 0 ? "Excellent" : "Good"}`,
      secondary: i === 1 ? "Anna" : `Guest ${i}`,
      supportingMessages: [
        { text: `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}` },
        { text: "Stayed 2 nights" },
      ],
    },
  };
}

export const ARTISAN_DETAILS: ExpediaFixtureDetail[] = Array.from({ length: 60 }, (_, i) => detail(i));

/** The Revamp's form of a detail: its supporting messages name only the stay, no posting date. */
function revamped(d: ExpediaFixtureDetail, i: number): ExpediaFixtureDetail {
  const month = MONTHS[new Date(NEWEST - i * 3 * 86_400_000).getUTCMonth()];
  return {
    ...d,
    summary: { ...d.summary, supportingMessages: [{ text: `Stayed 2 nights in ${month} 2026` }] },
  };
}

const json = (data: unknown, status = 200, headers: Record<string, string> = {}): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(data),
});
const html = (body: string, status = 200, headers: Record<string, string> = {}): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8", ...headers },
  body,
});

const STATE = {
  context: {
    context: {
      site: { id: 1, eapid: 0, tpid: 1 },
      locale: "en_US",
      currency: "USD",
      deviceId: "2f9c1d7e-5b1a-4c1e-9d7a-0a1b2c3d4e5f",
    },
  },
  apollo: { clientInfo: "shopping-pwa,8c1e3f0,us-west-2" },
};

function propertyPage(host: string, id: string): FixtureResponse {
  if (id === "4290")
    return html("<html><body>challenge</body></html>", 429, {
      "x-page-id": "wildcard-challenge-handler",
      "x-app-info": "captcha-pwa",
    });
  if (!["96727634", "7000", "1111", "5000"].includes(id))
    return html("<html><title>Not found</title></html>", 404);
  if (id === "5000") return html("<html><body><script>window.__OTHER__ = {};</script></body></html>");
  const assignment = host.endsWith("hotels.com")
    ? JSON.stringify(STATE)
    : `JSON.parse(${JSON.stringify(JSON.stringify(STATE))})`;
  return html(
    `<!DOCTYPE html><html lang="en"><head><title>Property ${id}</title></head><body><script>window.__PLUGIN_STATE__ = ${assignment};</script></body></html>`,
  );
}

type Batch = {
  operationName?: unknown;
  variables?: { productIdentifier?: { id?: unknown; travelSearchCriteria?: unknown } };
  extensions?: { persistedQuery?: { sha256Hash?: unknown } };
}[];

function graphql(body: string, headers: Record<string, string>): FixtureResponse {
  let batch: Batch;
  try {
    batch = JSON.parse(body) as Batch;
  } catch {
    return json({ errors: [{ message: "bad request" }] }, 400);
  }
  const op = Array.isArray(batch) ? batch[0] : undefined;
  if (!headers["client-info"])
    return json([{ errors: [{ message: "CLIENT_INFO_HEADER_NOT_PRESENT" }] }], 403);
  const revamp = op?.operationName === "PWAReviewsSortingAndFiltersRevampQuery";
  if (!op || (!revamp && op.operationName !== "PWAReviewsSortingAndFiltersQuery"))
    return json([{ errors: [{ message: "bad request" }] }], 400);
  const property = op.variables?.productIdentifier?.id;
  const known = revamp ? property !== "7000" && REVAMP_HASH : LEGACY_HASH;
  if (op.extensions?.persistedQuery?.sha256Hash !== known) {
    return json([
      { errors: [{ message: "PersistedQueryNotFound", extensions: { code: "PERSISTED_QUERY_NOT_FOUND" } }] },
    ]);
  }
  const criteria = op.variables?.productIdentifier?.travelSearchCriteria as
    | {
        property?: {
          secondary?: {
            selections?: { id: string; value: unknown }[];
            counts?: { id: string; value: unknown }[];
          };
        };
      }
    | undefined;
  const secondary = criteria?.property?.secondary;
  const pageIndex = secondary?.counts?.find((c) => c.id === "pageIndex")?.value;
  const size = secondary?.counts?.find((c) => c.id === "size")?.value;
  if (typeof pageIndex !== "number" || typeof size !== "number" || pageIndex < 0 || size < 1 || size > 50)
    return json([{ errors: [{ message: "bad counts" }] }], 400);
  const all = property === "96727634" || property === "7000" ? ARTISAN_DETAILS : [];
  const newest = secondary?.selections?.find((s) => s.id === "sortBy")?.value === SORT_BY;
  const ordered = newest ? all : [...all].reverse();
  const details = ordered.slice(pageIndex * size, (pageIndex + 1) * size);
  const more = (pageIndex + 1) * size < all.length;
  // The older operation: printed dates, a "More reviews" button; the Revamp: the stay only, pagination or null.
  const reviews = revamp
    ? {
        details: details.map((d) => revamped(d, ARTISAN_DETAILS.indexOf(d))),
        pagination: more
          ? { __typename: "ProductReviewPagination", button: { primary: "More reviews" } }
          : null,
      }
    : {
        details,
        pagination: more ? { button: { primary: "More reviews" } } : { button: null },
      };
  return json([{ data: { productReviewDetails: { reviews } } }]);
}

const fixture: PublisherFixture = {
  domains: [
    "expedia.com",
    "hotels.com",
    "orbitz.com",
    "travelocity.com",
    "vrbo.com",
    "abritel.fr",
    "fewo-direkt.de",
    "stayz.com.au",
    "bookabach.co.nz",
  ],
  site: ({ url, method, body, headers, host }) => {
    if (url.pathname === "/graphql")
      return method === "POST" ? graphql(body, headers) : json({ error: "Method Not Allowed" }, 405);
    // Hotel pages on the Expedia-platform sites, holiday-rental pages (/pdp/lo/<id>) on Vrbo's.
    const match =
      /^\/h(\d+)\.Hotel-Information$/.exec(url.pathname) ?? /^\/pdp\/lo\/(\d+)$/.exec(url.pathname);
    return method === "GET" && match ? propertyPage(host, match[1]) : html("<html></html>", 404);
  },
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: { profileUrl: "https://www.expedia.com/h96727634.Hotel-Information" },
};

export default fixture;
