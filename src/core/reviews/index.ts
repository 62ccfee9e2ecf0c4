/** What the scraping pipeline and the publisher adapters use to turn scraped reviews into API reviews. */
export { RawReviewSchema, type RawReview, type RawRating } from "./raw-review";
export {
  normalizeReview,
  normalizeReviews,
  isUsableReview,
  UnusableReviewError,
  type NormalizeContext,
} from "./normalize";
export { reviewHash, reviewHashInput } from "./review-hash";
export { OPTIONAL_REVIEW_FIELDS, optionalFieldsOf, type OptionalReviewField } from "./optional-fields";
