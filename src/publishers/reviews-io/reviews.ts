/**
 * REVIEWS.io's public merchant reviews API (no key): `GET https://api.reviews.io/merchant/reviews
 * ?store=<store>&per_page=<n>&page=<n>`, pages counted from 0, answering `{stats: {total_reviews,
 * average_rating}, reviews: [...], total_pages}`. Keys as public clients read them (see README.md).
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import { permanentError } from "../../scraping/errors";
import {
  countOf,
  nextByNumber,
  readAnswer,
  type ParseContext,
  type WalkPage,
  type WalkPosition,
} from "../kit/json-walk";

export const WHAT = "REVIEWS.io reviews";
export const PER_PAGE = 100;

/**
 * The order asked for: by creation date, newest first. No client shows the API's default order to be
 * newest first, and incremental runs stop at the first known review on that assumption, so the order
 * is asked for explicitly, as a public client does (`sort=date_created`, README).
 */
export const SORT = "date_created";

/** The request of one page of a store's company reviews, newest first. */
export function reviewsIoUrl(store: string, position: WalkPosition): string {
  const url = new URL("https://api.reviews.io/merchant/reviews");
  url.searchParams.set("store", store);
  url.searchParams.set("per_page", String(PER_PAGE));
  url.searchParams.set("page", String(position.page));
  url.searchParams.set("sort", SORT);
  return url.toString();
}

const text = z.string().nullish();

const ReviewSchema = z.object({
  store_review_id: z.union([z.number().int(), z.string().min(1)]),
  reviewer: z.object({ first_name: text, last_name: text }).nullish(),
  rating: z.coerce.number().min(1).max(5),
  comments: text,
  /** "2026-11-20 09:14:03", as printed by the API (no zone given). */
  date_created: z.string().min(4).max(40),
});

const AnswerSchema = z.object({
  stats: z.object({ total_reviews: z.unknown() }),
  reviews: z.array(z.unknown()),
  total_pages: z.unknown(),
});

/** One page. A review whose values have the wrong type is skipped; the page count is `total_pages`. */
export function parseReviewsIoPage(data: unknown, ctx: ParseContext): WalkPage {
  const answer = readAnswer(AnswerSchema, data, WHAT);
  const total = countOf(answer.stats.total_reviews);
  const pages = countOf(answer.total_pages);
  if (total === null || pages === null)
    throw permanentError("publisher_error", `${WHAT}: no stats.total_reviews or total_pages`);
  const reviews: RawReview[] = [];
  for (const raw of answer.reviews) {
    ctx.budget.spend();
    const parsed = ReviewSchema.safeParse(raw);
    if (!parsed.success) continue;
    const review = parsed.data;
    const author = [review.reviewer?.first_name?.trim(), review.reviewer?.last_name?.trim()]
      .filter(Boolean)
      .join(" ");
    reviews.push({
      id: String(review.store_review_id),
      ...(author ? { author_name: author } : {}),
      rating: { value: review.rating, best: 5, worst: 1 },
      text: review.comments?.trim() ?? "",
      url: ctx.pageUrl,
      date: review.date_created,
    });
  }
  // Pages count from 0: the last one is total_pages - 1.
  return {
    reviews,
    next: nextByNumber(WHAT, ctx.position.page, pages - 1, answer.reviews.length),
    publisherTotal: total,
  };
}
