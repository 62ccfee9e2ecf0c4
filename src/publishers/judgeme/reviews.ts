/**
 * Judge.me's public Widget API, as the public clients named in README.md read it. For one product:
 * `GET https://judge.me/api/v1/widgets/product_review?api_token=<public token>&shop_domain=<shop>.myshopify.com
 * &handle=<handle>&page=N&per_page=10`, answering `{product_external_id, widget}` where `widget` is the
 * legacy Review Widget's markup (./widget.ts). For the store's own reviews:
 * `GET https://judge.me/api/v1/widgets/all_reviews_page?api_token=&shop_domain=&page=N&review_type=shop-reviews`,
 * answering `{all_reviews, all_reviews_header}` (25 a page in the client's tests; no page size or
 * count of pages is stated, so the walk ends at an empty page).
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import type { PageSummary } from "../../core/tasks/publisher-summary";
import type { RequestOptions } from "../../scraping/client";
import { permanentError, ScrapeError } from "../../scraping/errors";
import {
  countOf,
  nextByNumber,
  readAnswer,
  type ParseContext,
  type WalkPage,
  type WalkPosition,
} from "../kit/json-walk";
import { WorkBudget } from "../kit/work-budget";
import type { ScrapeContext } from "../types";
import { readWidget } from "./widget";

export const WHAT = "judge.me product reviews";
const STORE_WHAT = "judge.me shop reviews";
/** Reviews asked for per page (the widget's own pager shows 5 to 10). */
export const PER_PAGE = 10;

/**
 * Page N of a product's reviews (key `<shop>/<handle>/<public token>`) or of the store's shop reviews
 * (key `<shop>//<public token>`).
 */
export function judgeMeReviewsUrl(key: string, position: WalkPosition): string {
  const [shop, handle, token] = key.split("/");
  if (!shop || handle === undefined || !token)
    throw permanentError("publisher_error", `${WHAT}: the store's public token is unknown`);
  const url = new URL(`https://judge.me/api/v1/widgets/${handle ? "product_review" : "all_reviews_page"}`);
  url.searchParams.set("api_token", token);
  url.searchParams.set("shop_domain", `${shop}.myshopify.com`);
  if (handle) url.searchParams.set("handle", handle);
  url.searchParams.set("page", String(position.page));
  if (handle) url.searchParams.set("per_page", String(PER_PAGE));
  else url.searchParams.set("review_type", "shop-reviews");
  return url.toString();
}

const MARKUP = z.string().max(10_000_000);
const ProductAnswerSchema = z.object({ widget: MARKUP }).passthrough();
const StoreAnswerSchema = z.object({ all_reviews: MARKUP, all_reviews_header: MARKUP }).passthrough();

/**
 * Fetches one page and reads its widget markup: the answer is JSON around HTML, so the markup is read
 * here (HTMLRewriter is asynchronous) and `parseJudgeMePage` maps what was read.
 */
export async function fetchJudgeMePage(
  request: { url: string; options?: RequestOptions },
  _key: string,
  ctx: ScrapeContext,
): Promise<unknown> {
  try {
    const { data } = await ctx.client.json(request.url, request.options);
    return await readJudgeMeAnswer(data);
  } catch (err) {
    // The API's 401 is a token it refuses (a stale page, a reinstalled app), not a sign-in wall.
    if (err instanceof ScrapeError && err.reason === "login_required")
      throw permanentError("publisher_error", `${WHAT}: the Widget API refused the store's public token`);
    throw err;
  }
}

/**
 * The markup of an answer, read: a product's `widget`, or the store's `all_reviews_header` and
 * `all_reviews` (a changed answer with neither is `publisher_error`).
 */
export async function readJudgeMeAnswer(data: unknown): Promise<unknown> {
  const budget = new WorkBudget(`${WHAT} widget`);
  if (typeof data === "object" && data !== null && "all_reviews" in data) {
    const answer = readAnswer(StoreAnswerSchema, data, STORE_WHAT);
    return { kind: "store", ...(await readWidget(answer.all_reviews_header + answer.all_reviews, budget)) };
  }
  const answer = readAnswer(ProductAnswerSchema, data, WHAT);
  return { kind: "product", ...(await readWidget(answer.widget, budget)) };
}

