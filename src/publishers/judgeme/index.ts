import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { judgeMeKeyOf, judgeMeProfile, openJudgeMeProduct } from "./profile";
import { fetchJudgeMePage, judgeMeReviewsUrl, parseJudgeMePage, WHAT } from "./reviews";

/**
 * judge.me (the review app of many Shopify stores): one product's reviews, or the store's own shop
 * reviews, from Judge.me's public Widget API, whose answers are review markup inside JSON, paged by
 * number; the store's public token is read once from the product's (or the store's home) page. No
 * lookup.
 */
export const judgeme = definePublisher({
  name: "judgeme",
  displayName: "Judge.me",
  kind: "retail",
  domains: ["judge.me"],
  loginRequired: false,
  ratingScale: "1–5 stars (the review's data-score), kept as is",
  profile: judgeMeProfile,
  summaryFields: ["rating", "review_count", "histogram"],
  queue: {
    note: "judge.me: the public Widget API (product_review, all_reviews_page: markup inside JSON) with the store's public token, paged by number.",
  },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: judgeMeKeyOf,
    open: openJudgeMeProduct,
    firstPage: 1,
    request: (key, position, pageUrl) => ({
      url: judgeMeReviewsUrl(key, position),
      options: { headers: { Referer: pageUrl } },
    }),
    fetch: fetchJudgeMePage,
    parse: parseJudgeMePage,
    // 10 a page: 2,000 pages is 20,000 reviews of one product.
    maxPages: 2_000,
  }),
  evidenceDate: "2026-07-13",
});
