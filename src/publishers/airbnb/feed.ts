/**
 * Airbnb's review pages: the persisted GraphQL query `StaysPdpReviewsQuery` the listing page calls
 * (`GET /api/v3/StaysPdpReviewsQuery/<hash>?operationName=…&variables=…&extensions=…`), paged by
 * offset, and a pure reader of its answer (`data.presentation.stayProductDetailPage.reviews`).
 * Structure as public scrapers send and read it (see test/publishers/airbnb/site.ts).
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import { parseAnswer } from "../../scraping/answer-schema";
import { permanentError } from "../../scraping/errors";
import { WorkBudget } from "../kit/work-budget";

export const REVIEWS_OPERATION = "StaysPdpReviewsQuery";
/**
 * The persisted query's hash in Airbnb's web client (captured 2026-09-28 by muchiny/mcp-airbnb, the
 * client whose capture test/publishers/airbnb/captures/ holds); a rotated one fails as publisher_error
 * until updated.
 */
export const REVIEWS_QUERY_HASH = "cfdc3ffbe997a618795fc5a8f9a9b484054ce9be68c8788cd2ffda999934c5ae";
/** The web client's public API key, sent by every Airbnb page as X-Airbnb-Api-Key (not a secret). */
export const WEB_API_KEY = "d306zoyjsyarp7ifhu67rjxn52tv0t20";
/** Reviews per request, as the listing page's review dialog asks. */
export const REVIEWS_PER_PAGE = 24;

/** Airbnb's global id of a listing: base64 of `StayListing:<id>`. */
export function stayListingId(listingId: string): string {
  return btoa(`StayListing:${listingId}`);
}

/** The request URL of one page: newest first (`MOST_RECENT`), original texts (no translation button). */
export function reviewsUrl(listingId: string, offset: number): URL {
  const url = new URL(`https://www.airbnb.com/api/v3/${REVIEWS_OPERATION}/${REVIEWS_QUERY_HASH}`);
  const variables = {
    id: stayListingId(listingId),
    pdpReviewsRequest: {
      fieldSelector: "for_p3_translation_only",
      forPreview: false,
      limit: REVIEWS_PER_PAGE,
      offset: String(offset),
      showingTranslationButton: false,
      first: REVIEWS_PER_PAGE,
      sortingPreference: "MOST_RECENT",
    },
  };
  url.searchParams.set("operationName", REVIEWS_OPERATION);
  url.searchParams.set("locale", "en");
  url.searchParams.set("currency", "USD");
  url.searchParams.set("variables", JSON.stringify(variables));
  url.searchParams.set(
    "extensions",
    JSON.stringify({ persistedQuery: { version: 1, sha256Hash: REVIEWS_QUERY_HASH } }),
  );
  return url;
}

const ReviewSchema = z.object({
  id: z.union([z.string().min(1), z.number()]),
  comments: z.string().nullish(),
  language: z.string().nullish(),
  createdAt: z.string().refine((value) => !Number.isNaN(Date.parse(value)), "not a date"),
  rating: z.number().int().min(1).max(5),
  reviewer: z
    .object({ id: z.union([z.string(), z.number()]).nullish(), firstName: z.string().nullish() })
    .nullish(),
  response: z.string().nullish(),
  localizedRespondedDate: z.string().nullish(),
});

const AnswerSchema = z.object({
  data: z
    .object({
      presentation: z.object({
        stayProductDetailPage: z
          .object({
            reviews: z
              .object({
                reviews: z.array(ReviewSchema),
                metadata: z.object({ reviewsCount: z.number().int().min(0) }).nullish(),
              })
              .nullable(),
          })
          .nullable(),
      }),
    })
    .nullish(),
  errors: z.array(z.object({ message: z.string() })).nullish(),
});

export type AirbnbReviewNode = z.infer<typeof ReviewSchema>;

/** Airbnb writes line breaks in review and reply text as `<br/>`. */
function plainText(text: string): string {
  return text.replace(/<br\s*\/?>/gi, "\n");
}

export function rawReview(review: AirbnbReviewNode): RawReview {
  const reviewerId = review.reviewer?.id != null ? String(review.reviewer.id) : undefined;
  return {
    id: String(review.id),
    author_name: review.reviewer?.firstName ?? undefined,
    author_id: reviewerId,
    author_url: reviewerId ? `https://www.airbnb.com/users/show/${reviewerId}` : undefined,
    rating: { value: review.rating, best: 5, worst: 1 },
    text: review.comments ? plainText(review.comments) : undefined,
    language: review.language ?? undefined,
    date: new Date(review.createdAt).toISOString(),
    ...(review.response?.trim()
      ? { reply_text: plainText(review.response), reply_date: review.localizedRespondedDate ?? undefined }
      : {}),
  };
}

export interface ReviewsPage {
  reviews: RawReview[];
  count: number;
  /** The listing's review count (`metadata.reviewsCount`), where the answer states it. */
  total: number | null;
  /** Offset of the next page, or null on the last one. */
  nextOffset: number | null;
}

/**
 * Reads one answer. A listing Airbnb does not show (`stayProductDetailPage` or `reviews` null) is
 * `profile_not_found`; GraphQL errors and a changed shape are `publisher_error` naming what was wrong.
 */
export function parseReviews(
  data: unknown,
  offset: number,
  budget = new WorkBudget("Airbnb reviews answer"),
): ReviewsPage {
  // The answer is JSON already parsed; zod reads only the fields named here (no walk of the rest),
  // and a malformed value is a publisher_error naming it. Each review read is counted.
  const { data: answer, errors } = parseAnswer(AnswerSchema, data, "Airbnb reviews");
  if (!answer)
    throw permanentError(
      "publisher_error",
      `Airbnb reviews: GraphQL errors: ${(errors ?? []).map((e) => e.message).join("; ") || "no data"}`,
    );
  const section = answer.presentation.stayProductDetailPage?.reviews;
  if (!section)
    throw permanentError(
      "profile_not_found",
      "Airbnb reviews: the listing has no review section (not found or not listed)",
    );
  const reviews = section.reviews;
  const total = section.metadata?.reviewsCount;
  if (reviews.length === 0 && total !== undefined && total > offset) {
    throw permanentError(
      "publisher_error",
      `Airbnb reviews: no reviews at offset ${offset} although the listing has ${total}`,
    );
  }
  const end = offset + reviews.length;
  const more = reviews.length > 0 && (total !== undefined ? end < total : reviews.length >= REVIEWS_PER_PAGE);
  return {
    reviews: reviews.map((review) => {
      budget.spend();
      return rawReview(review);
    }),
    count: reviews.length,
    total: total ?? null,
    nextOffset: more ? end : null,
  };
}
