/**
 * Fixture opentable.com: restaurant pages (`/r/<slug>`) embedding `window.__INITIAL_STATE__` with
 * `restaurantProfile.{restaurant.{restaurantId, name}, reviewsData.reviewSearchResults.{reviews,
 * totalCount}}` (the first 10, newest first), and the GraphQL review search the page calls for
 * later pages, `POST /dapi/fe/gql?optype=query&opname=ReviewSearchResults` with
 * `{operationName, variables: {restaurantId, page, pageSize, sortBy: "newestReview", …},
 * extensions.persistedQuery.sha256Hash}`, answering `{data: {restaurant: {reviewSearchResults:
 * {reviews, totalCount}}}}`. Review fields `reviewId`, `rating.{overall, food, service, ambience,
 * value, noise}`, `text`, `user.nickname`, `dinedDateTime`, `submittedDateTime`, `helpfulness.score`,
 * `publicRestaurantReply.{message, responseDateTimeUtc}` (the reply's shape and the noise value
 * `DO_NOT_RECALL` as a real 2022 page state shows them; see src/publishers/opentable/README.md).
 * All of it as shahidirfan100/OpenTable-Reviews-Scraper `src/main.js` @ce628537 (2026-01-18, ISC)
 * reads and sends it; no capture of a page or answer exists. The reviews are invented. A hash other
 * than the client's gets GraphQL's `PersistedQueryNotFound`, as a rotated hash would.
 *
 * Restaurants: perch-la (id 109283, 25 reviews: page 1 in the state, pages 2 and 3 from the
 * search; one review without an id), quiet-bistro (none), walled (Akamai's Access Denied, 403),
 * moved-state (a page whose state has no `reviewsData`).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export const HASH = "a544a8bb7070a1aa6c5e50b3f9bb239ba44f442eb9ac628f30b57bd3ae098b27";

export interface OpentableFixtureReview {
  reviewId?: string;
  rating: { overall: number; food: number; service: number; ambience: number; value: number; noise: string };
  text: string;
  user: { nickname: string };
  dinedDateTime: string;
  submittedDateTime: string;
  helpfulness: { score: number };
  publicRestaurantReply: { message: string; responseDateTimeUtc: string } | null;
}

const NEWEST = Date.UTC(2026, 10, 21, 19, 30);
const RESTAURANTS: Record<string, number> = { "perch-la": 109283, "quiet-bistro": 5001, "moved-state": 5002 };

function review(i: number): OpentableFixtureReview {
  const submitted = NEWEST - i * 2 * 86_400_000;
  return {
    ...(i === 17 ? {} : { reviewId: `OT-${String(500_000 - i)}` }),
    rating: {
      overall: 5 - (i % 4),
      food: 5,
      service: 4,
      ambience: 5 - (i % 2),
      value: 4,
      noise: i === 1 ? "Energetic" : i === 2 ? "DO_NOT_RECALL" : "Moderate",
    },
    text: i === 1 ? "  The rooftop view at sunset was worth it.  " : `Dinner ${i} was lovely.`,
    user: { nickname: i === 1 ? "OpenTable Diner" : `Diner${i}` },
    dinedDateTime: new Date(submitted - 86_400_000).toISOString(),
    submittedDateTime: new Date(submitted).toISOString(),
    helpfulness: { score: i % 3 },
    publicRestaurantReply:
      i === 12
        ? {
            message: "  Thank you for dining with us, we hope to see you again soon.  ",
            responseDateTimeUtc: "2026-10-30T14:14:01Z",
          }
        : null,
  };
}

export const PERCH_REVIEWS: OpentableFixtureReview[] = Array.from({ length: 25 }, (_, i) => review(i));

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(data),
});
const html = (body: string, status = 200, headers: Record<string, string> = {}): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8", ...headers },
  body,
});

/**
 * The restaurant page's session: a cookie it sets and the CSRF token it states (`window.__csrfToken`,
 * where shahidirfan100/OpenTable-Reviews-Scraper @ce628537 looks first). Every 2026 client sends both
 * with the review search; without them this fixture answers 403 (the real answer is not recorded).
 */
export const CSRF_TOKEN = "ot-csrf-7f3a9c2e41";
export const SESSION_COOKIE = "otSessionId=fixture-session-51d2";

const reviewsOf = (id: number) => (id === 109283 ? PERCH_REVIEWS : []);

function restaurantPage(slug: string): FixtureResponse {
  if (slug === "walled") {
    return html(
      "<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>You don't have permission to access this server.<P>\nReference #18.1b2c3d4\n</BODY></HTML>",
      403,
    );
  }
  const id = RESTAURANTS[slug];
  if (!id) return html("<html><title>Page not found</title></html>", 404);
  const all = reviewsOf(id);
  const reviewsData = { reviewSearchResults: { reviews: all.slice(0, 10), totalCount: all.length } };
  const state = {
    restaurantProfile: {
      restaurant: { restaurantId: id, name: slug },
      ...(slug === "moved-state" ? {} : { reviewsData }),
    },
  };
  return html(
    `<!DOCTYPE html><html lang="en-US"><head><title>${slug}</title></head><body><div id="root"></div>` +
      `<script>window.__csrfToken = "${CSRF_TOKEN}";window.__INITIAL_STATE__ = ${JSON.stringify(state)};window.__CSP_NONCE__ = "x";</script></body></html>`,
    200,
    { "Set-Cookie": `${SESSION_COOKIE}; Path=/; Secure; HttpOnly` },
  );
}

function reviewSearch(body: string): FixtureResponse {
  let request: {
    operationName?: unknown;
    variables?: { restaurantId?: unknown; page?: unknown; pageSize?: unknown; sortBy?: unknown };
    extensions?: { persistedQuery?: { sha256Hash?: unknown } };
  };
  try {
    request = JSON.parse(body) as typeof request;
  } catch {
    return json({ errors: [{ message: "bad request" }] }, 400);
  }
  if (request.extensions?.persistedQuery?.sha256Hash !== HASH)
    return json({ errors: [{ message: "PersistedQueryNotFound" }] });
  const { restaurantId, page, pageSize, sortBy } = request.variables ?? {};
  if (
    typeof restaurantId !== "number" ||
    typeof page !== "number" ||
    page < 1 ||
    typeof pageSize !== "number" ||
    pageSize < 1 ||
    pageSize > 50
  ) {
    return json({ errors: [{ message: "bad variables" }] }, 400);
  }
  const all = reviewsOf(restaurantId);
  const ordered = sortBy === "newestReview" ? all : [...all].reverse();
  return json({
    data: {
      restaurant: {
        reviewSearchResults: {
          reviews: ordered.slice((page - 1) * pageSize, page * pageSize),
          totalCount: all.length,
        },
      },
    },
  });
}

const fixture: PublisherFixture = {
  domains: ["opentable.com", "opentable.co.uk"],
  site: ({ url, method, body, headers, cookie }) => {
    if (url.pathname === "/dapi/fe/gql") {
      if (method !== "POST" || url.searchParams.get("opname") !== "ReviewSearchResults")
        return json({ error: "bad request" }, 400);
      if (headers["x-csrf-token"] !== CSRF_TOKEN || !cookie.includes(SESSION_COOKIE))
        return json({ message: "Forbidden" }, 403);
      return reviewSearch(body);
    }
    const match = /^\/r\/([a-z0-9-]+)$/.exec(url.pathname);
    if (method !== "GET" || !match) return html("<html></html>", 404);
    return restaurantPage(match[1]);
  },
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: { profileUrl: "https://www.opentable.com/r/perch-la" },
};

export default fixture;
