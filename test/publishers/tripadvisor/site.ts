/**
 * The Tripadvisor fixture site (www.tripadvisor.com and the country sites the tests use):
 * - GET /<Kind>_Review-g<geo>-d<id>-Reviews-<slug>.html: the location page (with DataDome's ordinary
 *   tag, as real pages load it), 404 for unknown locations, and a 301 from an old slug;
 * - POST /data/graphql/ids: the persisted review list query (data.ts names the public sources of
 *   the request and answer shapes). As 2026 evidence reports, it answers at most 20 reviews and
 *   ignores its offset, and answers `PersistedQueryNotFound` to a session the location page did not
 *   issue (see ISSUED_TAUNIQUE) and, for the `distrusted` location, to anything but a provider relay;
 * - GET /<Kind>_Review-g<geo>-d<id>-Reviews-or<N>-<slug>.html: ten review cards from offset N, in the
 *   markup public scrapers of 2025–2026 read (scrapfly/scrapfly-scrapers tripadvisor-scraper
 *   tripadvisor.py @0e79e85, 2025-11-20: `-Reviews-or<10·i>-` pages, `div[data-test-target=HR_CC_CARD]`,
 *   `review-title`, "N of 5 bubbles"; other public clients: `data-automation=reviewCard`,
 *   `review-body`, `review-date`, `/Profile/` links). No real capture of such a page was found; the
 *   class names and the nesting around those attributes are invented;
 * - GET /TypeAheadJson?action=API&query=…: the search box's type-ahead answer.
 * DataDome's captcha page and its XHR answer follow DataDome's documented block responses (an HTML
 * page loading ct.captcha-delivery.com/c.js with `var dd={…}`, and `{"url": "https://geo.captcha-delivery.com/captcha/?…"}`
 * with status 403).
 */
import type { FixtureRequest, FixtureResponse, PublisherFixture } from "../../fixtures/sites";
import { LISTINGS, LOCATIONS, locationPath, type FixtureLocation, type FixtureTaReview } from "./data";

/** The review list operation the site has registered (what its own pages send). */
export const REGISTERED_QUERY_ID = "3d5e9aff1e00e113";

const html = (status: number, body: string): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body,
});
const withSession = (status: number, body: string): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8", "Set-Cookie": SESSION_COOKIE },
  body,
});
const json = (status: number, data: unknown): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json;charset=utf-8" },
  body: JSON.stringify(data),
});

const CAPTCHA_PAGE = `<html><head><title>tripadvisor.com</title><style>#cmsg{animation: A 1.5s;}</style></head><body style="margin:0"><p id="cmsg">Please enable JS and disable any ad blocker</p><script data-cfasync="false">var dd={'rt':'c','cid':'AHrlqAAAAAMAbYxBLGlhYVIAt5UbpQ==','hsh':'2211F522B61E269B869FA6EAFFB5E1','t':'fe','s':43337,'e':'0b1cf4e6','host':'geo.captcha-delivery.com'}</script><script data-cfasync="false" src="https://ct.captcha-delivery.com/c.js"></script></body></html>`;

/**
 * The session the location page issues (shahidirfan100/Tripadvisor-Reviews-Scraper `src/main.js`
 * @33c1b375, Oct 2026, reads the `TAUnique` cookie of the hotel page's answer and sends it as
 * `x-requested-by` and as that cookie, with the page's other cookies): the review list distrusts a
 * request without it and answers `PersistedQueryNotFound`, as it does to datacenter sessions.
 */
export const ISSUED_TAUNIQUE = "%1%enc%3Afixture4a0c2b7e9d13issued";
const SESSION_COOKIE = `TAUnique=${ISSUED_TAUNIQUE}; Path=/; Secure; HttpOnly`;

function trustedSession(request: FixtureRequest): boolean {
  // The token header must be there (a bare 400 otherwise, above); the trust is the page's session
  // cookie. In the browser route the page's own fetch sends the browser's cookie, which the adapter
  // cannot read, so the header's value is not compared.
  return request.cookie.includes(`TAUnique=${ISSUED_TAUNIQUE}`);
}
function locationPage(location: FixtureLocation): FixtureResponse {
  if (location.behaviour === "captcha-page") return html(200, CAPTCHA_PAGE);
  return withSession(
    200,
    `<!DOCTYPE html><html lang="en-US"><head><meta charset="utf-8"><title>${location.name} - Reviews - Tripadvisor</title><script src="https://js.datadome.co/tags.js" async></script></head><body><h1>${location.name}</h1><div id="reviews">Loading reviews…</div></body></html>`,
  );
}

