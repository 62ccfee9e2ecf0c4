/**
 * Yelp's review feed: the persisted GraphQL query `GetBusinessReviewFeed` that the biz page runs
 * through `POST /gql/batch`, and a pure reader of its answer. Structure as scrapfly-scrapers'
 * yelp-scraper (yelp.py, results/reviews.json) and other public scrapers send and read it.
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import type { ReviewSort } from "../../core/tasks/collection";
import { parseAnswer } from "../../scraping/answer-schema";
import { permanentError } from "../../scraping/errors";

export const FEED_OPERATION = "GetBusinessReviewFeed";

/**
 * `/gql/batch` runs persisted queries only: the id is the hash of the query text in Yelp's own
 * frontend bundle (mined 2026-09-26). When Yelp rotates it, the endpoint answers 403 and tasks fail
 * as `blocked` until this constant is updated.
 */
export const FEED_DOCUMENT_ID = "2b29fe4414313b319cb85e119740e72da582d64ad2962841724748be23d7f692";

/** Reviews per request: what the biz page itself asks for, and the size every scraper uses. */
export const REVIEWS_PER_PAGE = 10;

/** Yelp's pagination cursor: base64 of `{"version":1,"type":"offset","offset":N}` (N reviews skipped). */
export function offsetCursor(offset: number): string {
  return btoa(JSON.stringify({ version: 1, type: "offset", offset }));
}

/**
 * The batch body for one page of a business's reviews, newest first (`DATE_DESC`) or in the task's order, in every
 * language and rating, untranslated (`isTranslating: false` keeps each review's original text).
 * The first page has no `after`.
 */
/**
 * The feed's `sortBy` for the orders besides newest first (`DATE_DESC`): Yelp's own sort menu
 * ("Yelp sort", "Highest rated", "Lowest rated"), the values of its `sort_by` URL parameter upper-cased.
 */
export const YELP_SORTS = {
  relevant: "RELEVANCE_DESC",
  highest: "RATING_DESC",
  lowest: "RATING_ASC",
} as const;

export function feedRequest(bizId: string, offset: number, sort?: ReviewSort): unknown[] {
  return [
    {
      operationName: FEED_OPERATION,
      variables: {
        encBizId: bizId,
        reviewsPerPage: REVIEWS_PER_PAGE,
        selectedReviewEncId: "",
        hasSelectedReview: false,
        sortBy: sort && sort !== "newest" ? YELP_SORTS[sort] : "DATE_DESC",
        languageCode: "en",
        ratings: [5, 4, 3, 2, 1],
        queryText: "",
        isSearching: false,
        ...(offset > 0 ? { after: offsetCursor(offset) } : {}),
        isTranslating: false,
        translateLanguageCode: "en",
        reactionsSourceFlow: "businessPageReviewSection",
        minConfidenceLevel: "HIGH_CONFIDENCE",
        highlightType: "",
        highlightIdentifier: "",
        isHighlighting: false,
      },
      extensions: { operationType: "query", documentId: FEED_DOCUMENT_ID },
    },
  ];
}

const DateTime = z.object({
  utcDateTime: z.string().refine((value) => !Number.isNaN(Date.parse(value)), "not a date"),
});
const Text = z.object({ full: z.string().nullish(), language: z.string().nullish() });

/** One owner reply; the public one is listed first. */
const ReplySchema = z.object({
  text: Text.nullish(),
  createdAt: DateTime.nullish(),
});

const NodeSchema = z.object({
  encid: z.string().min(1),
  rating: z.number().int().min(1).max(5),
  createdAt: DateTime,
  text: Text.nullish(),
  author: z
    .object({
      encid: z.string().nullish(),
      displayName: z.string().nullish(),
      /** How many reviews the reviewer has written on Yelp. */
      reviewCount: z.number().int().nonnegative().nullish().catch(null),
    })
    .nullish(),
  /** The reactions the review received; "useful" is Yelp's helpful vote. */
  feedback: z.object({ usefulCount: z.number().int().nonnegative().nullish() }).nullish().catch(null),
  businessUserReplies: z.array(ReplySchema).nullish(),
  /** The reviewer's own photos of the business (`photoUrl.url`); an odd list costs the photos, never the review. */
  businessPhotos: z
    .array(z.object({ photoUrl: z.object({ url: z.string().nullish() }).nullish() }))
    .nullish()
    .catch(null),
});

