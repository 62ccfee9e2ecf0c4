/**
 * Houzz's reviews call, as the pro page's own script makes it: `GET /j/ajax/profileReviewsAjax?
 * userId=&proId=&fromItem=<offset>&itemsPerPage=<n>&sortType=NEWEST` with `X-Requested-With:
 * XMLHttpRequest` and the page as Referer, answering the page-state envelope
 * `{ctx: {data: {stores: {data: {ProfessionalReviewsStore: {data: {<reviewId>: review}},
 * UserStore: {data: {<userId>: {displayName}}}}}}}}`, reviews `{reviewId, userId, rating, body,
 * created (epoch seconds), numberOfLikes}`: sociodevz/topratedbyphilly-review-scraper
 * `reviews/main/sites/houzz.py` @762dcc78 and `reviews_formatter.py` @dbf34b1f (2021).
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import { permanentError } from "../../scraping/errors";
import { readAnswer, type ParseContext, type WalkPage } from "../kit/json-walk";

export const WHAT = "Houzz reviews";
/** Reviews a call asks for (the 2021 client's 45; the site's own script asks for more). */
export const ITEMS_PER_PAGE = 45;

/** The walk's key: `<userId>/<proId>/<count>/<average>` as the profile page stated them (profile.ts). */
function keyParts(key: string) {
  const match = /^(\d{1,15})\/(\d{1,15})\/(\d{1,12}|-)\/([\d.]{1,8}|-)$/.exec(key);
  if (!match) throw permanentError("publisher_error", `${WHAT}: the profile's ids are unknown`);
  const rating = match[4] === "-" ? null : Number(match[4]);
  return {
    userId: match[1],
    proId: match[2],
    total: match[3] === "-" ? null : Number(match[3]),
    rating: rating !== null && rating >= 1 && rating <= 5 ? rating : null,
  };
}

/** The reviews call of one page (page 1 starts at item 0), on the profile's own site. */
export function houzzReviewsUrl(key: string, page: number, pageUrl: string): string {
  const { userId, proId } = keyParts(key);
  const url = new URL("/j/ajax/profileReviewsAjax", new URL(pageUrl).origin);
  url.search = new URLSearchParams({
    userId,
    proId,
    fromItem: String((page - 1) * ITEMS_PER_PAGE),
    itemsPerPage: String(ITEMS_PER_PAGE),
    sortType: "NEWEST",
  }).toString();
  return url.toString();
}

const StoreSchema = z.object({ data: z.record(z.string(), z.unknown()) });
const AnswerSchema = z.object({
  ctx: z.object({
    data: z.object({
      stores: z.object({
        data: z.object({ ProfessionalReviewsStore: StoreSchema, UserStore: StoreSchema.optional() }),
      }),
    }),
  }),
});

const ReviewSchema = z.object({
  reviewId: z.union([z.number().int().positive(), z.string().regex(/^\d{1,20}$/)]),
  userId: z.union([z.number().int(), z.string().max(40)]).nullish(),
  rating: z.number().min(1).max(5),
  body: z.string().max(100_000).nullish(),
  created: z.number().int().positive().max(8.64e12),
  numberOfLikes: z.number().int().min(0).nullish(),
});
const UserSchema = z.object({ displayName: z.string().max(200).nullish() });

/**
 * Reads one answer. The reviews come keyed by their numeric ids, and a JSON object's integer keys
 * are enumerated in ascending order, not in the answer's: the page's reviews are put newest first by
 * `created`. A full page means there may be more; the profile page's count ends the walk sooner.
 */
export function parseHouzzPage(data: unknown, ctx: ParseContext): WalkPage {
  const stores = readAnswer(AnswerSchema, data, WHAT).ctx.data.stores.data;
  const { total, rating } = keyParts(ctx.key);
  const users = stores.UserStore?.data ?? {};
  const items = Object.values(stores.ProfessionalReviewsStore.data);
  const read: { created: number; review: RawReview }[] = [];
  for (const item of items) {
    ctx.budget.spend();
    const parsed = ReviewSchema.safeParse(item);
    if (!parsed.success) continue;
    const r = parsed.data;
    const user = UserSchema.safeParse(users[String(r.userId)]);
    const name = user.success ? user.data.displayName?.trim() : undefined;
    read.push({
      created: r.created,
      review: {
        id: String(r.reviewId),
        ...(name ? { author_name: name } : {}),
        rating: { value: r.rating, best: 5, worst: 1 },
        text: r.body?.trim() ?? "",
        url: ctx.pageUrl,
        date: new Date(r.created * 1000).toISOString(),
        ...(typeof r.numberOfLikes === "number" ? { likes: r.numberOfLikes } : {}),
      },
    });
  }
  if (items.length && !read.length)
    throw permanentError(
      "publisher_error",
      `${WHAT}: none of the ${items.length} reviews has reviewId, rating (1–5) and created`,
    );
  read.sort((a, b) => b.created - a.created);
  const page = ctx.position.page;
  const seen = (page - 1) * ITEMS_PER_PAGE + items.length;
  const more = items.length >= ITEMS_PER_PAGE && (total === null || seen < total);
  return {
    reviews: read.map((r) => r.review),
    next: more ? { page: page + 1, token: null } : null,
    ...(page === 1
      ? { publisherTotal: total, summary: rating !== null ? { rating, ratingScale: "1-5" } : null }
      : {}),
  };
}
