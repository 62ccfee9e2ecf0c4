import type { PageInspector } from "../../scraping/client";
import { transientError } from "../../scraping/errors";
import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { EXPEDIA_DOMAINS, expediaProfile, openExpediaProperty } from "./profile";
import { expediaReviewsRequest, parseExpediaPage, WHAT } from "./reviews";

/**
 * Expedia Group sits behind Akamai Bot Manager: plain clients get 429 on every page, /graphql
 * included (handled as rate-limited, then blocked), with `x-page-id: wildcard-challenge-handler`;
 * a challenge page with 200, or HTML where /graphql should answer JSON, is `blocked`.
 */
const inspectExpediaPage: PageInspector = (page) => {
  if (
    page.headers.get("x-page-id") === "wildcard-challenge-handler" ||
    page.headers.get("x-app-info") === "captcha-pwa"
  ) {
    return transientError("blocked", "Expedia answered with Akamai's bot challenge");
  }
  if (page.url.pathname === "/graphql" && page.text.slice(0, 2_000).trimStart().startsWith("<")) {
    return transientError("blocked", "Expedia answered its GraphQL with an HTML page");
  }
  return null;
};

/**
 * Expedia Group's sites (expedia.com, hotels.com, orbitz.com, travelocity.com; vrbo.com and its
 * country brands): a property's guest reviews from Expedia Group's GraphQL reviews
 * query, 50 a page by page index, with the query's context taken once from the property page.
 * No lookup.
 */
export const expedia = definePublisher({
  name: "expedia",
  displayName: "Expedia Group (Expedia, Hotels.com, Orbitz, Travelocity, Vrbo and its brands)",
  kind: "travel",
  domains: EXPEDIA_DOMAINS,
  loginRequired: false,
  ratingScale: "10-point guest score mapped linearly from 1–10 onto 1–5 (round(1 + (score − 1) × 4 / 9))",
  profile: expediaProfile,
  queue: {
    concurrency: 1,
    retries: 4,
    retryDelay: 180,
    note: "Expedia Group sites (expedia.com, hotels.com, vrbo.com, …): GraphQL reviews behind Akamai Bot Manager, so one at a time.",
  },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: expediaProfile.keyOf,
    open: openExpediaProperty,
    firstPage: 0,
    request: expediaReviewsRequest,
    parse: parseExpediaPage,
    // 50 a page: 1,000 pages is 50,000 reviews.
    maxPages: 1_000,
    inspect: inspectExpediaPage,
  }),
  evidenceDate: "2026-06-25",
});