const BusinessSchema = z.object({
  encid: z.string().nullish(),
  alias: z.string().nullish(),
  reviewCount: z.number().int().min(0),
  reviews: z.object({
    edges: z.array(z.object({ node: NodeSchema })),
    // Not required: no public client reads it (they page by offset up to reviewCount).
    pageInfo: z.object({ hasNextPage: z.boolean().nullish() }).nullish(),
  }),
});

const AnswerSchema = z
  .array(
    z.object({
      data: z.object({ business: BusinessSchema.nullable() }).nullish(),
      errors: z.array(z.object({ message: z.string() })).nullish(),
    }),
  )
  .min(1);

export type FeedNode = z.infer<typeof NodeSchema>;

export interface FeedPage {
  reviews: RawReview[];
  /** Reviews the answer listed (each becomes one RawReview). */
  count: number;
  hasNextPage: boolean;
  /** The business's review count as Yelp states it. */
  reviewCount: number;
}

/** Where a review lives on Yelp: the biz page with the review highlighted (`?hrid=`). */
export function reviewUrl(profileUrl: string, encid: string): string {
  const url = new URL(profileUrl);
  url.search = "";
  url.hash = "";
  url.searchParams.set("hrid", encid);
  return url.toString();
}

function userUrl(profileUrl: string, userId: string): string {
  return new URL(`/user_details?userid=${encodeURIComponent(userId)}`, profileUrl).toString();
}

/** One feed node as a RawReview: Yelp's own ids, the original text with its language, exact UTC dates. */
export function rawReview(node: FeedNode, profileUrl: string): RawReview {
  const reply = node.businessUserReplies?.find((r) => r.text?.full?.trim());
  const authorId = node.author?.encid ?? undefined;
  return {
    id: node.encid,
    author_name: node.author?.displayName ?? undefined,
    author_id: authorId,
    author_url: authorId ? userUrl(profileUrl, authorId) : undefined,
    rating: { value: node.rating, best: 5, worst: 1 },
    text: node.text?.full ?? undefined,
    language: node.text?.language ?? undefined,
    url: reviewUrl(profileUrl, node.encid),
    date: new Date(node.createdAt.utcDateTime).toISOString(),
    ...(typeof node.author?.reviewCount === "number" ? { author_review_count: node.author.reviewCount } : {}),
    ...(typeof node.feedback?.usefulCount === "number" ? { likes: node.feedback.usefulCount } : {}),
    ...reviewPhotos(node),
    ...(reply
      ? {
          reply_text: reply.text!.full!,
          reply_date: reply.createdAt ? new Date(reply.createdAt.utcDateTime).toISOString() : undefined,
        }
      : {}),
  };
}

/** The review's own photos (never the author's avatar), as their URLs. */
function reviewPhotos(node: FeedNode): Pick<RawReview, "photos"> {
  const urls = (node.businessPhotos ?? []).flatMap((photo) => photo.photoUrl?.url ?? []);
  return urls.length ? { photos: urls } : {};
}

/**
 * Reads one `/gql/batch` answer. A business Yelp does not know is `profile_not_found`; GraphQL
 * errors, a changed shape (a date that is not a date included), or an empty page where Yelp counts
 * more reviews are `publisher_error`, naming what was wrong.
 */
export function parseFeed(data: unknown, profileUrl: string, offset: number): FeedPage {
  const [answer] = parseAnswer(AnswerSchema, data, "Yelp review feed");
  if (!answer.data) {
    const messages = (answer.errors ?? []).map((e) => e.message).join("; ");
    throw permanentError("publisher_error", `Yelp review feed: GraphQL errors: ${messages || "no data"}`);
  }
  const business = answer.data.business;
  if (!business) throw permanentError("profile_not_found", "Yelp review feed: no business with this id");
  const edges = business.reviews.edges;
  if (edges.length === 0 && business.reviewCount > offset) {
    throw permanentError(
      "publisher_error",
      `Yelp review feed: no reviews at offset ${offset} although the business has ${business.reviewCount}`,
    );
  }
  // Paged as public clients page (scrapfly-scrapers yelp.py, 2026-04: offsets up to reviewCount):
  // more while the reviews read so far stay below Yelp's count. A pageInfo that says there is no next
  // page still ends the walk (the count then tells the pipeline how many were out of reach); an empty
  // page never leads anywhere.
  const more =
    edges.length > 0 &&
    offset + edges.length < business.reviewCount &&
    business.reviews.pageInfo?.hasNextPage !== false;
  return {
    reviews: edges.map(({ node }) => rawReview(node, profileUrl)),
    count: edges.length,
    hasNextPage: more,
    reviewCount: business.reviewCount,
  };
}
