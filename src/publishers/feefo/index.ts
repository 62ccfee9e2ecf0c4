import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { feefoPageUrl, merchantOf, resolveFeefoProfile } from "./profile";
import { feefoReviewsUrl, parseFeefoPage, WHAT } from "./reviews";

/**
 * feefo.com: a merchant's service reviews from Feefo's public Reviews API (no key), 100 a page by
 * page number. profile_key is the merchant's review page or its merchant identifier; Feefo's API
 * finds no merchant from a name or address, so there is no lookup.
 */
export const feefo = definePublisher({
  name: "feefo",
  displayName: "Feefo",
  kind: "consumer",
  domains: ["feefo.com"],
  loginRequired: false,
  ratingScale: "1–5 stars (service rating), kept as is",
  summaryFields: ["review_count"],
  resolveProfileKey: resolveFeefoProfile,
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: merchantOf,
    firstPage: 1,
    request: (merchant, position) => ({ url: feefoReviewsUrl(merchant, position) }),
    parse: parseFeefoPage,
    // 100 a page: 2,000 pages is 200,000 reviews, beyond any merchant's service reviews.
    maxPages: 2_000,
  }),
  evidenceDate: "2026-09-24",
});

export { feefoPageUrl };
