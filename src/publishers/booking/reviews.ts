/**
 * Booking.com's review list: the `ReviewList` GraphQL operation the hotel page's reviews panel runs
 * (`POST /dml/graphql`, `reviewListFrontend(input: {hotelId, ufi, hotelCountryCode, sorter, skip,
 * limit, …})`), and the pure parsing of its answer. Shapes as open-source scrapers record them (see
 * test/publishers/booking/data.ts).
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import { issueText } from "../../scraping/answer-schema";
import { permanentError } from "../../scraping/errors";

/** Reviews per request, as the hotel page asks for them. */
export const REVIEWS_PER_PAGE = 10;

/** Only the fields the service keeps (no avatars or highlights; the guest's own photos, by URL). */
export const REVIEW_LIST_QUERY = `query ReviewList($input: ReviewListFrontendInput!) {
  reviewListFrontend(input: $input) {
    ... on ReviewListFrontendResult {
      reviewsCount
      reviewCard {
        reviewUrl
        reviewedDate
        reviewScore
        guestDetails { username countryCode countryName anonymous }
        bookingDetails { checkinDate checkoutDate numNights roomType { name } }
        textDetails { title positiveText negativeText lang }
        partnerReply { reply }
        helpfulVotesCount
        photos { urls { size url } }
      }
    }
    ... on ReviewsFrontendError { statusCode message }
  }
}`;

/** What the hotel page says about itself, and the review list needs. */
export interface HotelIds {
  hotelId: number;
  /** Booking's id of the hotel's city (`dest_id`, "ufi"). */
  ufi: number;
  /** The two-letter country in the hotel's URL (`/hotel/<cc>/…`). */
  countryCode: string;
}

export function reviewListRequest(hotel: HotelIds, skip: number) {
  return {
    operationName: "ReviewList",
    variables: {
      input: {
        hotelId: hotel.hotelId,
        ufi: hotel.ufi,
        hotelCountryCode: hotel.countryCode,
        sorter: "NEWEST_FIRST",
        filters: { text: "" },
        skip,
        limit: REVIEWS_PER_PAGE,
        upsortReviewUrl: "",
      },
    },
    extensions: {},
    query: REVIEW_LIST_QUERY,
  };
}

const Text = z.string().nullish();

const ReviewCardSchema = z.object({
  reviewUrl: z.string().min(1),
  reviewedDate: z.number(),
  reviewScore: z.number(),
  guestDetails: z
    .object({ username: Text, countryCode: Text, countryName: Text, anonymous: z.boolean().nullish() })
    .nullish(),
  bookingDetails: z
    .object({ checkinDate: Text, checkoutDate: Text, numNights: z.number().nullish() })
    .nullish(),
  textDetails: z.object({ title: Text, positiveText: Text, negativeText: Text, lang: Text }).nullish(),
  partnerReply: z.object({ reply: Text }).nullish(),
  /** "Helpful" votes; an odd value costs the count, never the review. */
  helpfulVotesCount: z.number().int().nonnegative().nullish().catch(null),
  /** The guest's photos, each in several sizes; an odd list costs the photos, never the review. */
  photos: z
    .array(z.object({ urls: z.array(z.object({ size: Text, url: Text })).nullish() }))
    .nullish()
    .catch(null),
});

export type ReviewCard = z.infer<typeof ReviewCardSchema>;

export interface ReviewListPage {
  reviewsCount: number;
  cards: ReviewCard[];
}

const AnswerSchema = z.object({
  data: z.object({ reviewListFrontend: z.unknown() }).partial().nullish(),
  errors: z.array(z.object({ message: z.string().optional() }).passthrough()).optional(),
});

const ResultSchema = z.object({
  reviewsCount: z.number().int().nonnegative(),
  reviewCard: z.array(z.unknown()),
});

