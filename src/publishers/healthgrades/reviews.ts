/**
 * Healthgrades' provider comments API, the endpoint its profile pages load more reviews from:
 * `POST https://www.healthgrades.com/api4/providerprofile/comments` with a form body
 * `{currentPage, includeAllAnswers, perPage, pwid, sortOption}`, answering
 * `{totalCommentCount, results: [{commentId, commentText, submittedDate ("Jan 03, 2021"),
 * overallScore}]}`. Structure as two public clients read it (see README.md).
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import type { RequestOptions } from "../../scraping/client";
import { permanentError } from "../../scraping/errors";
import {
  countOf,
  nextByNumber,
  readAnswer,
  type ParseContext,
  type WalkPage,
  type WalkPosition,
} from "../kit/json-walk";
import { printedDate } from "../kit/printed-date";

export const WHAT = "Healthgrades comments";
export const PER_PAGE = 10;
export const COMMENTS_URL = "https://www.healthgrades.com/api4/providerprofile/comments";

/** The request of one page of a provider's comments (sortOption 1, the order both clients ask for). */
export function commentsRequest(
  pwid: string,
  position: WalkPosition,
  pageUrl: string,
): { url: string; options: RequestOptions } {
  return {
    url: COMMENTS_URL,
    options: {
      method: "POST",
      form: {
        currentPage: String(position.page),
        includeAllAnswers: "true",
        perPage: String(PER_PAGE),
        pwid,
        sortOption: "1",
      },
      headers: { Referer: pageUrl },
    },
  };
}

const ItemSchema = z.object({
  commentId: z.union([z.string().min(1).max(100), z.number().int()]),
  commentText: z.string().nullish(),
  submittedDate: z.string().max(40).nullish(),
  overallScore: z.number().min(1).max(5).nullish(),
});

const AnswerSchema = z.object({ totalCommentCount: z.unknown(), results: z.array(z.unknown()) });

/** "Jan 03, 2021" → "2021-01-03" (the kit's printedDate), re-exported for this module's tests. */
export { printedDate };

/** One page. A comment without an id or with a value of the wrong type is skipped. */
export function parseHealthgradesPage(data: unknown, ctx: ParseContext): WalkPage {
  const answer = readAnswer(AnswerSchema, data, WHAT);
  const total = countOf(answer.totalCommentCount);
  if (total === null) throw permanentError("publisher_error", `${WHAT}: the answer has no totalCommentCount`);
  const reviews: RawReview[] = [];
  for (const raw of answer.results) {
    ctx.budget.spend();
    const item = ItemSchema.safeParse(raw);
    if (!item.success) continue;
    const { commentId, commentText, submittedDate, overallScore } = item.data;
    reviews.push({
      id: String(commentId),
      ...(overallScore != null ? { rating: { value: overallScore, best: 5, worst: 1 } } : {}),
      text: commentText?.trim() ?? "",
      url: ctx.pageUrl,
      ...(submittedDate ? { date: printedDate(submittedDate) } : {}),
    });
  }
  const lastPage = Math.max(1, Math.ceil(total / PER_PAGE));
  return {
    reviews,
    next: nextByNumber(WHAT, ctx.position.page, lastPage, answer.results.length),
    publisherTotal: total,
  };
}