const Short = z.string().max(2_000);
const ReadSchema = z.object({
  kind: z.enum(["product", "store"]),
  found: z.boolean(),
  shopReviewCount: Short.nullable(),
  averageRating: Short.nullable(),
  reviewCount: Short.nullable(),
  histogram: z.array(z.object({ rating: Short.nullable(), frequency: Short.nullable() })).max(10),
  reviews: z.array(z.unknown()),
});

const ReviewSchema = z.object({
  id: z.string().regex(/^[\w-]{1,100}$/),
  score: z
    .string()
    .regex(/^[1-5](?:\.\d+)?$/)
    .transform(Number),
  timestamp: z.string().min(4).max(100),
  author: Short,
  title: Short,
  body: z.string().max(50_000),
  verified: z.boolean(),
  photos: z.array(z.string().max(2_000)).max(20),
});

function summaryOf(read: z.infer<typeof ReadSchema>): PageSummary {
  const histogram: Partial<Record<"1" | "2" | "3" | "4" | "5", number>> = {};
  for (const row of read.histogram) {
    const count = countOf(row.frequency);
    if (row.rating && /^[1-5]$/.test(row.rating) && count !== null) histogram[row.rating as "1"] = count;
  }
  const rating =
    read.averageRating && /^\d(?:\.\d{1,3})?$/.test(read.averageRating) ? Number(read.averageRating) : null;
  return { rating, ratingScale: "1-5", histogram: Object.keys(histogram).length === 5 ? histogram : null };
}

/**
 * One page of the product's reviews, as `readJudgeMeAnswer` read it. A review without an id, a 1–5
 * `data-score` or a date is skipped; markup without the widget or its review count is
 * `publisher_error`. The walk's token is the page's first review id: a next page that starts with the
 * same review means the API ignores `page`, which ends the walk as a limited view rather than
 * collecting one page many times.
 */
export function parseJudgeMePage(data: unknown, ctx: ParseContext): WalkPage {
  const read = readAnswer(ReadSchema, data, `${WHAT} widget`);
  const store = read.kind === "store";
  if (!store && !read.found)
    throw permanentError(
      "publisher_error",
      `${WHAT}: the answer's widget has no .jdgm-rev-widg (the Review Widget markup)`,
    );
  const total = countOf(store ? read.shopReviewCount : read.reviewCount);
  if (total === null)
    throw permanentError(
      "publisher_error",
      store
        ? `${STORE_WHAT}: the header's data-number-of-shop-reviews is not a count`
        : `${WHAT}: the widget's data-number-of-reviews is not a count`,
    );
  const reviews = readReviews(read, ctx);
  const first = reviews[0]?.id ?? null;
  if (ctx.position.token !== null && first === ctx.position.token) {
    return {
      reviews: [],
      next: null,
      publisherTotal: total,
      limitedView: `${store ? STORE_WHAT : WHAT}: the API answered page 1 again for a later page: only the first page could be read`,
    };
  }
  // The store's answer states no page size: the walk goes on until a page holds no review.
  const next = store
    ? read.reviews.length > 0 && total > 0
      ? { page: ctx.position.page + 1, token: null }
      : null
    : nextByNumber(WHAT, ctx.position.page, Math.ceil(total / PER_PAGE), read.reviews.length);
  return {
    reviews,
    next: next && { page: next.page, token: first },
    publisherTotal: total,
    // The store's header averages product and shop reviews together: not the shop reviews' summary.
    ...(ctx.position.page === 1 && !store ? { summary: summaryOf(read) } : {}),
  };
}

function readReviews(read: z.infer<typeof ReadSchema>, ctx: ParseContext): RawReview[] {
  const reviews: RawReview[] = [];
  for (const raw of read.reviews) {
    ctx.budget.spend();
    const item = ReviewSchema.safeParse(raw);
    if (!item.success) continue;
    const r = item.data;
    reviews.push({
      id: r.id,
      rating: { value: r.score, best: 5, worst: 1 },
      text: r.body,
      url: ctx.pageUrl,
      date: r.timestamp.trim(),
      ...(r.author ? { author_name: r.author } : {}),
      ...(r.title ? { title: r.title } : {}),
      ...(r.verified ? { author_badges: ["verified_buyer"] } : {}),
      ...(r.photos.length ? { photos: r.photos } : {}),
    });
  }
  return reviews;
}
