/**
 * Zomato's review route, `GET https://www.zomato.com/webroutes/reviews/loadMore?sort=dd&filter=reviews-dd
 * &res_id={id}&page=N`, answering in Zomato's normalised-entity form: the page's reviews in
 * `entities.REVIEWS`, an object keyed by review id (`reviewId`, `userName`, `reviewUserId`,
 * `ratingV2`, `reviewText`, `timestamp`, `likeCount`, `commentCount`, `experience`, `reviewTags`,
 * `reviewUrl`), and the page count in `page_data.sections.SECTION_REVIEWS.numberOfPages`, as the
 * public clients named in README.md read it.
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

export const WHAT = "zomato reviews";

/** Page N of a restaurant's reviews, newest first (`sort=dd`); key is the restaurant's `res_id`. */
export function zomatoReviewsUrl(key: string, position: WalkPosition): string {
  if (!/^\d{1,12}$/.test(key))
    throw permanentError("publisher_error", `${WHAT}: the restaurant id is unknown`);
  const url = new URL("https://www.zomato.com/webroutes/reviews/loadMore");
  url.searchParams.set("sort", "dd");
  url.searchParams.set("filter", "reviews-dd");
  url.searchParams.set("res_id", key);
  url.searchParams.set("page", String(position.page));
  return url.toString();
}

const Id = z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,20}$/)]);

const ItemSchema = z.object({
  reviewId: Id.optional(),
  // A whole or half star as a number or numeric string ("5", 4.5); "-" and the like skip the review.
  ratingV2: z
    .union([
      z.number(),
      z
        .string()
        .regex(/^\d(?:\.\d)?$/)
        .transform(Number),
    ])
    .pipe(z.number().min(1).max(5)),
  reviewText: z.string().max(50_000).nullish(),
  // "2 days ago", "yesterday", "Oct 29, 2023": kept as printed, normalised against the scrape time.
  timestamp: z.string().min(1).max(100),
  userName: z.string().max(500).nullish(),
  reviewUserId: Id.nullish(),
  likeCount: z.number().int().nonnegative().nullish(),
  reviewUrl: z.string().max(2_000).nullish(),
});

const EntityListSchema = z.array(
  z.object({ entity_type: z.string().max(100), entity_ids: z.array(z.unknown()).max(1_000) }).passthrough(),
);

const AnswerSchema = z.object({
  entities: z.object({
    REVIEWS: z.union([z.record(z.string(), z.unknown()), z.array(z.never())]).optional(),
  }),
  page_data: z.object({
    sections: z.object({
      SECTION_REVIEWS: z.object({
        numberOfPages: z.unknown(),
        entities: EntityListSchema.optional(),
      }),
    }),
  }),
});

/**
 * The page's review ids in the site's order. JSON objects keyed by numbers lose their order in
 * JavaScript (integer keys enumerate ascending, oldest first), so the order comes from the section's
 * own id list; reviews it does not list (or all, without a list) follow by id, newest first (Zomato's
 * ids grow with time), so none is dropped because the list is short.
 */
function orderedIds(
  reviews: Record<string, unknown>,
  section: z.infer<typeof EntityListSchema> | undefined,
): string[] {
  const listed = (section?.find((e) => e.entity_type === "REVIEWS")?.entity_ids ?? [])
    .filter((id) => typeof id === "string" || typeof id === "number")
    .map(String);
  const seen = new Set(listed);
  const rest = Object.keys(reviews)
    .filter((id) => !seen.has(id))
    .sort((a, b) => Number(b) - Number(a) || (a < b ? 1 : -1));
  return [...listed, ...rest];
}

/**
 * One page. A review with a missing or wrongly typed field is skipped; an answer without the
 * review section's page count is `publisher_error` naming it.
 */
export function parseZomatoPage(data: unknown, ctx: ParseContext): WalkPage {
  const answer = readAnswer(AnswerSchema, data, WHAT);
  const section = answer.page_data.sections.SECTION_REVIEWS;
  const pages = countOf(section.numberOfPages);
  if (pages === null) throw permanentError("publisher_error", `${WHAT}: numberOfPages is not a count`);
  const byId = Array.isArray(answer.entities.REVIEWS) ? {} : (answer.entities.REVIEWS ?? {});
  const ids = orderedIds(byId, section.entities);
  const reviews: RawReview[] = [];
  for (const id of ids) {
    ctx.budget.spend();
    const item = ItemSchema.safeParse(Object.hasOwn(byId, id) ? byId[id] : undefined);
    if (!item.success) continue;
    const review = item.data;
    const author = review.userName?.trim();
    const url = review.reviewUrl?.startsWith("https://www.zomato.com/") ? review.reviewUrl : ctx.pageUrl;
    reviews.push({
      id: String(review.reviewId ?? id),
      rating: { value: review.ratingV2, best: 5, worst: 1 },
      text: review.reviewText?.trim() ?? "",
      url,
      date: review.timestamp.trim(),
      ...(author ? { author_name: author } : {}),
      ...(review.reviewUserId != null ? { author_id: String(review.reviewUserId) } : {}),
      ...(review.likeCount != null ? { likes: review.likeCount } : {}),
    });
  }
  return {
    reviews,
    next: nextByNumber(WHAT, ctx.position.page, pages, ids.length),
  };
}
