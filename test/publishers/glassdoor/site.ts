/**
 * Fixture of www.glassdoor.com as the Glassdoor adapter reaches it.
 *
 * Structures copied (never the code) from scrapfly/scrapfly-scrapers glassdoor-scraper/glassdoor.py
 * (the Apollo cache in `<script id="__NEXT_DATA__">` at props.pageProps.apolloCache, or a script's
 * `"apolloState":{…}};`; `__ref` links; the ROOT_QUERY key starting with `employerReviews`; pages as
 * `…-Reviews-E<id>_P<n>.htm`; numberOfPages/currentPage) and glassdoor-scraper/results/reviews.json
 * (the EmployerReviewRG fields, see ./data.ts).
 *
 * Not verified against the live site (no network here): the exact ROOT_QUERY key arguments, the
 * "most recent" sort parameters (`sort.sortType=RD&sort.ascending=false`, as Glassdoor's own
 * links carry them), the sign-in redirect path (/profile/login_input.htm) and the bot-check title.
 */
import type { FixtureRequest, FixtureResponse, PublisherFixture } from "../../fixtures/sites";
import { EMPLOYERS, PAGE_SIZE, type FixtureEmployer, type FixtureGlassdoorReview } from "./data";

const html = (head: string, body: string, title: string, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`,
});

const LOGIN_FORM = `<form action="/profile/ajax/loginAjax.htm" method="post"><input type="email" name="username"><input type="password" name="password"><button>Sign in</button></form>`;

function cachedReview(r: FixtureGlassdoorReview, e: FixtureEmployer) {
  return {
    __typename: "EmployerReviewRG",
    advice: r.advice ?? null,
    adviceOriginal: null,
    cons: r.cons,
    consOriginal: r.original?.cons ?? null,
    countHelpful: 0,
    employer: { __ref: `Employer:${e.id}` },
    employerResponses: r.response
      ? [
          {
            __typename: "EmployerResponseRG",
            id: r.reviewId + 5,
            response: r.response.text,
            responseOriginal: null,
            'responseDateTime({"format":"ISO"})': r.response.dateTime,
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
  };
}

/** The normalized Apollo cache of one reviews page. */
function cache(e: FixtureEmployer, page: number, newest: boolean) {
  const ordered = newest
    ? [...e.reviews].sort((a, b) => b.reviewDateTime.localeCompare(a.reviewDateTime))
    : [...e.reviews].sort((a, b) => b.ratingOverall - a.ratingOverall || a.reviewId - b.reviewId);
  const shown = e.behaviour === "hidden" ? [] : ordered.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const numberOfPages = Math.max(1, Math.ceil(e.reviews.length / PAGE_SIZE));
  const key = `employerReviewsRG({"employerReviewsInput":{"employer":{"id":${e.id}},"page":{"num":${page},"size":${PAGE_SIZE}},"sort":"${newest ? "DATE" : "RELEVANCE"}"}})`;
  const entries = Object.fromEntries(shown.map((r) => [`EmployerReviewRG:${r.reviewId}`, cachedReview(r, e)]));
  const result = {
    __typename: "EmployerReviewsRG",
    allReviewsCount: e.reviews.length,
    currentPage: page,
    numberOfPages,
    reviews: shown.map((r) => ({ __ref: `EmployerReviewRG:${r.reviewId}` })),
  };
  return {
    [`Employer:${e.id}`]: { __typename: "Employer", id: e.id, shortName: e.name, name: `${e.name} Inc.` },
    ...entries,
    ROOT_QUERY: { __typename: "Query", ...(e.behaviour === "changed" ? { employerReviewsV2: undefined, reviewsFeed: result } : { [key]: result }) },
  };
}

function reviewsPage(e: FixtureEmployer, page: number, newest: boolean): FixtureResponse {
  const data = cache(e, page, newest);
  const title = `${e.name} Reviews | Glassdoor`;
  const overlay = e.behaviour === "hidden" ? `<div id="HardsellOverlay"><h2>Sign in to read reviews</h2>${LOGIN_FORM}</div>` : "";
  // Page 2 carries the older inline form of the cache; the others the Next.js one.
  if (page === 2) return html("", `<div id="app"></div>${overlay}<script>window.appCache={"apolloState":${JSON.stringify(data)}};</script>`, title);
  const nextData = { props: { pageProps: { apolloCache: data } }, page: "/reviews", query: {} };
  return html(
    "",
    `<div id="__next"></div>${overlay}<script id="__NEXT_DATA__" type="application/json">${JSON.stringify(nextData).replace(/</g, "\\u003c")}</script>`,
    title,
  );
}

function site({ url }: FixtureRequest): FixtureResponse {
  if (url.pathname.startsWith("/profile/login")) return html("", `<h1>Sign in</h1>${LOGIN_FORM}`, "Sign In | Glassdoor");
  const match = /^\/Reviews\/[^/]*-Reviews-E(\d+)(?:_P(\d+))?\.htm$/.exec(url.pathname);
  const e = match ? EMPLOYERS.find((x) => x.id === Number(match[1])) : undefined;
  const notFound = html("", "<h1>Page not found</h1>", "Glassdoor", 404);
  if (!match || !e) return notFound;
  const page = Number(match[2] ?? "1");
  if (page > Math.max(1, Math.ceil(e.reviews.length / PAGE_SIZE))) return notFound;
  if (e.behaviour === "login-redirect")
    return {
      status: 302,
      headers: { Location: `/profile/login_input.htm?userOriginHook=HEADER_SIGNIN_LINK&redirect=${encodeURIComponent(url.pathname)}` },
      body: "",
    };
  if (e.behaviour === "bot-check")
    return html(
      "",
      "<h1>Help Us Protect Glassdoor</h1><p>Please help us protect Glassdoor by verifying that you're a real person.</p>",
      "Help Us Protect Glassdoor",
    );
  const newest = url.searchParams.get("sort.sortType") === "RD" && url.searchParams.get("sort.ascending") === "false";
  return reviewsPage(e, page, newest);
}

const fixture: PublisherFixture = { domains: ["glassdoor.com"], site };
export default fixture;
