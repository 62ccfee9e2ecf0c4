/**
 * 2GIS's public review API, the one the firm page's own review widget calls:
 * `GET https://public-api.reviews.2gis.com/3.0/branches/{id}/reviews?limit=50&offset=N
 * &fields=meta.branch_rating,meta.branch_reviews_count,meta.total_count&rated=true
 * &sort_by=date_created&key=<the site's review key>&locale=<ru_RU>`, answering
 * `{meta: {code, branch_rating, branch_reviews_count, total_count, next_link}, reviews: [...]}`, each
 * review `{id, rating, text, date_created, date_edited, likes_count, user: {name, reviews_count},
 * official_answer: {text, date_created} | null}`, as the public clients named in README.md read it.
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import { permanentError } from "../../scraping/errors";
import { countOf, readAnswer, type ParseContext, type WalkPage, type WalkPosition } from "../kit/json-walk";

export const WHAT = "2GIS reviews";
export const PAGE_SIZE = 50;
const API = "https://public-api.reviews.2gis.com/3.0/branches";

/** Page N (from 1) of a branch's rated reviews, newest first; key is `<id>/<review key>/<locale>`. */
export function twogisReviewsUrl(key: string, position: WalkPosition): string {
  const [id, reviewKey, locale] = key.split("/");
  if (!id || !reviewKey || !locale)
    throw permanentError("publisher_error", `${WHAT}: the site's review key is unknown`);
  const url = new URL(`${API}/${id}/reviews`);
  url.searchParams.set("limit", String(PAGE_SIZE));
  url.searchParams.set("offset", String((position.page - 1) * PAGE_SIZE));
  url.searchParams.set("fields", "meta.branch_rating,meta.branch_reviews_count,meta.total_count");
  url.searchParams.set("rated", "true");
  url.searchParams.set("sort_by", "date_created");
  url.searchParams.set("key", reviewKey);
  url.searchParams.set("locale", locale);
  return url.toString();
}

const Id = z.union([z.string().min(1).max(100), z.number().int().nonnegative()]).transform(String);

const ItemSchema = z.object({
  id: Id,
  rating: z.number().int().min(1).max(5),
  text: z.string().max(50_000).nullish(),
  date_created: z.string().min(4).max(40),
  likes_count: z.number().int().nonnegative().nullish(),
  user: z
    .object({ name: z.string().max(500).nullish(), reviews_count: z.number().int().nonnegative().nullish() })
    .passthrough()
    .nullish(),
  official_answer: z
    .object({ text: z.string().max(50_000).nullish(), date_created: z.string().max(40).nullish() })
    .passthrough()
    .nullish(),
});

const AnswerSchema = z.object({
  meta: z
    .object({
      branch_rating: z.unknown().optional(),
      branch_reviews_count: z.unknown().optional(),
      total_count: z.unknown().optional(),
      next_link: z.string().max(4_000).nullish(),
    })
    .passthrough(),
  reviews: z.array(z.unknown()),
});

type Item = z.infer<typeof ItemSchema>;

function rawReview(review: Item, pageUrl: string): RawReview {
  const author = review.user?.name?.trim();
  const reply = review.official_answer?.text?.trim();
  return {
    id: review.id,
    rating: { value: review.rating, best: 5, worst: 1 },
    text: review.text?.trim() ?? "",
    url: pageUrl,
    date: review.date_created,
    ...(author ? { author_name: author } : {}),
    ...(review.user?.reviews_count != null ? { author_review_count: review.user.reviews_count } : {}),
    ...(review.likes_count != null ? { likes: review.likes_count } : {}),
    ...(reply ? { reply_text: reply } : {}),
    ...(reply && review.official_answer?.date_created
      ? { reply_date: review.official_answer.date_created }
      : {}),
  };
}

const rating = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;

/**
 * One page. A review with a missing or wrongly typed field is skipped; an answer without `meta` or
 * `reviews` is `publisher_error`. The walk goes on while the answer gives a `meta.next_link` (the
 * module asks for the next offset itself rather than following a link the answer makes up); an
 * empty page that still points further, or a first page listing none of the reviews the branch
 * counts, is `publisher_error`, never a silent end with fewer reviews.
 */
export function parseTwogisPage(data: unknown, ctx: ParseContext): WalkPage {
  const answer = readAnswer(AnswerSchema, data, WHAT);
  const { meta } = answer;
  const counted = countOf(meta.branch_reviews_count);
  const total = countOf(meta.total_count) ?? counted;
  const more = Boolean(meta.next_link?.trim());
  if (answer.reviews.length === 0 && more)
    throw permanentError(
      "publisher_error",
      `${WHAT}: page ${ctx.position.page} is empty but points to a next page`,
    );
  if (answer.reviews.length === 0 && ctx.position.page === 1 && counted)
    throw permanentError(
      "publisher_error",
      `${WHAT}: the answer lists no reviews although meta.branch_reviews_count counts ${counted}`,
    );
  const reviews: RawReview[] = [];
  for (const raw of answer.reviews) {
    ctx.budget.spend();
    const item = ItemSchema.safeParse(raw);
    if (item.success) reviews.push(rawReview(item.data, ctx.pageUrl));
  }
  const language = ctx.key.split("/")[2]?.split("_")[0] ?? null;
  const first = ctx.position.page === 1;
  return {
    reviews,
    next: more ? { page: ctx.position.page + 1, token: null } : null,
    ...(first
      ? { publisherTotal: total, summary: { rating: rating(meta.branch_rating), ratingScale: "1-5" } }
      : {}),
    pageLanguage: language,
  };
}
