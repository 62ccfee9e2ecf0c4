/**
 * Fixture of www.glassdoor.com as the Glassdoor adapter reaches it.
 *
 * Structures copied (never the code) from scrapfly/scrapfly-scrapers glassdoor-scraper/glassdoor.py
 * (the Apollo cache in `<script id="__NEXT_DATA__">` at props.pageProps.apolloCache, or a script's
 * `"apolloState":{…}};`; `__ref` links; the ROOT_QUERY key starting with `employerReviews`; pages as
 * `…-Reviews-E<id>_P<n>.htm`; numberOfPages/currentPage) and glassdoor-scraper/results/reviews.json
 * (the EmployerReviewRG fields, see ./data.ts).
 *
 * The JSON call (`POST /bff/employer-profile-mono/employer-reviews`, see
 * src/publishers/glassdoor/graph.ts): the JSON body scrapfly-scrapers glassdoor.py (2026-05) sends
 * (employerId, dynamicProfileId from the page's inline `"employer":{…"profileId":…}`, page,
 * pageSize, sort "DATE", …), the answer `data.employerReviews` {reviews […], numberOfPages,
 * filteredReviewsCount, allReviewsCount, currentPage}; one employer's answers leave out
 * numberOfPages/currentPage, as another 2026 client notes the API now does. The `gdToken` on the
 * page: an invented value in an inline script (public clients of the new call do not send it).
 *
 * Employer "Flight Co" (behaviour `rsc`) serves page 1 as a Next.js App Router page: no
 * `__NEXT_DATA__`, the RSC payload in `self.__next_f.push` chunks, modelled on a 2026 glassdoor-collect
 * skill (sources of 2026-09-28) that reads Glassdoor's Overview page so, with the BFF call's arguments as
 * SWR keys; see `rscReviewsPage` and src/publishers/glassdoor/README.md.
 *
 * Not verified against the live site (no network here): the exact ROOT_QUERY key arguments, the
 * "most recent" sort parameters (`sort.sortType=RD&sort.ascending=false`, as Glassdoor's own
 * links carry them), the sign-in redirect path (/profile/login_input.htm), the bot-check title,
 * where exactly the page's inline state carries gdToken and profileId, and how the JSON call
 * refuses a stale token (modelled as a 403) or answers an error (a GraphQL `errors` envelope).
 */
import type { FixtureRequest, FixtureResponse, PublisherFixture } from "../../fixtures/sites";
import {
  EMPLOYERS,
  JSON_MAX_PAGE_SIZE,
  PAGE_SIZE,
  SUB_RATING_FIELDS,
  profileIdOf,
  tokenOf,
  type FixtureEmployer,
  type FixtureGlassdoorReview,
} from "./data";

