/**
 * Fixture yelp.com (and yelp.ca): biz pages, the `/gql/batch` review feed, the search snippet and
 * the sign-in page, shaped after public scrapers of the live site:
 * - biz page `<meta name="yelp-biz-id">`: scrapfly/scrapfly-scrapers yelp-scraper/yelp.py
 *   (`parse_business_id`); its JSON-LD LocalBusiness address as other Yelp scrapers read it.
 * - `POST /gql/batch` with `[{operationName: "GetBusinessReviewFeed", variables: {encBizId,
 *   reviewsPerPage, sortBy, after: base64({"version":1,"type":"offset","offset":N}), isTranslating,
 *   …}, extensions: {operationType: "query", documentId}}]` answered by
 *   `[{data: {business: {reviewCount, reviews: {edges: [{node}], pageInfo}}}}]`: yelp.py
 *   (`request_reviews_api`, `parse_review_data`) and results/reviews.json.
 * - `/search/snippet` → `{searchPageProps: {mainContentComponentsListProps: [{bizId,
 *   searchResultBusiness: {name, alias, businessUrl, formattedAddress, isAd}, adLoggingInfo}]}}`:
 *   scrapfly yelp-scraper results/search.json.
 * - DataDome's captcha page (a 200 page loading geo.captcha-delivery.com) and the redirect to
 *   /login without a session: public scraper notes on Yelp's bot wall.
 * Not verified: pageInfo's exact fields beyond `hasNextPage`, whether `offset` counts skipped
 * reviews (as here), the owner reply's shape (see data.ts).
 *
 * Scenarios by alias prefix: gone- (404), moved- (301 to the alias without the prefix), captcha-
 * (DataDome page), wall- (sign-in form instead of the business), changed- (a biz page without the
 * id), and on the feed: empty- (no reviews), nobiz- (business null), feedchanged- (nodes renamed),
 * stale- (403 Forbidden, a rotated documentId), feedcaptcha- (DataDome page instead of JSON),
 * nopageinfo- (the feed answers without `reviews.pageInfo`).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";
import { photoUrl, REVIEWS, SEARCH_RESULTS, type FixtureNode } from "./data";

export const SESSION_COOKIE = { name: "bse", value: "fixture-session-7f3a" };
export const DOCUMENT_ID = "2b29fe4414313b319cb85e119740e72da582d64ad2962841724748be23d7f692";
export const PER_PAGE = 10;

const esc = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function html(body: string, head = "", status = 200): FixtureResponse {
  return {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8" },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Yelp</title>${head}</head><body>${body}</body></html>`,
  };
}

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(data),
});

/** DataDome's block page comes as a whole document of its own, with status 200. */
const datadome = (): FixtureResponse => ({
  status: 200,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body: DATADOME_PAGE,
});

const LOGIN_FORM = `<form action="/login" method="post"><input name="email"><input type="password" name="password"><button>Log in</button></form>`;

export const DATADOME_PAGE = `<html><head><title>yelp.com</title><style>#cmsg{animation: A 1.5s;}</style></head><body style="margin:0"><p id="cmsg">Please enable JS and disable any ad blocker</p><script data-cfasync="false">var dd={'rt':'c','cid':'AHrlqAAAAAMA','hsh':'0DA1B5E2E2C4F1','t':'fe','s':17434,'e':'f1','host':'geo.captcha-delivery.com'}</script><script data-cfasync="false" src="https://ct.captcha-delivery.com/c.js"></script></body></html>`;

export const bizId = (alias: string) => `enc_${alias}`;

function hasSession(cookie: string): boolean {
  return cookie.split(/;\s*/).includes(`${SESSION_COOKIE.name}=${SESSION_COOKIE.value}`);
}