function byPath(pathname: string): FixtureLocation | undefined {
  return LOCATIONS.find((location) => locationPath(location) === pathname);
}

/** The location and offset of a `-Reviews-or<N>-` page. */
function byReviewPagePath(pathname: string): { location: FixtureLocation; offset: number } | undefined {
  const match = /^(.*-Reviews)-or(\d+)(-.*)$/.exec(pathname);
  const location = match ? byPath(`${match[1]}${match[3]}`) : undefined;
  return location && match ? { location, offset: Number(match[2]) } : undefined;
}

const escHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const written = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });

function reviewCard(review: FixtureTaReview, kind: FixtureLocation["kind"]): string {
  const attr = kind === "Hotel" ? 'data-test-target="HR_CC_CARD"' : 'data-automation="reviewCard"';
  const body = review.text.split("\n").map(escHtml).join("<br>");
  return `<div ${attr} class="_c"><div class="ui_column"><a href="/Profile/${review.userProfile.username}" class="ui_header_link">${escHtml(review.userProfile.displayName)}</a><span> wrote a review</span></div>
<svg class="UctUV" viewBox="0 0 128 24" width="88" height="16" aria-labelledby=":lithium-r${review.id}:"><title id=":lithium-r${review.id}:">${review.rating}.0 of 5 bubbles</title><path d="M 12 0C5.388 0 0 5.388 0 12s5.388 12 12 12 12-5.38 12-12c0-6.612-5.38-12-12-12z"></path></svg>
<div data-test-target="review-title"><a href="${review.reviewDetailPageWrapper.reviewDetailPageRoute.url}" class="Qwuub"><span><span>${escHtml(review.title)}</span></span></a></div>
<div class="fIrGe _T"><div data-test-target="review-body"><span class="JguWG"><span class="yCeTE">${body}</span></span></div></div>
<div class="TreSq"><div class="biGQs" data-test-target="review-date">Written ${written(review.publishedDate)}</div></div>
</div>`;
}

function reviewsHtmlPage(location: FixtureLocation, offset: number): FixtureResponse {
  // A page that ignores its offset shows the newest ten whatever it is asked (a broken site).
  const from = location.behaviour === "or-pages-repeat" ? 0 : offset;
  const cards = location.reviews.slice(from, from + 10).map((review) => reviewCard(review, location.kind));
  return html(
    200,
    `<!DOCTYPE html><html lang="en-US"><head><meta charset="utf-8"><title>${location.name} - Reviews - Tripadvisor</title><script src="https://js.datadome.co/tags.js" async></script></head><body><h1>${location.name}</h1><div id="reviews">${cards.join("\n")}</div></body></html>`,
  );
}

/** What the site shows with machine translation on: the translation in place of the original. */
function shown(review: FixtureTaReview, machineTranslation: boolean): Record<string, unknown> {
  const { machineTranslation: translation, ...rest } = review;
  if (!machineTranslation || !translation) return rest;
  return { ...rest, text: translation.text, title: translation.title, language: translation.language };
}

interface ReviewListVariables {
  locationId?: unknown;
  offset?: unknown;
  limit?: unknown;
  sortBy?: unknown;
  locale?: unknown;
  doMachineTranslation?: unknown;
}

