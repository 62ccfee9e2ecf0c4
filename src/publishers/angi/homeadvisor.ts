/**
 * HomeAdvisor: a pro's ratings from the JSON its profile page (`rated.<Name>.<spId>.html`) loads,
 * `GET /sm/reviews/<spId>?page=N&sort=newest&pageSize=10`, answering `{ratings: [{ratingID,
 * consumerName, consumerOverallScore, comment, createDate (epoch ms), consumerCity, consumerState}]}`,
 * and the profile's count and average from the page's JSON-LD `aggregateRating`, which tells how
 * many pages there are: sociodevz/topratedbyphilly-review-scraper `reviews/main/sites/homeadvisor.py`
 * and `reviews_formatter.py` @a5b5aa17 / @dbf34b1f (2021). No newer public client reads HomeAdvisor
 * (README, "Assumed").
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import type { PageSummary } from "../../core/tasks/publisher-summary";
import { permanentError } from "../../scraping/errors";
import type { JsonLdAggregate } from "../kit/json-ld-items";
import { readAnswer, type ParseContext, type WalkPage } from "../kit/json-walk";

export const HOMEADVISOR_WHAT = "HomeAdvisor reviews";
export const HOMEADVISOR_PAGE_SIZE = 10;

/** The ratings JSON of one page of a pro (`spId` from the walk's key `homeadvisor:<spId>`). */
export function homeAdvisorReviewsUrl(spId: string, page: number): string {
  if (!/^\d{1,12}$/.test(spId))
    throw permanentError("publisher_error", `${HOMEADVISOR_WHAT}: the profile's id is not a number`);
  return `https://www.homeadvisor.com/sm/reviews/${spId}?page=${page}&sort=newest&pageSize=${HOMEADVISOR_PAGE_SIZE}`;
}

/** What page 1 reads from the pro page besides the ratings: its JSON-LD count and average. */
export type HomeAdvisorProfile = JsonLdAggregate;

const AnswerSchema = z.object({ ratings: z.array(z.unknown()) });

const RatingSchema = z.object({
  ratingID: z.union([z.number().int().positive(), z.string().regex(/^\d{1,20}$/)]),
  consumerName: z.string().max(200).nullish(),
  consumerOverallScore: z.union([z.number(), z.string().regex(/^\d(?:\.\d{1,3})?$/)]).pipe(z.coerce.number()),
  comment: z.string().max(100_000).nullish(),
  createDate: z.number().int().positive().max(8.64e15),
});

function homeAdvisorReview(item: unknown, pageUrl: string): RawReview | null {
  const parsed = RatingSchema.safeParse(item);
  if (!parsed.success) return null;
  const r = parsed.data;
  if (!(r.consumerOverallScore >= 1 && r.consumerOverallScore <= 5)) return null;
  const name = r.consumerName?.trim();
  return {
    id: String(r.ratingID),
    ...(name ? { author_name: name } : {}),
    rating: { value: r.consumerOverallScore, best: 5, worst: 1 },
    text: r.comment?.trim() ?? "",
    url: pageUrl,
    date: new Date(r.createDate).toISOString(),
    language: "en",
  };
}

/**
 * Reads one page of ratings (`profile` on page 1 only). The answer states no page count: the walk
 * goes on while pages are full and, where the profile page stated a count, while it is not reached.
 */
export function parseHomeAdvisorPage(
  answer: unknown,
  profile: HomeAdvisorProfile | null,
  ctx: ParseContext,
): WalkPage {
  const { ratings } = readAnswer(AnswerSchema, answer, HOMEADVISOR_WHAT);
  const reviews: RawReview[] = [];
  for (const item of ratings) {
    ctx.budget.spend();
    const review = homeAdvisorReview(item, ctx.pageUrl);
    if (review) reviews.push(review);
  }
  if (ratings.length && !reviews.length)
    throw permanentError(
      "publisher_error",
      `${HOMEADVISOR_WHAT}: none of the ${ratings.length} ratings has ratingID, consumerOverallScore (1–5) and createDate`,
    );
  const page = ctx.position.page;
  const read = (page - 1) * HOMEADVISOR_PAGE_SIZE + ratings.length;
  const more = ratings.length >= HOMEADVISOR_PAGE_SIZE && (profile?.total == null || read < profile.total);
  const summary: PageSummary | null =
    profile?.rating != null ? { rating: profile.rating, ratingScale: "1-5" } : null;
  return {
    reviews,
    next: more ? { page: page + 1, token: null } : null,
    ...(profile ? { publisherTotal: profile.total, summary } : {}),
  };
}