function bizPage(alias: string): FixtureResponse {
  const known = SEARCH_RESULTS.find((r) => r.alias === alias);
  const business = {
    "@context": "https://schema.org",
    "@type": "Restaurant",
    name: known?.name ?? "Blue Door Cafe",
    address: {
      "@type": "PostalAddress",
      streetAddress: known?.formattedAddress || "1 Market St",
      addressLocality: "San Francisco",
      postalCode: known?.postalCode ?? "94105",
    },
  };
  const head = `<meta name="yelp-biz-id" content="${esc(bizId(alias))}"><script type="application/ld+json">${JSON.stringify(business)}</script>`;
  // The real page loads its reviews with JavaScript; none are in the HTML.
  return html(`<h1>${esc(business.name)}</h1><div id="reviews">Loading reviews…</div>`, head);
}

function node(review: FixtureNode, translating: boolean) {
  const text = translating && review.translated ? review.translated : review.text;
  return {
    encid: review.encid,
    rating: review.rating,
    createdAt: { utcDateTime: review.createdAt },
    text,
    author: {
      encid: review.author.encid,
      displayName: review.author.displayName,
      displayLocation: "San Francisco, CA",
      reviewCount: 12,
    },
    business: { encid: "ok1_Market", alias: "blue-door-cafe-san-francisco", name: "Blue Door Cafe" },
    businessPhotos: (review.photos ?? []).map((id) => ({
      encid: id,
      photoUrl: { url: photoUrl(id) },
      caption: null,
      helpfulCount: 0,
    })),
    businessVideos: [],
    businessUserReplies: review.reply
      ? [
          {
            encid: `re_${review.encid}`,
            text: { full: review.reply.full, language: "en" },
            createdAt: { utcDateTime: review.reply.createdAt },
          },
        ]
      : [],
    feedback: { coolCount: 0, funnyCount: 0, usefulCount: 1 },
  };
}

/**
 * The feed's orders (Yelp's sort menu: newest, "Yelp sort", highest and lowest rated). REVIEWS is
 * newest first; the fixture's relevance puts the longest texts first.
 */
const byRating = (sign: number) => (reviews: FixtureNode[]) =>
  [...reviews].sort((a, b) => sign * (b.rating - a.rating) || a.encid.localeCompare(b.encid));
const SORTED: Record<string, (reviews: FixtureNode[]) => FixtureNode[]> = {
  DATE_DESC: (reviews) => reviews,
  RELEVANCE_DESC: (reviews) =>
    [...reviews].sort(
      (a, b) => (b.text?.full.length ?? 0) - (a.text?.full.length ?? 0) || a.encid.localeCompare(b.encid),
    ),
  RATING_DESC: byRating(1),
  RATING_ASC: byRating(-1),
};

function offsetOf(after: unknown): number | null {
  if (after === undefined) return 0;
  try {
    const cursor = JSON.parse(atob(typeof after === "string" ? after : "")) as {
      version: number;
      type: string;
      offset: number;
    };
    return cursor.version === 1 && cursor.type === "offset" && Number.isInteger(cursor.offset)
      ? cursor.offset
      : null;
  } catch {
    return null;
  }
}

interface FeedOperation {
  operationName?: string;
  variables?: Record<string, unknown>;
  extensions?: { operationType?: string; documentId?: string };
}