const html = (head: string, body: string, title: string, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`,
});

const LOGIN_FORM = `<form action="/profile/ajax/loginAjax.htm" method="post"><input type="email" name="username"><input type="password" name="password"><button>Sign in</button></form>`;

const employerObject = (e: FixtureEmployer) => ({
  __typename: "Employer",
  id: e.id,
  shortName: e.name,
  name: `${e.name} Inc.`,
});

/**
 * One review as Glassdoor's GraphQL layer gives it: in the page's normalized cache (`cached`: the
 * employer as a `__ref`, the response date under its key with arguments) or in a /graph answer
 * (nested objects, the field under its plain name).
 */
function reviewObject(r: FixtureGlassdoorReview, e: FixtureEmployer, cached: boolean) {
  return {
    __typename: "EmployerReviewRG",
    advice: r.advice ?? null,
    adviceOriginal: null,
    cons: r.cons,
    consOriginal: r.original?.cons ?? null,
    countHelpful: 0,
    employer: cached ? { __ref: `Employer:${e.id}` } : employerObject(e),
    employerResponses: r.response
      ? [
          {
            __typename: "EmployerResponseRG",
            id: r.reviewId + 5,
            response: r.response.text,
            responseOriginal: null,
            [cached ? 'responseDateTime({"format":"ISO"})' : "responseDateTime"]: r.response.dateTime,
            userJobTitle: r.response.userJobTitle,
            languageId: "eng",
          },
        ]
      : [],
    employmentStatus: "REGULAR",
    isCurrentJob: true,
    jobTitle: r.jobTitle ? { __typename: "JobTitle", id: 633616, text: r.jobTitle } : null,
    languageId: "eng",
    originalLanguageId: r.original?.languageId ?? null,
    pros: r.pros,
    prosOriginal: r.original?.pros ?? null,
    ratingOverall: r.ratingOverall,
    reviewDateTime: r.reviewDateTime,
    reviewId: r.reviewId,
    summary: r.summary,
    summaryOriginal: r.original?.summary ?? null,
    translationMethod: r.original ? "MACHINE" : null,
    // Aspects the reviewer left unrated are sent as 0, as in the real answers (results/reviews.json).
    ...Object.fromEntries(SUB_RATING_FIELDS.map((field) => [field, r.subRatings?.[field] ?? 0])),
  };
}

const numberOfPages = (e: FixtureEmployer, size = PAGE_SIZE) =>
  Math.max(1, Math.ceil(e.reviews.length / size));

/**
 * The reviews of one page of `size` (the site's pages: 10): newest first when asked ("DATE"), else
 * Glassdoor's relevance (here: best first).
 */
function shownOn(
  e: FixtureEmployer,
  page: number,
  newest: boolean,
  size = PAGE_SIZE,
): FixtureGlassdoorReview[] {
  const ordered = newest
    ? [...e.reviews].sort((a, b) => b.reviewDateTime.localeCompare(a.reviewDateTime))
    : [...e.reviews].sort((a, b) => b.ratingOverall - a.ratingOverall || a.reviewId - b.reviewId);
  return e.behaviour === "hidden" ? [] : ordered.slice((page - 1) * size, page * size);
}

/** The normalized Apollo cache of one reviews page. */
function cache(e: FixtureEmployer, page: number, newest: boolean) {
  const shown = shownOn(e, page, newest);
  const key = `employerReviewsRG({"employerReviewsInput":{"employer":{"id":${e.id}},"page":{"num":${page},"size":${PAGE_SIZE}},"sort":"${newest ? "DATE" : "RELEVANCE"}"}})`;
  const entries = Object.fromEntries(
    shown.map((r) => [`EmployerReviewRG:${r.reviewId}`, reviewObject(r, e, true)]),
  );
  const result = {
    __typename: "EmployerReviewsRG",
    allReviewsCount: e.reviews.length,
    currentPage: page,
    numberOfPages: numberOfPages(e),
    reviews: shown.map((r) => ({ __ref: `EmployerReviewRG:${r.reviewId}` })),
  };
  return {
    [`Employer:${e.id}`]: employerObject(e),
    ...entries,
    ROOT_QUERY: {
      __typename: "Query",
      ...(e.behaviour === "changed"
        ? { employerReviewsV2: undefined, reviewsFeed: result }
        : { [key]: result }),
    },
  };
}

/**
 * Page 1 as an App Router page: the flight stream in two `self.__next_f.push([1,"…"])` chunks. Row 1
 * holds the employer object, the page's `gdToken` and the SWR fallback keyed by the reviews call
 * (`#url:"/bff/…"`, as a 2026 glassdoor-collect skill reads the Overview page's payload), whose value
 * refers to row 2, the call's answer (nested reviews, as the JSON call answers). Modelled, not captured.
 */
function rscReviewsPage(e: FixtureEmployer, newest: boolean): FixtureResponse {
  const answer = {
    data: {
      employerReviews: {
        __typename: "EmployerReviewsRG",
        allReviewsCount: e.reviews.length,
        filteredReviewsCount: e.reviews.length,
        currentPage: 1,
        numberOfPages: numberOfPages(e),
        reviews: shownOn(e, 1, newest).map((r) => reviewObject(r, e, false)),
      },
    },
  };
  const swrKey = `#url:"${"/bff/employer-profile-mono/employer-reviews"}",employerId:${e.id},page:1,`;
  const props = {
    employer: { id: e.id, shortName: e.name, profileId: profileIdOf(e) },
    gdToken: tokenOf(e),
    fallback: { [swrKey]: "$2" },
  };
  const stream = `0:["$","div",null,{"children":"$L1"}]\n1:${JSON.stringify(props)}\n2:${JSON.stringify(answer)}\n`;
  const cut = Math.floor(stream.length / 2);
  const push = (chunk: string) =>
    `<script>self.__next_f.push([1,${JSON.stringify(chunk).replace(/</g, "\\u003c")}])</script>`;
  return html(
    "",
    `<div id="__next"></div><script>(self.__next_f=self.__next_f||[]).push([0])</script>${push(stream.slice(0, cut))}${push(stream.slice(cut))}`,
    `${e.name} Reviews | Glassdoor`,
  );
}

function reviewsPage(e: FixtureEmployer, page: number, newest: boolean): FixtureResponse {
  if (e.behaviour === "rsc" && page === 1) return rscReviewsPage(e, newest);
  const data = cache(e, page, newest);
  const title = `${e.name} Reviews | Glassdoor`;
  const overlay =
    e.behaviour === "hidden"
      ? `<div id="HardsellOverlay"><h2>Sign in to read reviews</h2>${LOGIN_FORM}</div>`
      : "";
  // The anti-forgery token the page's client sends with its /graph calls.
  const token =
    e.behaviour === "no-token"
      ? ""
      : `<script>window.gdGlobals={"gdToken":"${e.behaviour === "stale-token" ? "expired:token:value" : tokenOf(e)}","locale":"en_US"};</script>`;
  // The employer object current clients read `profileId` from (sent as dynamicProfileId).
  const meta = `<script>self.__next_f.push([1,{"employer":{"id":${e.id},"shortName":"${e.name}","profileId":${profileIdOf(e)}}}]);</script>`;
  // Page 2 carries the older inline form of the cache; the others the Next.js one.
  if (page === 2)
    return html(
      "",
      `<div id="app"></div>${overlay}${token}${meta}<script>window.appCache={"apolloState":${JSON.stringify(data)}};</script>`,
      title,
    );
  const nextData = { props: { pageProps: { apolloCache: data } }, page: "/reviews", query: {} };
  return html(
    "",
    `<div id="__next"></div>${overlay}${token}${meta}<script id="__NEXT_DATA__" type="application/json">${JSON.stringify(nextData).replace(/</g, "\\u003c")}</script>`,
    title,
  );
}

const json = (status: number, data: unknown): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(data),
});
const graphError = (message: string, code: string) =>
  json(200, { errors: [{ message, extensions: { code } }], data: null });
