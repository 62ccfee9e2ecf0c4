/**
 * The trustpilot.com fixture site (every country subdomain too): profile pages and the search
 * page as Next.js pages whose data sits in `<script id="__NEXT_DATA__">`, the shapes in ./data.ts.
 *
 * Structure copied from: scrapfly/scrapfly-scrapers trustpilot-scraper (trustpilot.py reads
 * `script#__NEXT_DATA__` → props.pageProps; run.py's review list URL with `sort=recency`), the
 * public page-data typing and scraper fixtures named in ./data.ts (sign-in redirect of deep pages
 * to /users/connect, the AWS WAF "Verifying your connection" challenge page).
 *
 * Profiles are `/review/<scenario>-<8 hex>.com` so each test has its own request counts:
 * - `multi`: ten reviews, four a page. Without `languages=all` only the English ones are listed;
 *   without `sort=recency` the list is in "relevance" order (highest rating first).
 * - `moved`: the profile answers 301 to `/review/www.moved-….com` (Trustpilot's canonical name).
 * - `walled`: pages 1–2 as `multi`, then the sign-in redirect (307 to /users/connect?redirect=…).
 * - `signin`: the sign-in redirect from page 1.
 * - `empty`: a business without reviews. `captcha`: the bot check page. `consent`: a consent wall.
 * - `changed`: page data whose review list moved (`reviewList`). `bare`: a page without __NEXT_DATA__.
 * - `hollow`: page data saying 10 reviews on 3 pages with an empty list.
 * - `capped`, `starred`, `heavy`: 300 reviews, 20 a page, with Trustpilot's signed-out cap (pages
 *   11+ of any list empty, without `filters.pagination`; a `jwt` session cookie lifts it) and the
 *   `stars` filter, as browser-use/browser-harness `agent-workspace/domain-skills/trustpilot/scraping.md`
 *   @fb1a51d (MIT, field-tested 2026-04-18) describes them. `capped`: all five stars (no star list
 *   gets past the first 200); `starred`: 60 of each rating (the star lists reach all 300); `heavy`:
 *   225 five-star and 75 one-star (the five-star list is itself longer than the cap).
 * `/review/www.lookup-bluedoor.com` is the business the search finds (served as `multi`).
 */
import type { FixtureRequest, FixtureResponse, PublisherFixture } from "../../fixtures/sites";
import {
  LONG_PER_PAGE,
  PER_PAGE,
  RELEVANT,
  REVIEWS,
  SEARCH_RESULTS,
  longProfile,
  type FixtureTrustpilotReview,
} from "./data";

const BUILD_ID = "businessunitprofile-consumersite-2.427.0";

function htmlPage(
  title: string,
  body: string,
  nextData?: unknown,
  status = 200,
  headers: Record<string, string> = {},
): FixtureResponse {
  // Next.js writes its data as JSON inside the script, `<` escaped so no `</script>` can end it.
  const script =
    nextData === undefined
      ? ""
      : `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify(nextData).replace(/</g, "\\u003c")}</script>`;
  return {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", ...headers },
    body: `<!DOCTYPE html><html lang="en-US"><head><meta charSet="utf-8"/><title>${title}</title></head><body><div id="__next">${body}</div>${script}</body></html>`,
  };
}

const notFound = () => htmlPage("Page not found", "<h1>Page not found</h1>", undefined, 404);

const signInRedirect = (url: URL): FixtureResponse => ({
  status: 307,
  headers: { Location: `/users/connect?redirect=${encodeURIComponent(url.pathname + url.search)}` },
  body: "",
});

const SIGN_IN_PAGE = htmlPage(
  "Log in or sign up | Trustpilot",
  `<h1>Log in or sign up below</h1><button>Continue with Google</button><button>Continue with Facebook</button><a href="/users/connect/email">Continue with email</a>`,
);

const CAPTCHA_PAGE = htmlPage(
  "Verifying Connection",
  `<h1>Verifying your connection...</h1><p>Please wait while we verify your browser.</p><div id="captcha-container"></div><script src="https://token.awswaf.com/captcha.js"></script>`,
);

const CONSENT_PAGE = htmlPage(
  "Trustpilot",
  `<div id="onetrust-consent-sdk"><div id="onetrust-banner-sdk"><p>We use cookies to improve your experience.</p><button id="onetrust-accept-btn-handler">Accept all</button></div></div>`,
);

