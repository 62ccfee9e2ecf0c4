import type { Review } from "../../core/reviews/review";

export interface PageSelection {
  /** The page's reviews minus those the client already has. */
  fresh: Review[];
  /** The page holds a review the client already has: the walk (newest first) ends with this page. */
  reachedKnown: boolean;
}

/** Incremental scraping: reviews whose hash is in last_review_hashes are never stored or returned. */
export function withoutKnownReviews(
  reviews: readonly Review[],
  knownHashes: ReadonlySet<string>,
): PageSelection {
  const fresh = reviews.filter((review) => !knownHashes.has(review.review_hash));
  return { fresh, reachedKnown: fresh.length < reviews.length };
}