// Glassdoor's edge refuses a /graph call without a valid token before GraphQL sees it.
const FORBIDDEN: FixtureResponse = {
  status: 403,
  headers: { "Content-Type": "text/plain" },
  body: "Forbidden",
};

interface JsonBody {
  employerId?: unknown;
  page?: unknown;
  pageSize?: unknown;
  sort?: unknown;
  dynamicProfileId?: unknown;
}

/**
 * POST /bff/employer-profile-mono/employer-reviews, checked the way the site would refuse a wrong
 * call: a token, when sent, must be the page's (a stale one is refused with 403, as Glassdoor's edge
 * does); no token is fine (public clients send none). `dynamicProfileId`, when sent, must be the
 * employer's. The answer leaves out `numberOfPages` and `currentPage` for the employer whose
 * behaviour says so, as a 2026 client notes the API does.
 */
function employerReviews(request: FixtureRequest): FixtureResponse {
  if (request.method !== "POST") return { status: 405, headers: { Allow: "POST" }, body: "" };
  const token = request.headers["gd-csrf-token"];
  let body: JsonBody;
  try {
    body = JSON.parse(request.body) as JsonBody;
  } catch {
    return json(400, { errors: [{ message: "Invalid JSON body" }] });
  }
  const e = EMPLOYERS.find((x) => x.id === body.employerId);
  if (typeof body.page !== "number" || !Number.isInteger(body.page) || body.page < 1)
    return graphError("page must be a positive integer", "BAD_USER_INPUT");
  if (!e) return graphError("Employer not found", "NOT_FOUND");
  if (token !== undefined && token !== tokenOf(e)) return FORBIDDEN;
  if (body.dynamicProfileId !== undefined && body.dynamicProfileId !== profileIdOf(e))
    return graphError("Unknown dynamicProfileId", "BAD_USER_INPUT");
  if (e.behaviour === "graph-login")
    return {
      status: 302,
      headers: { Location: "/profile/login_input.htm?userOriginHook=HARDSELL" },
      body: "",
    };
  if (e.behaviour === "graph-error") return graphError("Internal server error", "INTERNAL_SERVER_ERROR");
  const page = e.behaviour === "graph-page-one" ? 1 : body.page;
  // As many a page as asked, up to 50; the site's 10 when the body names no size.
  const size =
    typeof body.pageSize === "number" && Number.isInteger(body.pageSize) && body.pageSize > 0
      ? Math.min(body.pageSize, JSON_MAX_PAGE_SIZE)
      : PAGE_SIZE;
  const result = {
    __typename: "EmployerReviewsRG",
    allReviewsCount: e.reviews.length,
    filteredReviewsCount: e.reviews.length,
    ...(e.behaviour === "no-page-count" ? {} : { currentPage: page, numberOfPages: numberOfPages(e, size) }),
    reviews: shownOn(e, page, body.sort === "DATE", size).map((r) => reviewObject(r, e, false)),
  };
  const answer =
    e.behaviour === "graph-changed"
      ? { data: { employerReviewsV3: result } }
      : { data: { employerReviews: result } };
  return json(200, answer);
}

