/**
 * kununu's review middleware, `GET https://www.kununu.com/middlewares/profiles/{cc}/{slug}/{uuid}/reviews
 * ?reviewType=employees&sort=newest&page=N`, answering `{reviews: [...], page, pagesCount, perPage,
 * totalReviews, common, ...}`; each review `{uuid, title, score, createdAt, texts: [{id, text}],
 * ratings: [{id, score, text}], position, department, ...}`, as the public clients named in README.md
 * read it.
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

export const WHAT = "kununu reviews";

/** Page N of a profile's employee reviews, newest first; key is `{cc}/{slug}/{uuid}`. */
export function kununuReviewsUrl(key: string, position: WalkPosition): string {
  const [cc, slug, uuid] = key.split("/");
  if (!cc || !slug || !uuid)
    throw permanentError("publisher_error", `${WHAT}: the profile's uuid is unknown`);
  const url = new URL(`https://www.kununu.com/middlewares/profiles/${cc}/${slug}/${uuid}/reviews`);
  // The factor scores (`ratings`) come only when asked for, as the public client asks (README).
  url.searchParams.set("fetchFactorScores", "1");
  url.searchParams.set("reviewType", "employees");
  url.searchParams.set("sort", "newest");
  url.searchParams.set("page", String(position.page));
  return url.toString();
}

const TextSchema = z.object({ text: z.string().max(50_000).nullish() }).passthrough();

const ItemSchema = z.object({
  uuid: z.string().min(1).max(100),
  title: z.string().max(2_000).nullish(),
  score: z.number().min(1).max(5),
  createdAt: z.string().min(4).max(40),
  texts: z.array(TextSchema).max(50).nullish(),
  /** The factor scores (`{id: "atmosphere", score: 4}`), 1–5 stars each; an odd list costs them, never the review. */
  ratings: z
    .array(z.object({ id: z.string().max(100), score: z.number().nullish() }))
    .max(50)
    .nullish()
    .catch(null),
});

const AnswerSchema = z.object({
  reviews: z.array(z.unknown()),
  pagesCount: z.unknown(),
  totalReviews: z.unknown().optional(),
});

/** The review's factor scores by kununu's id ("atmosphere", "image"), on the review's 1–5 scale. */
function factorScores(ratings: z.infer<typeof ItemSchema>["ratings"]): Pick<RawReview, "sub_ratings"> {
  const scores = (ratings ?? []).filter((r) => r.id.trim() && typeof r.score === "number");
  return scores.length ? { sub_ratings: Object.fromEntries(scores.map((r) => [r.id.trim(), r.score!])) } : {};
}

/**
 * One page. A review with a missing or wrongly typed field is skipped; an answer without `reviews`
 * or a page count is `publisher_error`. kununu is German-language throughout (DE, AT, CH), so every
 * review is `de`.
 */
export function parseKununuPage(data: unknown, ctx: ParseContext): WalkPage {
  const answer = readAnswer(AnswerSchema, data, WHAT);
  const pages = countOf(answer.pagesCount);
  if (pages === null) throw permanentError("publisher_error", `${WHAT}: pagesCount is not a count`);
  const reviews: RawReview[] = [];
  for (const raw of answer.reviews) {
    ctx.budget.spend();
    const item = ItemSchema.safeParse(raw);
    if (!item.success) continue;
    const review = item.data;
    const parts = [review.title, ...(review.texts ?? []).map((t) => t.text)];
    reviews.push({
      id: review.uuid,
      rating: { value: review.score, best: 5, worst: 1 },
      text: parts
        .map((part) => part?.trim())
        .filter(Boolean)
        .join("\n\n"),
      url: ctx.pageUrl,
      date: review.createdAt,
      language: "de",
      // Beside the text, never in review_hash: the title (also the text's first paragraph, as
      // before) and the factor scores.
      ...(review.title?.trim() ? { title: review.title.trim() } : {}),
      ...factorScores(review.ratings),
    });
  }
  return {
    reviews,
    next: nextByNumber(WHAT, ctx.position.page, pages, answer.reviews.length),
    publisherTotal: countOf(answer.totalReviews),
  };
}
