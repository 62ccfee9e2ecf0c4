/**
 * Agoda's review comments API, the endpoint its hotel pages load reviews from:
 * `POST https://www.agoda.com/api/cronos/property/review/ReviewComments` with a JSON body
 * `{hotelId, providerId: 332, page, pageSize, sorting, providerIds: [332], filters, …}`, answering
 * `{comments: [...]}`; the summary `HotelReviews` (same body) states the comment count per provider.
 * Provider 332 is Agoda's own reviews (the page also mixes in partner sites'
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
 * `sorting: 1` is "most recent" (2 rating high to low, 3 low to high, 7 most helpful) in the 2026
 * clients named in README.md. Newest first matters: incremental runs stop at the first known review.
 */
export const SORTING = 1;

const API = "https://www.agoda.com/api/cronos/property/review";

/** The body both review endpoints take (ReviewComments pages it; HotelReviews reads page 1 only). */
function reviewBody(hotelId: string, page: number, pageSize: number) {
  return {
    hotelId: Number(hotelId),
    providerId: AGODA_PROVIDER,
    demographicId: 0,
    page,
    pageSize,
    sorting: SORTING,
    providerIds: [AGODA_PROVIDER],
    isReviewPage: false,
    isCrawlablePage: true,
    filters: { language: [], room: [] },
    searchKeyword: "",
    searchFilters: [],
  };
}

/** The property's review summary (scores and, per provider, its comment count): asked once, for the total. */
export function hotelReviewsRequest(hotelId: string): { url: string; options: RequestOptions } {
  return { url: `${API}/HotelReviews`, options: { method: "POST", json: reviewBody(hotelId, 1, 20) } };
}

export function reviewCommentsRequest(
  hotelId: string,
  position: WalkPosition,
): { url: string; options: RequestOptions } {
  return {
    url: `${API}/ReviewComments`,
    options: { method: "POST", json: reviewBody(hotelId, position.page, PAGE_SIZE) },
  };
}

/** Page 1 as the walk fetches it: the comments answer with the summary answer (null when it failed). */
export interface AgodaFirstPage {
  kind: "agoda-first-page";
  comments: unknown;
  summary: unknown;
}

function isFirstPage(data: unknown): data is AgodaFirstPage {
  return (
    typeof data === "object" && data !== null && (data as { kind?: unknown }).kind === "agoda-first-page"
  );
}

const SummarySchema = z.object({
  commentList: z.object({
    providerList: z.array(
      z.object({ id: z.number().int(), totalIndex: z.number().int().nonnegative().nullish() }).passthrough(),
    ),
  }),
});

/** Agoda's own comment count (`commentList.providerList[id = 332].totalIndex`), or null where the summary does not say. */
export function agodaTotal(summary: unknown): number | null {
  const parsed = SummarySchema.safeParse(summary);
  if (!parsed.success) return null;
  return parsed.data.commentList.providerList.find((p) => p.id === AGODA_PROVIDER)?.totalIndex ?? null;
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
  /** The property's answer: its text, who wrote it ("Hotel manager") and when. */
  responseText: text,
  responderName: text,
  responseDate: z.string().max(40).nullish(),
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

/** The reviewer's own title (the original where Agoda gives one beside its translation). */
function reviewTitle(comment: z.infer<typeof CommentSchema>): string | undefined {
  return (comment.originalTitle ?? comment.reviewTitle)?.trim() || undefined;
}

/** Title, the comment, then "Positives:" and "Negatives:" where given, blocks separated by blank lines. */
function reviewText(comment: z.infer<typeof CommentSchema>): string {
  const title = reviewTitle(comment);
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
  const first = isFirstPage(data) ? data : null;
  const answer = readAnswer(AnswerSchema, first ? first.comments : data, WHAT);
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
    const reply = comment.responseText?.trim();
    reviews.push({
      id: String(comment.hotelReviewId),
      ...(author ? { author_name: author } : {}),
      ...(comment.rating != null && comment.rating >= 1
        ? { rating: { value: comment.rating, best: 10, worst: 1 } }
        : {}),
      text: reviewText(comment),
      // Also a field of its own (issue 36); the text keeps it first, so review_hash is unchanged.
      ...(reviewTitle(comment) ? { title: reviewTitle(comment) } : {}),
      url: ctx.pageUrl,
      ...(comment.reviewDate ? { date: comment.reviewDate } : {}),
      ...(comment.translateSource ? { language: comment.translateSource } : {}),
      ...(country && /^[a-z]{2}$/i.test(country) ? { author_country: country } : {}),
      ...(count != null ? { author_review_count: count } : {}),
      ...(reply
        ? { reply_text: reply, ...(comment.responseDate ? { reply_date: comment.responseDate } : {}) }
        : {}),
    });
  }
  const full = answer.comments.length >= PAGE_SIZE;
  return {
    reviews,
    next: full ? { page: ctx.position.page + 1, token: null } : null,
    ...(first ? { publisherTotal: agodaTotal(first.summary) } : {}),
  };
}
