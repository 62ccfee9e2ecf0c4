/**
 * Agoda's review comments API, the endpoint its hotel pages load reviews from:
 * `POST https://www.agoda.com/api/cronos/property/review/ReviewComments` with a JSON body
 * `{hotelId, providerId: 332, page, pageSize, sorting, providerIds: [332], filters, …}`, answering
 * `{comments: [...]}`. Provider 332 is Agoda's own reviews (the page also mixes in partner sites'
 * reviews under other provider ids, which are not Agoda's). Structure as public clients read it
 * (see README.md).
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import type { RequestOptions } from "../../scraping/client";
import { readAnswer, type ParseContext, type WalkPage, type WalkPosition } from "../kit/json-walk";

export const WHAT = "Agoda review comments";
export const PAGE_SIZE = 50;
export const AGODA_PROVIDER = 332;
/**
 * The `sorting` value the newest public client sends (7). Agoda documents no values; that 7 is its
 * "most recent" order is assumed, not verified (an older client sends 5).
 */
export const SORTING = 7;

export function reviewCommentsRequest(
  hotelId: string,
  position: WalkPosition,
): { url: string; options: RequestOptions } {
  return {
    url: "https://www.agoda.com/api/cronos/property/review/ReviewComments",
    options: {
      method: "POST",
      json: {
        hotelId: Number(hotelId),
        providerId: AGODA_PROVIDER,
        demographicId: 0,
        page: position.page,
        pageSize: PAGE_SIZE,
        sorting: SORTING,
        providerIds: [AGODA_PROVIDER],
        isReviewPage: false,
        isCrawlablePage: true,
        filters: { language: [], room: [] },
        searchKeyword: "",
        searchFilters: [],
      },
    },
  };
}

const text = z.string().max(50_000).nullish();

const CommentSchema = z.object({
  hotelReviewId: z.union([z.number().int(), z.string().min(1).max(40)]),
  providerId: z.number().int().nullish(),
  rating: z.number().min(0).max(10).nullish(),
  reviewTitle: text,
  reviewComments: text,
  reviewPositives: text,
  reviewNegatives: text,
  /** The text as written where Agoda shows a machine translation in `reviewTitle`/`reviewComments`. */
  originalTitle: text,
  originalComment: text,
  translateSource: z.string().max(20).nullish(),
  reviewDate: z.string().max(40).nullish(),
  checkInDateMonthAndYear: z.string().max(40).nullish(),
  reviewerInfo: z
    .object({
      displayMemberName: text,
      flagName: z.string().max(10).nullish(),
      reviewerReviewedCount: z.number().int().min(0).nullish(),
    })
    .nullish(),
});

const AnswerSchema = z.object({ comments: z.array(z.unknown()) });

const line = (label: string, value: string | null | undefined) =>
  value?.trim() ? `${label}: ${value.trim()}` : "";

/** Title, the comment, then "Positives:" and "Negatives:" where given, blocks separated by blank lines. */
function reviewText(comment: z.infer<typeof CommentSchema>): string {
  const title = (comment.originalTitle ?? comment.reviewTitle)?.trim();
  const body = (comment.originalComment ?? comment.reviewComments)?.trim();
  return [title, body, line("Positives", comment.reviewPositives), line("Negatives", comment.reviewNegatives)]
    .filter(Boolean)
    .join("\n\n");
}

/**
 * One page. A comment from another provider, without an id or with a value of the wrong type is
 * skipped. The answer states no total in the evidence, so the walk goes on while pages are full
 * and ends at the first short one (the client it follows walks until an empty page).
 */
export function parseAgodaPage(data: unknown, ctx: ParseContext): WalkPage {
  const answer = readAnswer(AnswerSchema, data, WHAT);
  const reviews: RawReview[] = [];
  for (const raw of answer.comments) {
    ctx.budget.spend();
    const item = CommentSchema.safeParse(raw);
    if (!item.success) continue;
    const comment = item.data;
    if (comment.providerId != null && comment.providerId !== AGODA_PROVIDER) continue;
    const author = comment.reviewerInfo?.displayMemberName?.trim();
    const country = comment.reviewerInfo?.flagName?.trim();
    const count = comment.reviewerInfo?.reviewerReviewedCount;
    reviews.push({
      id: String(comment.hotelReviewId),
      ...(author ? { author_name: author } : {}),
      ...(comment.rating != null && comment.rating >= 1
        ? { rating: { value: comment.rating, best: 10, worst: 1 } }
        : {}),
      text: reviewText(comment),
      url: ctx.pageUrl,
      ...(comment.reviewDate ? { date: comment.reviewDate } : {}),
      ...(comment.translateSource ? { language: comment.translateSource } : {}),
      ...(country && /^[a-z]{2}$/i.test(country) ? { author_country: country } : {}),
      ...(count != null ? { author_review_count: count } : {}),
    });
  }
  const full = answer.comments.length >= PAGE_SIZE;
  return { reviews, next: full ? { page: ctx.position.page + 1, token: null } : null };
}
