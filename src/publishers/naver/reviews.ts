/**
 * Naver Place visitor reviews from the place GraphQL the place pages call,
 * `POST https://pcmap-api.place.naver.com/graphql` with a batch `[{operationName, variables, query}]`:
 * `getVisitorReviews` (`input: {businessId, businessType, item: "0", size, after, includeContent,
 * …}` → `visitorReviews {items {id, cursor, rating, author {id, nickname, url, review
 * {totalCount}}, body, media {type, thumbnail}, visited, created, reply {body, created}, language},
 * total}`), paged by the last item's `cursor` as `after`; on the first page also
 * `getVisitorReviewStats` (`visitorReviewStats {review {avgRating, totalCount}}`). Every request
 * carries `x-wtm-graphql`, base64 of `{"arg": <businessId>, "type": <businessType>, "source":
 * "place"}` without padding. As the public clients named in README.md send and read them.
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import { eastAsianVisitDate } from "../../core/reviews/east-asian-dates";
import type { RequestOptions } from "../../scraping/client";
import { permanentError } from "../../scraping/errors";
import { countOf, readAnswer, type ParseContext, type WalkPage, type WalkPosition } from "../kit/json-walk";

export const WHAT = "Naver visitor reviews";
export const GRAPHQL_URL = "https://pcmap-api.place.naver.com/graphql";
/** Reviews a page: the size the place pages ask for. */
export const PAGE_SIZE = 10;

/** businessType as the place page states it (`restaurant`, `hairshop`, `place`, …): letters only. */
const BUSINESS_TYPE = /^[a-z]{2,30}$/;

/** The walk's key after the place page was read: `{businessType}/{businessId}`. */
export function splitKey(key: string): { type: string; id: string } {
  const [type, id] = key.split("/");
  if (!type || !BUSINESS_TYPE.test(type) || !id || !/^\d{1,15}$/.test(id))
    throw permanentError("publisher_error", `${WHAT}: the place's business type is unknown`);
  return { type, id };
}

/**
 * `x-wtm-graphql`: not a signature but base64 of a small JSON naming the place, its business type
 * and the source, padding dropped (a request without it is answered with a captcha). The id and
 * type are ASCII, so `btoa` is exact.
 */
export function wtmHeader(id: string, type: string): string {
  return btoa(JSON.stringify({ arg: id, type, source: "place" })).replace(/=+$/, "");
}

const REVIEWS_QUERY = `query getVisitorReviews($input: VisitorReviewsInput) {
  visitorReviews(input: $input) {
    items { id cursor rating author { id nickname url review { totalCount } } body
      media { type thumbnail } visited created reply { body created } language }
    total
  }
}`;
const STATS_QUERY = `query getVisitorReviewStats($id: String, $itemId: String, $businessType: String = "place") {
  visitorReviewStats(input: {businessId: $id, itemId: $itemId, businessType: $businessType}) {
    id review { avgRating totalCount }
  }
}`;

/** One page's request: the batch, its headers; the first page also asks for the place's stats. */
export function naverReviewsRequest(
  key: string,
  position: WalkPosition,
): { url: string; options: RequestOptions } {
  const { type, id } = splitKey(key);
  const input = {
    businessId: id,
    businessType: type,
    item: "0",
    size: PAGE_SIZE,
    ...(position.token ? { after: position.token } : {}),
    // Newest first, as the place page's 최신순 (latest) order asks for it.
    sort: "RECENT",
    isPhotoUsed: false,
    includeContent: true,
    getUserStats: true,
    includeReceiptPhotos: false,
    getReactions: false,
    getTrailer: false,
  };
  const batch = [
    { operationName: "getVisitorReviews", variables: { input }, query: REVIEWS_QUERY },
    ...(position.token
      ? []
      : [
          {
            operationName: "getVisitorReviewStats",
            variables: { id, itemId: "0", businessType: type },
            query: STATS_QUERY,
          },
        ]),
  ];
  return {
    url: GRAPHQL_URL,
    options: {
      method: "POST",
      body: JSON.stringify(batch),
      headers: {
        "Content-Type": "application/json",
        Accept: "*/*",
        "Accept-Language": "ko",
        Origin: "https://pcmap.place.naver.com",
        Referer: `https://pcmap.place.naver.com/${type}/${id}/review/visitor`,
        "x-wtm-graphql": wtmHeader(id, type),
      },
    },
  };
}

const ItemSchema = z.object({
  id: z.string().min(1).max(100),
  cursor: z.string().max(2_000).nullish(),
  rating: z.number().nullish(),
  author: z
    .object({
      id: z.string().max(200).nullish(),
      nickname: z.string().max(1_000).nullish(),
      url: z.string().max(2_000).nullish(),
      review: z.object({ totalCount: z.number().nullish() }).nullish(),
    })
    .nullish(),
  body: z.string().max(50_000).nullish(),
  media: z
    .array(z.object({ type: z.string().max(40).nullish(), thumbnail: z.string().max(2_000).nullish() }))
    .max(100)
    .nullish(),
  visited: z.string().max(40).nullish(),
  created: z.string().max(40).nullish(),
  reply: z
    .object({ body: z.string().max(50_000).nullish(), created: z.string().max(40).nullish() })
    .nullish(),
  language: z.string().max(35).nullish(),
});