/** The review list in a `/dml/graphql` answer; throws publisher_error naming what is missing. */
export function parseReviewListResponse(body: unknown): ReviewListPage {
  const answer = AnswerSchema.safeParse(body);
  if (!answer.success)
    throw permanentError(
      "publisher_error",
      `Booking review list: expected a GraphQL answer (${issueText(answer.error)})`,
    );
  const result = answer.data.data?.reviewListFrontend;
  if (result === undefined || result === null) {
    const error = answer.data.errors?.[0]?.message;
    throw permanentError(
      "publisher_error",
      error
        ? `Booking review list: GraphQL error (${error})`
        : "Booking review list: the answer has no data.reviewListFrontend",
    );
  }
  const failure = z.object({ statusCode: z.number(), message: z.string().nullish() }).safeParse(result);
  if (failure.success)
    throw permanentError(
      "publisher_error",
      `Booking review list: ReviewsFrontendError ${failure.data.statusCode} (${failure.data.message ?? ""})`,
    );
  const list = ResultSchema.safeParse(result);
  if (!list.success)
    throw permanentError(
      "publisher_error",
      `Booking review list: reviewListFrontend.${issueText(list.error)}`,
    );
  const cards = list.data.reviewCard.map((card, index) => {
    const parsed = ReviewCardSchema.safeParse(card);
    if (!parsed.success)
      throw permanentError(
        "publisher_error",
        `Booking review list: reviewCard.${index}.${issueText(parsed.error)}`,
      );
    return parsed.data;
  });
  return { reviewsCount: list.data.reviewsCount, cards };
}

/**
 * The review text: what the guest liked and what they did not, each kept, labelled the way
 * Booking's own English pages label them. The title is not part of it.
 */
export function reviewText(card: ReviewCard): string {
  const liked = card.textDetails?.positiveText?.trim();
  const disliked = card.textDetails?.negativeText?.trim();
  return [liked ? `Liked: ${liked}` : "", disliked ? `Disliked: ${disliked}` : ""]
    .filter(Boolean)
    .join("\n\n");
}

/**
 * One review card as the service keeps it. The 10-point score keeps its scale (best 10, worst 1),
 * which the normalizer maps onto 1–5; `reviewedDate` is epoch seconds; the guest's `countryCode`
 * and the booking's `checkinDate` become the reviewer's country and the visit date.
 */
export function toRawReview(card: ReviewCard): RawReview {
  const raw: RawReview = {
    id: card.reviewUrl,
    rating: { value: card.reviewScore, best: 10, worst: 1 },
    text: reviewText(card),
    date: new Date(card.reviewedDate * 1000).toISOString(),
  };
  const name = card.guestDetails?.username?.trim();
  if (name) raw.author_name = name;
  const language = card.textDetails?.lang?.trim();
  if (language) raw.language = language;
  const reply = card.partnerReply?.reply?.trim();
  if (reply) raw.reply_text = reply;
  // Alpha-2 ("gb"); empty for guests who did not give one. The normalizer maps it to alpha-3.
  const country = card.guestDetails?.countryCode?.trim();
  if (country) raw.author_country = country;
  // The check-in day, "YYYY-MM-DD": the first day of the stay.
  const checkin = card.bookingDetails?.checkinDate?.trim();
  if (checkin) raw.visit_date = checkin;
  // Beside the text, never in it (the text and so review_hash stay as they were).
  const title = card.textDetails?.title?.trim();
  if (title) raw.title = title;
  if (typeof card.helpfulVotesCount === "number") raw.likes = card.helpfulVotesCount;
  const photos = (card.photos ?? []).map(largestPhoto).filter((url): url is string => Boolean(url));
  if (photos.length) raw.photos = photos;
  return raw;
}

/** Booking's largest size of a photo (`max1280x900`), else the first it lists. */
function largestPhoto(photo: { urls?: { size?: string | null; url?: string | null }[] | null }) {
  const urls = photo.urls ?? [];
  return (urls.find((u) => u.size === "max1280x900") ?? urls[0])?.url ?? null;
}