function feed(body: string): FixtureResponse {
  let operations: FeedOperation[];
  try {
    operations = JSON.parse(body) as FeedOperation[];
  } catch {
    return json({ errors: [{ message: "body is not JSON" }] }, 400);
  }
  const op = Array.isArray(operations) ? operations[0] : undefined;
  const vars = op?.variables ?? {};
  const offset = offsetOf(vars.after);
  if (
    op?.operationName !== "GetBusinessReviewFeed" ||
    op.extensions?.operationType !== "query" ||
    typeof vars.sortBy !== "string" ||
    !Object.hasOwn(SORTED, vars.sortBy) ||
    vars.reviewsPerPage !== PER_PAGE ||
    typeof vars.encBizId !== "string" ||
    offset === null
  ) {
    return json([{ errors: [{ message: "Bad request" }], data: null }], 400);
  }
  if (op.extensions?.documentId !== DOCUMENT_ID)
    return { status: 403, headers: { "Content-Type": "text/plain" }, body: "Forbidden" };
  const alias = vars.encBizId.replace(/^enc_/, "");
  if (alias.startsWith("stale-"))
    return { status: 403, headers: { "Content-Type": "text/plain" }, body: "Forbidden" };
  if (alias.startsWith("feedcaptcha-")) return datadome();
  if (alias.startsWith("nobiz-")) return json([{ data: { business: null } }]);
  const reviews = SORTED[vars.sortBy](alias.startsWith("empty-") ? [] : REVIEWS);
  const edges = reviews
    .slice(offset, offset + PER_PAGE)
    .map((review) => ({ node: node(review, vars.isTranslating === true) }));
  const business = {
    encid: vars.encBizId,
    alias,
    name: "Blue Door Cafe",
    reviewCount: reviews.length,
    rating: 3.9,
    reviews: {
      edges: alias.startsWith("feedchanged-")
        ? edges.map(({ node: { encid, ...rest } }) => ({ node: { id: encid, ...rest } }))
        : edges,
      // nopageinfo-: an answer without pageInfo (no public client reads it; the module must not need it).
      ...(alias.startsWith("nopageinfo-")
        ? {}
        : { pageInfo: { hasNextPage: offset + PER_PAGE < reviews.length, hasPreviousPage: offset > 0 } }),
    },
  };
  return json([{ data: { business } }]);
}

function searchSnippet(): FixtureResponse {
  const items = [
    { type: "searchInfo", props: { totalResults: SEARCH_RESULTS.length } },
    ...SEARCH_RESULTS.map((r, i) => ({
      bizId: r.bizId,
      searchResultBusiness: {
        ranking: r.isAd ? null : i,
        isAd: Boolean(r.isAd),
        name: r.name,
        alias: r.alias,
        businessUrl: r.isAd
          ? `/adredir?ad_business_id=${r.bizId}&redirect_url=https%3A%2F%2Fwww.yelp.com%2Fbiz%2F${r.alias}`
          : `/biz/${r.alias}?osq=Blue+Door+Cafe`,
        formattedAddress: r.formattedAddress,
        city: "San Francisco",
        rating: 4.2,
        reviewCount: 120,
      },
      ...(r.isAd ? { adLoggingInfo: { placement: "vertical_0", slot: 0 } } : {}),
    })),
    {
      type: "pagination",
      props: { startResult: 1, resultsPerPage: 10, totalResults: SEARCH_RESULTS.length },
    },
  ];
  return json({ searchPageProps: { mainContentComponentsListProps: items } });
}

const fixture: PublisherFixture = {
  domains: ["yelp.com", "yelp.ca"],
  site: ({ url, method, cookie, body }) => {
    if (url.pathname === "/login") return html(`<h1>Log in to Yelp</h1>${LOGIN_FORM}`);
    if (url.pathname === "/search/snippet") return searchSnippet();
    if (!hasSession(cookie))
      return {
        status: 302,
        headers: { Location: `/login?return_url=${encodeURIComponent(url.pathname)}` },
        body: "",
      };
    if (url.pathname === "/gql/batch" && method === "POST") return feed(body);
    const match = /^\/biz\/([^/]+)$/.exec(url.pathname);
    if (!match || method !== "GET") return html("<h1>Not found</h1>", "", 404);
    const alias = decodeURIComponent(match[1]);
    if (alias.startsWith("gone-")) return html("<h1>Not found</h1>", "", 404);
    if (alias.startsWith("moved-"))
      return {
        status: 301,
        headers: { Location: `/biz/${alias.slice("moved-".length)}?osq=moved` },
        body: "",
      };
    if (alias.startsWith("captcha-")) return datadome();
    if (alias.startsWith("wall-")) return html(`<h1>Log in to see this business</h1>${LOGIN_FORM}`);
    if (alias.startsWith("changed-"))
      return html(`<h1>Blue Door Cafe</h1><div data-biz="${esc(alias)}"></div>`);
    return bizPage(alias);
  },
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: {
    profileUrl: "https://www.yelp.com/biz/blue-door-cafe-san-francisco",
    cookie: `${SESSION_COOKIE.name}=${SESSION_COOKIE.value}`,
  },
};

export default fixture;
