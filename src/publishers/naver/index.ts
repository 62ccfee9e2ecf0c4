import type { PageInspector } from "../../scraping/client";
import { transientError } from "../../scraping/errors";
import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { naverProfile, openNaverPlace } from "./profile";
import { naverReviewsRequest, parseNaverPage, WHAT } from "./reviews";

/** Naver's captcha page, as the public clients recognise it. */
const CAPTCHA = /WtmCaptcha|wtm_captcha/i;

/**
 * A captcha page, or HTML where the GraphQL answers JSON (how Naver turns a request away), is
 * `blocked`: another route (a browser or a provider) may still pass.
 */
const inspectNaverPage: PageInspector = (page) => {
  const head = page.text.slice(0, 2_000);
  if (CAPTCHA.test(head)) return transientError("blocked", "Naver answered with its captcha (WtmCaptcha)");
  if (page.url.pathname === "/graphql" && head.trimStart().startsWith("<"))
    return transientError("blocked", "Naver answered its place GraphQL with an HTML page");
  return null;
};

/**
 * naver.com (Naver Map places, Korea): a place's visitor reviews from the place GraphQL its pages
 * call, newest first, 10 a page, paged by cursor; the business type is read once from the place
 * page's Apollo state, which also starts the cookie session. Naver guards the GraphQL with the
 * `x-wtm-graphql` header (derived here) and, under load, an NCaptcha (not solvable here: blocked or
 * publisher_error naming it). No lookup.
 */
export const naver = definePublisher({
  name: "naver",
  displayName: "Naver Place",
  kind: "maps",
  // map.naver.com, the name clients know Naver Map by, is an alias of the key.
  domains: ["naver.com", "map.naver.com"],
  loginRequired: false,
  ratingScale: "1–5 stars, kept as is (reviews without stars are left out and reported in coverage)",
  profile: naverProfile,
  summaryFields: ["rating", "review_count"],
  queue: {
    concurrency: 1,
    retries: 4,
    retryDelay: 120,
    note: "naver.com: the place GraphQL (x-wtm-graphql header, session cookies), behind an NCaptcha wall; one at a time.",
  },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: naverProfile.keyOf,
    open: openNaverPlace,
    firstPage: 1,
    request: (key, position) => naverReviewsRequest(key, position),
    parse: parseNaverPage,
    // 10 a page: 5,000 pages is 50,000 reviews, beyond the most reviewed place.
    maxPages: 5_000,
    inspect: inspectNaverPage,
  }),
  evidenceDate: "2026-08-08",
});