interface ListOptions {
  domain: string;
  page: number;
  reviews: FixtureTrustpilotReview[];
  languages: string;
  sort: string;
  /** The `stars` filter (null: every rating). */
  stars?: number | null;
  perPage?: number;
}

/** How many of `reviews` have each star rating, in Trustpilot's names. */
function ratingsOf(reviews: FixtureTrustpilotReview[]) {
  const count = (stars: number) => reviews.filter((r) => r.rating === stars).length;
  return {
    total: reviews.length,
    one: count(1),
    two: count(2),
    three: count(3),
    four: count(4),
    five: count(5),
  };
}

/** The profile page's data, page `page` of `reviews` as the query's filters select them. */
function profileData({
  domain,
  page,
  reviews,
  languages,
  sort,
  stars = null,
  perPage = PER_PAGE,
}: ListOptions) {
  const listed = reviews.filter(
    (r) => (languages === "all" || r.language === languages) && (stars === null || r.rating === stars),
  );
  const ordered = sort === "recency" ? listed : [...listed].sort((a, b) => b.rating - a.rating);
  const totalPages = Math.ceil(ordered.length / perPage);
  const pageReviews = ordered.slice((page - 1) * perPage, page * perPage);
  const query = {
    businessUnit: domain,
    languages,
    sort,
    ...(stars === null ? {} : { stars: String(stars) }),
    ...(page > 1 ? { page: String(page) } : {}),
  };
  return {
    props: {
      pageProps: {
        domain,
        pageUrl: `https://www.trustpilot.com/review/${domain}`,
        businessUnit: {
          id: "5b0000000000000000000004",
          displayName: "Blue Door Café",
          identifyingName: domain,
          numberOfReviews: reviews.length,
          trustScore: 4.3,
          websiteUrl: `https://${domain}`,
          stars: 4.5,
          isClaimed: true,
          contactInfo: {
            email: "",
            address: "1 Market Street",
            city: "San Francisco",
            country: "US",
            phone: "",
            zipCode: "94105",
          },
        },
        reviews: pageReviews,
        relevantReviews: RELEVANT,
        products: null,
        filters: {
          hasActiveFilters: false,
          totalNumberOfReviews: reviews.length,
          totalNumberOfFilteredReviews: listed.length,
          pagination: { currentPage: page, perPage, totalCount: listed.length, totalPages } as
            { currentPage: number; perPage: number; totalCount: number; totalPages: number } | undefined,
          selected: {
            languages,
            date: null,
            stars: stars === null ? null : [String(stars)],
            aspects: null,
            topics: null,
            search: null,
            locationId: null,
            sort,
            verified: false,
            replies: false,
          },
          reviewStatistics: {
            hasMultipleLanguages: true,
            reviewLanguages: [],
            ratings: ratingsOf(reviews),
          },
        },
        seoData: {
          locale: "en-US",
          canonicalUrl: `https://www.trustpilot.com/review/${domain}`,
          languages: [],
          domain,
        },
      },
      __N_SSP: true,
    },
    page: "/review/[businessUnit]",
    query,
    buildId: BUILD_ID,
    isFallback: false,
    gssp: true,
    locale: "en-US",
  };
}

/** The long profiles, 300 reviews each (built once). */
const LONG: Record<string, FixtureTrustpilotReview[]> = {
  capped: longProfile(300, "7a", () => 5),
  starred: longProfile(300, "7b", (i) => 5 - (i % 5)),
  heavy: longProfile(300, "7c", (i) => (i % 4 === 0 ? 1 : 5)),
};

/**
 * A long profile as Trustpilot serves it: 20 a page, filtered by `stars` when asked, and to a
 * signed-out visitor (no `jwt` session cookie) only pages 1–10 of any list: page 11 and later keep
 * the page data but hold `reviews: []` and no `filters.pagination`.
 */