const GraphqlErrors = z.array(z.object({ message: z.string().max(2_000).optional() }).passthrough());
const ResultSchema = z.object({ data: z.unknown().optional(), errors: GraphqlErrors.optional() });
const AnswerSchema = z.array(ResultSchema).min(1).max(5);
const ReviewsSchema = z.object({
  visitorReviews: z.object({ items: z.array(z.unknown()), total: z.unknown() }),
});
const StatsSchema = z.object({
  visitorReviewStats: z
    .object({ review: z.object({ avgRating: z.number().nullish(), totalCount: z.unknown() }).nullish() })
    .nullish(),
});

/** A GraphQL error that asks for what this module cannot give: a solved NCaptcha. */
const CAPTCHA_ERROR = /captcha|wtm/i;

function graphqlFailure(errors: z.infer<typeof GraphqlErrors>): never {
  const message = errors
    .map((e) => e.message ?? "")
    .join("; ")
    .slice(0, 300);
  if (CAPTCHA_ERROR.test(message))
    throw permanentError(
      "publisher_error",
      `${WHAT}: Naver asks for an NCaptcha solution (x-wtm-ncaptcha-token), which this module cannot derive: ${message}`,
    );
  throw permanentError(
    "publisher_error",
    `${WHAT}: the GraphQL answer has errors: ${message || "(no message)"}`,
  );
}

/** Naver hides the average on most places (avgRating 0); 0 is "not shown", never a rating. */
function averageOf(stats: unknown): number | null {
  const parsed = StatsSchema.safeParse(stats);
  const avg = parsed.success ? parsed.data.visitorReviewStats?.review?.avgRating : null;
  return typeof avg === "number" && avg >= 1 && avg <= 5 ? avg : null;
}

function reviewOf(item: z.infer<typeof ItemSchema>, ctx: ParseContext, scrapedAt: number): RawReview | null {
  const rating = item.rating;
  if (typeof rating !== "number" || rating < 1 || rating > 5) return null;
  const author = item.author;
  const visit = item.visited ? eastAsianVisitDate(item.visited, scrapedAt) : null;
  const photos = (item.media ?? [])
    .filter((m) => m.type !== "video" && m.thumbnail)
    .map((m) => m.thumbnail as string);
  return {
    id: item.id,
    rating: { value: rating, best: 5, worst: 1 },
    text: item.body?.trim() ?? "",
    url: ctx.pageUrl,
    ...(author?.nickname ? { author_name: author.nickname } : {}),
    ...(author?.url ? { author_url: author.url } : author?.id ? { author_id: author.id } : {}),
    ...(typeof author?.review?.totalCount === "number"
      ? { author_review_count: author.review.totalCount }
      : {}),
    ...(item.created ? { date: item.created } : {}),
    ...(visit ? { visit_date: visit } : {}),
    ...(item.language ? { language: item.language } : {}),
    ...(photos.length ? { photos } : {}),
    ...(item.reply?.body?.trim()
      ? { reply_text: item.reply.body, ...(item.reply.created ? { reply_date: item.reply.created } : {}) }
      : {}),
  };
}

/**
 * One answer. An answer with GraphQL errors is `publisher_error` quoting them (one asking for a
 * captcha token names it); a review without a star rating (Naver's keyword-only reviews) cannot be
 * returned and the page reports it as a limited view; the walk follows the last item's cursor while
 * fewer than `total` reviews were read.
 */
export function parseNaverPage(data: unknown, ctx: ParseContext, scrapedAt = Date.now()): WalkPage {
  const answer = readAnswer(AnswerSchema, data, WHAT);
  const [reviewsResult, statsResult] = answer;
  if (reviewsResult.errors?.length) graphqlFailure(reviewsResult.errors);
  const { items, total: rawTotal } = readAnswer(ReviewsSchema, reviewsResult.data, WHAT).visitorReviews;
  const total = countOf(rawTotal);
  if (total === null) throw permanentError("publisher_error", `${WHAT}: visitorReviews.total is not a count`);
  const reviews: RawReview[] = [];
  let unrated = 0;
  let cursor: string | null = null;
  for (const raw of items) {
    ctx.budget.spend();
    const item = ItemSchema.safeParse(raw);
    if (!item.success) continue;
    cursor = item.data.cursor ?? cursor;
    const review = reviewOf(item.data, ctx, scrapedAt);
    if (review) reviews.push(review);
    else unrated++;
  }
  const readSoFar = (ctx.position.page - 1) * PAGE_SIZE + items.length;
  let next: WalkPosition | null = null;
  if (readSoFar < total) {
    if (items.length === 0 || !cursor)
      throw permanentError(
        "publisher_error",
        `${WHAT}: page ${ctx.position.page} ${items.length ? "has no cursor" : "is empty"} although the answer counts ${total} reviews`,
      );
    next = { page: ctx.position.page + 1, token: cursor };
  }
  const first = ctx.position.token === null;
  const average = first && statsResult && !statsResult.errors?.length ? averageOf(statsResult.data) : null;
  return {
    reviews,
    next,
    ...(first ? { publisherTotal: total } : {}),
    ...(average !== null ? { summary: { rating: average, ratingScale: "1-5" } } : {}),
    ...(unrated
      ? {
          limitedView:
            "Naver visitor reviews without a star rating (keyword-only reviews) are left out: a review needs a rating",
        }
      : {}),
    pageLanguage: "ko",
  };
}
