import type { RawReview } from "../../core/reviews/raw-review";

const collapse = (value: string | undefined) => (value ?? "").replace(/\s+/g, " ").trim().toLowerCase();

function contentKey(review: RawReview): string | null {
  const author = collapse(review.author_name);
  const text = collapse(review.text);
  return author || text ? JSON.stringify([author, text]) : null;
}

/**
 * Ids a page gives to more than one different review, or that are just the page's own URL, are
 * not review ids (templates that stamp `@id` with the page URL): they are dropped so that
 * deduplication by review_id cannot merge distinct reviews.
 */
function dropFalseIds(reviews: RawReview[], pageUrls: ReadonlySet<string>): RawReview[] {
  const contentsById = new Map<string, Set<string | null>>();
  for (const review of reviews) {
    if (!review.id) continue;
    const contents = contentsById.get(review.id) ?? new Set();
    contents.add(contentKey(review));
    contentsById.set(review.id, contents);
  }
  return reviews.map((review) => {
    if (!review.id || (!pageUrls.has(review.id) && contentsById.get(review.id)!.size === 1)) return review;
    const { id: _dropped, ...rest } = review;
    return rest;
  });
}

/**
 * One review per review: pages often mark the same reviews up twice (JSON-LD for search engines
 * and microdata in the visible HTML). Copies are recognised by author and text (or by id when they
 * have neither), kept at the first one's place, and their fields combined.
 */
export function mergeDuplicates(reviews: RawReview[], pageUrls: ReadonlySet<string>): RawReview[] {
  const kept = new Map<string, RawReview>();
  const order: RawReview[] = [];
  for (const review of dropFalseIds(reviews, pageUrls)) {
    const key = contentKey(review) ?? (review.id ? `id:${review.id}` : null);
    const first = key === null ? undefined : kept.get(key);
    if (!first) {
      const copy = { ...review };
      if (key !== null) kept.set(key, copy);
      order.push(copy);
      continue;
    }
    for (const [field, value] of Object.entries(review) as Array<
      [keyof RawReview, RawReview[keyof RawReview]]
    >) {
      if (first[field] === undefined && value !== undefined) Object.assign(first, { [field]: value });
    }
  }
  return order;
}