function reviewList(request: FixtureRequest): FixtureResponse {
  // The live endpoint refuses requests without a client token with a bare 400.
  if (!request.headers["x-requested-by"]) return { status: 400, body: "" };
  let batch: unknown;
  try {
    batch = JSON.parse(request.body);
  } catch {
    return { status: 400, body: "" };
  }
  if (!Array.isArray(batch) || batch.length !== 1) return { status: 400, body: "" };
  const { variables = {}, extensions = {} } = batch[0] as {
    variables?: ReviewListVariables;
    extensions?: { preRegisteredQueryId?: unknown };
  };
  const location = LOCATIONS.find((l) => l.locationId === variables.locationId);
  // An unknown id, a session the location page did not issue, and (for the `distrusted` location)
  // any session but a provider's relay all get the same answer.
  const distrusted =
    !trustedSession(request) || (location?.behaviour === "distrusted" && !request.headers["x-fake-relay"]);
  if (extensions.preRegisteredQueryId !== REGISTERED_QUERY_ID || distrusted) {
    return json(200, [
      {
        errors: [{ message: "PersistedQueryNotFound", extensions: { code: "PERSISTED_QUERY_NOT_FOUND" } }],
        data: null,
      },
    ]);
  }
  if (typeof variables.locale !== "string") {
    return json(200, [
      {
        errors: [{ message: 'Variable "$locale" of required type "String!" was not provided.' }],
        data: null,
      },
    ]);
  }
  if (!location) return json(200, [{ data: { ReviewsProxy_getReviewListPageForLocation: [] } }]);
  if (location.behaviour === "graphql-403")
    return json(403, {
      url: "https://geo.captcha-delivery.com/captcha/?initialCid=AHrlqAAAAAMA&hash=2211F522&cid=abc&t=fe&referer=https%3A%2F%2Fwww.tripadvisor.com&s=43337",
    });
  // 2026: the operation returns the newest reviews whatever the offset, at most 20.
  const offset = 0;
  const limit = Math.min(typeof variables.limit === "number" ? variables.limit : 10, 20);
  // Newest first only when asked; the server's own order otherwise (here: best rated first).
  const ordered =
    variables.sortBy === "DATE"
      ? location.reviews
      : [...location.reviews].sort((a, b) => b.rating - a.rating);
  const reviews = ordered
    .slice(offset, offset + limit)
    .map((review) => shown(review, variables.doMachineTranslation === true));
  if (location.behaviour === "review-without-rating") delete reviews[0].rating;
  // Counts reviews it does not list (as a filter the query does not know about would).
  if (location.behaviour === "lists-none") reviews.length = 0;
  const page = {
    __typename: "ReviewsProxy_ReviewListPage",
    preferredReviewIds: [],
    totalCount: location.reviews.length,
    reviews,
  };
  const key =
    location.behaviour === "changed-structure"
      ? "ReviewsProxy_getReviewListPageForLocationV2"
      : "ReviewsProxy_getReviewListPageForLocation";
  return json(200, [{ data: { [key]: [page] } }]);
}

function typeAhead(url: URL): FixtureResponse {
  const query = (url.searchParams.get("query") ?? "").toLowerCase();
  if (url.searchParams.get("action") !== "API" || !query) return json(200, { results: [] });
  const words = query.split(/\s+/);
  const results = LISTINGS.filter((item) =>
    words.some(
      (word) =>
        item.name
          .toLowerCase()
          .split(/[\s,]+/)
          .includes(word) && word.length > 3,
    ),
  );
  return json(200, { normalized: query, query, results, partial_content: false });
}

function site(request: FixtureRequest): FixtureResponse {
  const { url, method } = request;
  if (url.pathname === "/data/graphql/ids" && method === "POST") return reviewList(request);
  if (url.pathname === "/TypeAheadJson" && method === "GET") return typeAhead(url);
  // An old address of the hotel: Tripadvisor answers renamed slugs and offsets with a 301 to the page.
  if (url.pathname === "/Hotel_Review-g60713-d1001-Reviews-Old_Name_Hotel.html")
    return { status: 301, headers: { Location: locationPath(LOCATIONS[0]) }, body: "" };
  const reviewPage = method === "GET" ? byReviewPagePath(url.pathname) : undefined;
  if (reviewPage)
    return reviewPage.location.behaviour === "captcha-page"
      ? html(200, CAPTCHA_PAGE)
      : reviewsHtmlPage(reviewPage.location, reviewPage.offset);
  const location = method === "GET" ? byPath(url.pathname) : undefined;
  return location ? locationPage(location) : html(404, "<h1>This page is on vacation</h1>");
}

const fixture: PublisherFixture = {
  domains: ["tripadvisor.com", "tripadvisor.co.uk", "tripadvisor.de"],
  site,
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: {
    profileUrl: `https://www.tripadvisor.com${locationPath(LOCATIONS.find((l) => l.locationId === 1001)!)}`,
  },
};
export default fixture;
