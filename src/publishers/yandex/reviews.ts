/**
 * What the Yandex Maps module reads, as pure parsers:
 * - the organisation's reviews page (`/maps/org/<id>/reviews/`), whose `<script class="state-view">`
 *   JSON carries the first page of reviews (`reviewResults.reviews`, `reviewResults.params` with
 *   `count` and `totalPages`), the organisation's `ratingData` (`ratingValue`, `reviewCount`) and the
 *   session's `csrfToken`, `sessionId` and `reqId`;
 * - the reviews API the page's own scripts call, `GET /maps/api/business/fetchReviews?ajax=1
 *   &businessId=&csrfToken=&locale=ru_RU&page=&pageSize=50&ranking=by_time&reqId=&sessionId=&s=`,
 *   answering `{data: {reviews: [...], params: {count, page, totalPages, …}}}`, or `{csrfToken}` alone
 *   when the token it was sent is stale (the page's scripts then retry once with the new one);
 * each review `{reviewId, author: {name}, text, rating, updatedTime, businessComment: {text,
 * updatedTime}, reactions: {likes}}`, as the public clients named in README.md read them.
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import type { PageSummary } from "../../core/tasks/publisher-summary";
import { permanentError, transientError } from "../../scraping/errors";
import { countOf, readAnswer } from "../kit/json-walk";
import type { WorkBudget } from "../kit/work-budget";
import { signedQuery } from "./sign";

export const WHAT = "Yandex Maps reviews";
export const PAGE_SIZE = 50;
/**
 * Yandex serves the first 600 reviews of a listing by offset and errors past them (12 pages of 50),
 * whatever `params.totalPages` says; see README.md "Assumed".
 */
export const WINDOW_PAGES = 12;
export const LOCALE = "ru_RU";

/** The session values the signed request carries, as the page's state gives them. */
export interface Session {
  csrfToken: string | null;
  sessionId: string | null;
  reqId: string | null;
}

/** The signed API request for page `page` (from 1) of an organisation's reviews, newest first. */
export function fetchReviewsUrl(origin: string, businessId: string, page: number, session: Session): string {
  const params: Record<string, string> = {
    ajax: "1",
    businessId,
    csrfToken: session.csrfToken ?? "",
    locale: LOCALE,
    page: String(page),
    pageSize: String(PAGE_SIZE),
    ranking: "by_time",
    ...(session.reqId ? { reqId: session.reqId } : {}),
    ...(session.sessionId ? { sessionId: session.sessionId } : {}),
  };
  return `${origin}/maps/api/business/fetchReviews?${signedQuery(params)}`;
}

const Token = z.string().regex(/^[\w.:-]{1,200}$/);

const ItemSchema = z.object({
  reviewId: z.string().min(1).max(200),
  rating: z.number().int().min(1).max(5),
  text: z.string().max(50_000).nullish(),
  updatedTime: z.string().min(4).max(40),
  author: z
    .object({ name: z.string().max(500).nullish() })
    .passthrough()
    .nullish(),
  businessComment: z
    .object({ text: z.string().max(50_000).nullish(), updatedTime: z.string().max(40).nullish() })
    .passthrough()
    .nullish(),
  reactions: z.object({ likes: z.number().int().nonnegative().nullish() }).passthrough().nullish(),
});

function rawReview(raw: unknown, pageUrl: string): RawReview | null {
  const item = ItemSchema.safeParse(raw);
  if (!item.success) return null;
  const review = item.data;
  const author = review.author?.name?.trim();
  const reply = review.businessComment?.text?.trim();
  const likes = review.reactions?.likes;
  return {
    id: review.reviewId,
    rating: { value: review.rating, best: 5, worst: 1 },
    text: review.text?.trim() ?? "",
    url: pageUrl,
    date: review.updatedTime,
    ...(author ? { author_name: author } : {}),
    ...(likes != null ? { likes } : {}),
    ...(reply ? { reply_text: reply } : {}),
    ...(reply && review.businessComment?.updatedTime
      ? { reply_date: review.businessComment.updatedTime }
      : {}),
  };
}

/** The reviews of a list that read, each spending the budget once; the rest are skipped. */
export function readReviews(items: readonly unknown[], pageUrl: string, budget: WorkBudget): RawReview[] {
  const reviews: RawReview[] = [];
  for (const item of items) {
    budget.spend();
    const review = rawReview(item, pageUrl);
    if (review) reviews.push(review);
  }
  return reviews;
}

