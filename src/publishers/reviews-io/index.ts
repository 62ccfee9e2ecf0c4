import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { resolveReviewsIoProfile, storeOf } from "./profile";
import { parseReviewsIoPage, reviewsIoUrl, WHAT } from "./reviews";

/**
 * reviews.io (formerly reviews.co.uk): a store's company reviews from the public merchant reviews
 * API (no key), 100 a page by page number from 0. profile_key is the store's company-reviews page
 * or its store id; the API finds no store from a name or address, so there is no lookup.
 */
export const reviewsIo = definePublisher({
  name: "reviews-io",
  displayName: "REVIEWS.io",
  kind: "consumer",
  domains: ["reviews.io", "reviews.co.uk"],
  loginRequired: false,
  ratingScale: "1–5 stars, kept as is",
  summaryFields: ["review_count"],
  resolveProfileKey: resolveReviewsIoProfile,
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: storeOf,
    firstPage: 0,
    request: (store, position) => ({ url: reviewsIoUrl(store, position) }),
    parse: parseReviewsIoPage,
    maxPages: 2_000,
  }),
  evidenceDate: "2026-09",
});
