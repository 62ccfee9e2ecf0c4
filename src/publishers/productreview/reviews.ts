/**
 * ProductReview.com.au's listing reviews API, `GET https://api.productreview.com.au/api/au/listings/
 * {slug}/reviews?sort=firstPublishedAt&order=DESC&page=N&limit=100` (no key). The answer's shape is
 * what the newest named client reads (zzh8086/reddit-whirlpool-scraper, 2026-05, README.md
 * "Evidence"): `collection.items[]`, each review with `id`, `rating`, `title`, `body`,
 * `firstPublishedAt`, `hasVerifiedPurchase`, `numberOfLikes` and `_authorReference`, an index into
 * `collection.authors[]` whose `displayName` is the reviewer's name. No client shows a raw answer,
 * so these names are assumed: an answer without them fails loudly, naming the missing field.
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import { permanentError } from "../../scraping/errors";
import { readAnswer, type ParseContext, type WalkPage, type WalkPosition } from "../kit/json-walk";

export const WHAT = "ProductReview reviews";

/** Reviews asked for per page: the newest client asks for 100 and walks ⌈total / 100⌉ pages. */
export const PAGE_SIZE = 100;

/** Page N of a listing's reviews, newest first (the key is the listing's slug). */
export function productReviewUrl(slug: string, position: WalkPosition): string {
  const url = new URL(`https://api.productreview.com.au/api/au/listings/${encodeURIComponent(slug)}/reviews`);
  url.searchParams.set("sort", "firstPublishedAt");
  url.searchParams.set("order", "DESC");
  url.searchParams.set("page", String(position.page));
  url.searchParams.set("limit", String(PAGE_SIZE));
  return url.toString();
}

const AnswerSchema = z.object({
  collection: z.object({
    items: z.array(z.unknown()),
    authors: z.array(z.unknown()).nullish(),
  }),
});

/** The fields a review must have; any one missing or mistyped skips that review. */
const ItemSchema = z.object({
  id: z.string().min(1).max(100),
  rating: z.number().int().min(1).max(5),
  firstPublishedAt: z.string().min(4).max(40),
  title: z.string().max(2_000).nullish(),
  body: z.string().max(100_000).nullish(),
  hasVerifiedPurchase: z.boolean().nullish(),
  numberOfLikes: z.number().int().min(0).nullish(),
  _authorReference: z.number().int().min(0).nullish(),
});

const AuthorSchema = z.object({ displayName: z.string().max(200) });

const ASSUMED = "id, rating (1–5), firstPublishedAt";

/** The reviewer's name: the author the review's `_authorReference` points at, when it has a name. */
function authorName(authors: readonly unknown[], reference: number | null | undefined): string | null {
  if (reference === null || reference === undefined || reference >= authors.length) return null;
  const author = AuthorSchema.safeParse(authors[reference]);
  return author.success ? author.data.displayName.trim() || null : null;
}

function rawReview(
  item: z.infer<typeof ItemSchema>,
  authors: readonly unknown[],
  pageUrl: string,
): RawReview {
  const title = item.title?.trim();
  const body = item.body?.trim() ?? "";
  const name = authorName(authors, item._authorReference);
  return {
    id: item.id,
    ...(name ? { author_name: name } : {}),
    rating: { value: item.rating, best: 5, worst: 1 },
    ...(title ? { title } : {}),
    text: [title, body].filter(Boolean).join("\n\n"),
    url: pageUrl,
    date: item.firstPublishedAt,
    ...(typeof item.numberOfLikes === "number" ? { likes: item.numberOfLikes } : {}),
    ...(item.hasVerifiedPurchase ? { author_badges: ["verified_purchase"] } : {}),
  };
}

/**
 * One page. The walk asks for 100 reviews a page, so a page with fewer is the last; an empty page
 * ends it too. A page whose first review is the first review of the page before is the API clamping
 * past the end (or ignoring `page`): `publisher_error`, never a loop over the same reviews. A page
 * of reviews of which none has the assumed fields is `publisher_error` naming them.
 */
export function parseProductReviewPage(data: unknown, ctx: ParseContext): WalkPage {
  const { collection } = readAnswer(AnswerSchema, data, WHAT);
  const authors = collection.authors ?? [];
  const reviews: RawReview[] = [];
  for (const raw of collection.items) {
    ctx.budget.spend();
    const item = ItemSchema.safeParse(raw);
    if (item.success) reviews.push(rawReview(item.data, authors, ctx.pageUrl));
  }
  if (collection.items.length && !reviews.length)
    throw permanentError(
      "publisher_error",
      `${WHAT}: none of the ${collection.items.length} reviews has the assumed fields (${ASSUMED})`,
    );
  const first = reviews[0]?.id ?? null;
  if (first !== null && first === ctx.position.token)
    throw permanentError(
      "publisher_error",
      `${WHAT}: page ${ctx.position.page} repeats the page before it (the API does not page by \`page\`)`,
    );
  const full = collection.items.length >= PAGE_SIZE;
  return { reviews, next: full ? { page: ctx.position.page + 1, token: first } : null };
}