export interface OrgState extends Session {
  /** The reviews the page embeds (the first page of its default, by-relevance order). */
  embedded: unknown[];
  /** The organisation's review count (`reviewResults.params.count`). */
  count: number | null;
  summary: PageSummary | null;
}

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => typeof value === "object" && value !== null;

/** The `{reviews, params}` object: a `reviews` list whose first item has a `reviewId`. */
function isReviewResults(node: Obj): boolean {
  const reviews = node.reviews;
  return Array.isArray(reviews) && isObject(reviews[0]) && "reviewId" in reviews[0];
}

/**
 * Reads the page's state JSON. The state nests what the module needs at depths the front end
 * reshuffles between builds, so the tree is walked (iteratively, one budget step per node) for the
 * first review results, the first `ratingData` and the first string value of each session key.
 */
export function orgStateOf(stateText: string, budget: WorkBudget): OrgState {
  let state: unknown;
  try {
    state = JSON.parse(stateText);
  } catch {
    throw permanentError("publisher_error", "Yandex Maps reviews page: the state-view script is not JSON");
  }
  let results: Obj | null = null;
  let ratingData: Obj | null = null;
  const session: Session = { csrfToken: null, sessionId: null, reqId: null };
  const stack: unknown[] = [state];
  while (stack.length) {
    const node = stack.pop();
    budget.spend();
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
      continue;
    }
    if (!isObject(node)) continue;
    if (!results && isReviewResults(node)) results = node;
    if (!ratingData && isObject(node.ratingData)) ratingData = node.ratingData;
    for (const key of ["csrfToken", "sessionId", "reqId"] as const) {
      const value = Token.safeParse(node[key]);
      if (session[key] === null && value.success) session[key] = value.data;
    }
    const values = Object.values(node);
    for (let i = values.length - 1; i >= 0; i--) if (isObject(values[i])) stack.push(values[i]);
  }
  const params = results && isObject(results.params) ? results.params : {};
  const rating = ratingData?.ratingValue;
  return {
    ...session,
    embedded: results ? (results.reviews as unknown[]) : [],
    count: countOf(params.count) ?? countOf(ratingData?.reviewCount),
    summary: typeof rating === "number" && Number.isFinite(rating) ? { rating, ratingScale: "1-5" } : null,
  };
}

const AnswerSchema = z.union([
  z.object({
    data: z.object({
      reviews: z.array(z.unknown()),
      params: z.object({ count: z.unknown().optional(), totalPages: z.unknown().optional() }).passthrough(),
    }),
  }),
  z.object({ csrfToken: Token }),
]);

export type ApiAnswer =
  { reviews: unknown[]; count: number | null; totalPages: number } | { csrfToken: string };

/**
 * One API answer: a page of reviews with the listing's count and page count, or a fresh
 * `csrfToken` alone (the token sent was stale). A captcha answer is `blocked`; an `error` answer or
 * anything else is `publisher_error` naming it.
 */
export function readApiAnswer(data: unknown): ApiAnswer {
  if (isObject(data) && data.type === "captcha")
    throw transientError("blocked", "Yandex Maps answered its reviews API with a captcha");
  if (isObject(data) && isObject(data.error)) {
    const message = typeof data.error.message === "string" ? data.error.message.slice(0, 200) : "no message";
    throw permanentError("publisher_error", `${WHAT}: the API answered an error (${message})`);
  }
  const answer = readAnswer(AnswerSchema, data, WHAT);
  if ("csrfToken" in answer) return { csrfToken: answer.csrfToken };
  const totalPages = countOf(answer.data.params.totalPages);
  if (totalPages === null)
    throw permanentError("publisher_error", `${WHAT}: data.params.totalPages is not a count`);
  return { reviews: answer.data.reviews, count: countOf(answer.data.params.count), totalPages };
}

/** Newest first by `updatedTime` (the embedded page comes in Yandex's relevance order). */
export function newestFirst(reviews: RawReview[]): RawReview[] {
  const time = (review: RawReview) => Date.parse(review.date ?? "") || 0;
  return [...reviews].sort((a, b) => time(b) - time(a));
}