/**
 * An Apollo cache whose ROOT_QUERY result points to node 0 and each node i twice to node i+1
 * (`depth` nodes, under 2 KB of JSON): expanded once per path it costs 2^depth.
 */
export function fanCache(depth: number) {
  const cache: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++)
    cache[`N:${i}`] =
      i + 1 < depth ? { a: { __ref: `N:${i + 1}` }, b: { __ref: `N:${i + 1}` } } : { leaf: true };
  cache.ROOT_QUERY = {
    employerReviewsRG: { reviews: [{ __ref: "N:0" }], currentPage: 1, numberOfPages: 1, allReviewsCount: 1 },
  };
  return cache;
}

/** About `size` characters of `<script ` and `<input name="hotel_id" ` openings that never close. */
export function unclosedTags(size: number): string {
  const unit = '<script data-sjs id="__NEXT_DATA__" <input name="hotel_id" <meta content="fb://profile/1 ';
  return unit.repeat(Math.ceil(size / unit.length));
}

function site(request: FixtureRequest): FixtureResponse {
  const { url } = request;
  if (url.pathname === "/bff/employer-profile-mono/employer-reviews") return employerReviews(request);
  if (url.pathname.startsWith("/profile/login"))
    return html("", `<h1>Sign in</h1>${LOGIN_FORM}`, "Sign In | Glassdoor");
  const match = /^\/Reviews\/[^/]*-Reviews-E(\d+)(?:_P(\d+))?\.htm$/.exec(url.pathname);
  const e = match ? EMPLOYERS.find((x) => x.id === Number(match[1])) : undefined;
  const notFound = html("", "<h1>Page not found</h1>", "Glassdoor", 404);
  if (!match || !e) return notFound;
  const page = Number(match[2] ?? "1");
  if (page > numberOfPages(e)) return notFound;
  if (e.behaviour === "login-redirect")
    return {
      status: 302,
      headers: {
        Location: `/profile/login_input.htm?userOriginHook=HEADER_SIGNIN_LINK&redirect=${encodeURIComponent(url.pathname)}`,
      },
      body: "",
    };
  if (e.behaviour === "bot-check")
    return html(
      "",
      "<h1>Help Us Protect Glassdoor</h1><p>Please help us protect Glassdoor by verifying that you're a real person.</p>",
      "Help Us Protect Glassdoor",
    );
  if (e.behaviour === "hostile-fan")
    return html(
      "",
      `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps: { apolloCache: fanCache(30) } } })}</script>`,
      "Fan Co Reviews | Glassdoor",
    );
  if (e.behaviour === "hostile-tags") return html("", unclosedTags(2_000_000), "Tags Co Reviews | Glassdoor");
  const newest =
    url.searchParams.get("sort.sortType") === "RD" && url.searchParams.get("sort.ascending") === "false";
  return reviewsPage(e, page, newest);
}

const fixture: PublisherFixture = {
  // Page 1 of Acme Widgets: titles, and one review's rated aspects.
  coverageSample: { profileUrl: "https://www.glassdoor.com/Reviews/Acme-Widgets-Reviews-E4242.htm" },
  domains: ["glassdoor.com"],
  site,
};
export default fixture;
