/**
 * The optional review fields of issue 36: present on a review only where the publisher gives them,
 * never part of `review_hash`. Each module declares which of them it fills (`reviewFields`,
 * src/publishers/types.ts); GET /publishers, the module READMEs and docs/publishers.md list them, and
 * the contract test checks each claim against the module's fixture sample.
 */
export const OPTIONAL_REVIEW_FIELDS = [
  "title",
  "likes",
  "author_review_count",
  "author_photo_count",
  "author_badges",
  "photos",
  "sub_ratings",
  "translated_text",
] as const;

export type OptionalReviewField = (typeof OPTIONAL_REVIEW_FIELDS)[number];

/** The optional fields a review (as the API returns it) carries. */
export function optionalFieldsOf(
  review: Partial<Record<OptionalReviewField, unknown>>,
): OptionalReviewField[] {
  return OPTIONAL_REVIEW_FIELDS.filter((field) => review[field] !== undefined);
}
