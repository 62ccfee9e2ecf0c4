/**
 * Zillow's public agent reviews API, the endpoint an agent's profile page loads:
 * `GET https://www.zillow.com/profile-page/api/public/v1/reviews?encodedZuid=&profileTypeIds=1,2,12,16
 * &page=&size=&sortType=2&sortOrder=2`, answering `{reviews: [...], filters: [{count}, …]}`.
 * Structure as public clients read it (see README.md).
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

export const WHAT = "Zillow reviews";
export const PAGE_SIZE = 10;

/** The request of one page of an agent's reviews (sortType 2, sortOrder 2 as every client sends). */
export function zillowReviewsUrl(encodedZuid: string, position: WalkPosition): string {
  const url = new URL("https://www.zillow.com/profile-page/api/public/v1/reviews");
  url.searchParams.set("encodedZuid", encodedZuid);
  url.searchParams.set("profileTypeIds", "1,2,12,16");
  url.searchParams.set("page", String(position.page));
  url.searchParams.set("size", String(PAGE_SIZE));
  url.searchParams.set("sortType", "2");
  url.searchParams.set("sortOrder", "2");
  return url.toString();
}

const ReviewSchema = z.object({
  reviewId: z.union([z.string().min(1).max(60), z.number().int()]),
  rating: z.number().min(1).max(5).nullish(),
  createDate: z.string().max(40).nullish(),
  reviewComment: z.string().max(50_000).nullish(),
  reviewer: z
    .object({ screenName: z.string().max(200).nullish(), encodedZuid: z.string().max(80).nullish() })
    .nullish(),
  /** The aspect scores, `[{description: "Local knowledge", score: 5}]`; an odd list costs them, never the review. */
  subRatings: z
    .array(z.object({ description: z.string().max(100), score: z.number().nullish() }))
    .max(50)
    .nullish()
    .catch(null),
});

/**
 * `sub_ratings` from the aspect scores, named as the API's other keys are (lower case, `_` between
 * words): "Local knowledge" → `local_knowledge`.
 */
function subRatings(review: z.infer<typeof ReviewSchema>): Pick<RawReview, "sub_ratings"> {
  const scores = (review.subRatings ?? []).flatMap((sub) => {
    const name = sub.description
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, "_")
      .replace(/^_|_$/g, "");
    return name && typeof sub.score === "number" ? [[name, sub.score] as const] : [];
  });
  return scores.length ? { sub_ratings: Object.fromEntries(scores) } : {};
}

const AnswerSchema = z.object({
  reviews: z.array(z.unknown()),
  filters: z.array(z.object({ count: z.unknown() }).passthrough()).min(1),
});

const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** "11/14/2018" (month first, as Zillow prints it) → "2018-11-14"; anything else as printed. */
export function usDate(value: string): string {
  const match = US_DATE.exec(value.trim());
  return match ? `${match[3]}-${match[1].padStart(2, "0")}-${match[2].padStart(2, "0")}` : value.trim();
}

/** One page; `filters[0].count` is the agent's review count (all reviews, the first filter). */
export function parseZillowPage(data: unknown, ctx: ParseContext): WalkPage {
  const answer = readAnswer(AnswerSchema, data, WHAT);
  const total = countOf(answer.filters[0].count);
  if (total === null) throw permanentError("publisher_error", `${WHAT}: filters[0].count is not a count`);
  const reviews: RawReview[] = [];
  for (const raw of answer.reviews) {
    ctx.budget.spend();
    const item = ReviewSchema.safeParse(raw);
    if (!item.success) continue;
    const review = item.data;
    const author = review.reviewer?.screenName?.trim();
    const authorId = review.reviewer?.encodedZuid?.trim();
    reviews.push({
      id: String(review.reviewId),
      ...(author ? { author_name: author } : {}),
      ...(authorId ? { author_id: authorId } : {}),
      ...(review.rating != null ? { rating: { value: review.rating, best: 5, worst: 1 } } : {}),
      text: review.reviewComment?.trim() ?? "",
      ...subRatings(review),
      url: ctx.pageUrl,
      ...(review.createDate ? { date: usDate(review.createDate) } : {}),
    });
  }
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return {
    reviews,
    next: nextByNumber(WHAT, ctx.position.page, lastPage, answer.reviews.length),
    publisherTotal: total,
  };
}