function longList(
  url: URL,
  domain: string,
  reviews: FixtureTrustpilotReview[],
  signedIn: boolean,
): FixtureResponse {
  const page = Number(url.searchParams.get("page") ?? "1");
  const starsParam = url.searchParams.get("stars");
  const data = profileData({
    domain,
    page,
    reviews,
    languages: url.searchParams.get("languages") ?? "en",
    sort: url.searchParams.get("sort") ?? "relevance",
    stars: starsParam === null ? null : Number(starsParam),
    perPage: LONG_PER_PAGE,
  });
  if (page > 10 && !signedIn) {
    data.props.pageProps.reviews = [];
    data.props.pageProps.filters.pagination = undefined;
  }
  return htmlPage("Blue Door Café", "<h1>Blue Door Café</h1>", data);
}

function profile(url: URL, domain: string, scenario: string, cookie: string): FixtureResponse {
  if (scenario in LONG) return longList(url, domain, LONG[scenario], /(?:^|;\s*)jwt=/.test(cookie));
  const page = Number(url.searchParams.get("page") ?? "1");
  // Trustpilot's own default: the visitor's language and "most relevant" first.
  const languages = url.searchParams.get("languages") ?? "en";
  const sort = url.searchParams.get("sort") ?? "relevance";
  const list = (reviews: FixtureTrustpilotReview[]) => {
    const data = profileData({ domain, page, reviews, languages, sort });
    if (page < 1 || (page > 1 && page > data.props.pageProps.filters.pagination!.totalPages))
      return notFound();
    return htmlPage(
      `Blue Door Café Reviews | Read Customer Service Reviews of ${domain}`,
      `<h1>Blue Door Café</h1>`,
      data,
    );
  };
  switch (scenario) {
    case "multi":
    case "lookup":
      return list(REVIEWS);
    case "moved":
      if (!domain.startsWith("www."))
        return { status: 301, headers: { Location: `/review/www.${domain}${url.search}` }, body: "" };
      return list(REVIEWS);
    case "walled":
      return page >= 3 ? signInRedirect(url) : list(REVIEWS);
    case "signin":
      return signInRedirect(url);
    case "empty":
      return list([]);
    case "captcha":
      return CAPTCHA_PAGE;
    case "consent":
      return CONSENT_PAGE;
    case "changed": {
      const data = profileData({ domain, page, reviews: REVIEWS, languages, sort });
      const { reviews, ...rest } = data.props.pageProps;
      return htmlPage("Blue Door Café", "<h1>Blue Door Café</h1>", {
        ...data,
        props: { ...data.props, pageProps: { ...rest, reviewList: reviews } },
      });
    }
    case "bare":
      return htmlPage(
        "Blue Door Café",
        `<h1>Blue Door Café</h1><article><p>Best flat white in town.</p></article>`,
      );
    case "hollow": {
      const data = profileData({ domain, page, reviews: REVIEWS, languages, sort });
      data.props.pageProps.reviews = [];
      return htmlPage("Blue Door Café", "<h1>Blue Door Café</h1>", data);
    }
    default:
      return notFound();
  }
}

function search(url: URL): FixtureResponse {
  const query = (url.searchParams.get("query") ?? "").toLowerCase();
  const businessUnits = SEARCH_RESULTS.filter((unit) =>
    query.split(/\s+/).some((word) => word && unit.displayName.toLowerCase().includes(word)),
  );
  return htmlPage("Search | Trustpilot", "<h1>Search results</h1>", {
    props: {
      pageProps: { businessUnits, query, totalHits: businessUnits.length, totalPages: 1 },
      __N_SSP: true,
    },
    page: "/search",
    query: { query },
    buildId: "consumersiteapp-1.0.0",
  });
}

function site({ url, cookie }: FixtureRequest): FixtureResponse {
  if (url.pathname === "/search") return search(url);
  if (url.pathname.startsWith("/users/connect")) return SIGN_IN_PAGE;
  const match = /^\/review\/([^/]+)$/.exec(url.pathname);
  if (!match) return notFound();
  const domain = decodeURIComponent(match[1]);
  if (domain === "www.lookup-bluedoor.com") return profile(url, domain, "lookup", cookie);
  const scenario = /^(?:www\.)?([a-z]+)-[0-9a-f]{8}\.com$/.exec(domain)?.[1];
  return scenario ? profile(url, domain, scenario, cookie) : notFound();
}

const fixture: PublisherFixture = {
  domains: ["trustpilot.com"],
  site,
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: { profileUrl: "https://www.trustpilot.com/review/multi-c0ffee00.com" },
};
export default fixture;
