import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import type { PageSummary } from "../../core/tasks/publisher-summary";
import { WorkBudget } from "../kit/work-budget";
import { pageProps } from "./next-data";

/** Where Trustpilot links a review and a reviewer (www host, whichever country site was read). */
export const TRUSTPILOT_ORIGIN = "https://www.trustpilot.com";

const text = z.string().nullish();
const count = z.number().int().nonnegative();
/** `filters.reviewStatistics.ratings`: one count per star rating, in Trustpilot's own names. */
const STAR_KEYS = { one: count, two: count, three: count, four: count, five: count };

/**
 * One review of `props.pageProps.reviews` (the fields this adapter reads; Trustpilot sends many
 * more). Dates are ISO 8601 timestamps; `language` is the reviewer's own language code.
 */
const TrustpilotReviewSchema = z.object({
  id: z.string().min(1),
  title: text,
  text,
  rating: z.number().int().min(1).max(5),
  language: text,
  /** The "Useful" votes the review received. */
  likes: z.number().int().nonnegative().nullish().catch(null),
  dates: z.object({ publishedDate: z.string().min(1), experiencedDate: text, updatedDate: text }),
  consumer: z.object({ id: text, displayName: text }).nullish(),
  reply: z.object({ message: text, publishedDate: text, updatedDate: text }).nullish(),
});
export type TrustpilotReview = z.infer<typeof TrustpilotReviewSchema>;

/**
 * The review page's data. `reviews` is the list the page shows for its filters and page number;
 * `relevantReviews` (a "most relevant" block repeating reviews from anywhere in the list) is left
 * out on purpose: its reviews would arrive out of order and twice.
 */
export const ReviewPagePropsSchema = z.object({
  businessUnit: z.object({
    identifyingName: z.string().min(1),
    displayName: text,
    numberOfReviews: z.number().int().nonnegative().nullish(),
    /** The TrustScore the profile shows (1–5, one decimal). */
    trustScore: z.number().nullish(),
  }),
  reviews: z.array(TrustpilotReviewSchema),
  filters: z.object({
    // Absent on the pages Trustpilot no longer serves to a signed-out visitor (page 11 and later of
    // any one list): the adapter tells that cap from a changed page.
    pagination: z
      .object({
        currentPage: z.number().int().positive(),
        perPage: z.number().int().positive().nullish(),
        totalPages: z.number().int().nonnegative(),
        totalCount: z.number().int().nonnegative().nullish(),
      })
      .optional(),
    // How many reviews the profile has per star rating; only a hint for the walks past the cap, so a
    // changed shape is dropped rather than failing the page.
    reviewStatistics: z
      .object({ ratings: z.object(STAR_KEYS).nullish() })
      .nullish()
      .catch(null),
  }),
});
export type ReviewPageProps = z.infer<typeof ReviewPagePropsSchema>;

export interface ReviewPagination {
  /** The page number Trustpilot says it served. */
  currentPage: number;
  /** How many pages the list has for these filters (0 when the business has no reviews). */
  totalPages: number;
  /** Reviews a page, where the page says (20 on Trustpilot today). */
  perPage: number | null;
}

export interface ReviewPage {
  reviews: RawReview[];
  /** `filters.pagination`; null when the page carries none (a page past the signed-out cap). */
  pagination: ReviewPagination | null;
  /** How many reviews the list has, where the page says. */
  totalCount: number | null;
  /** How many reviews the profile has per star rating (index 0 = 1 star), where the page says. */
  ratings: number[] | null;
  /** The TrustScore (1–5) and the star breakdown the profile shows (publisher_summary). */
  summary: PageSummary;
}

function present(value: string | null | undefined): string | undefined {
  return value?.trim() ? value : undefined;
}

/**
 * The reviewer's own title. Trustpilot fills an untitled review's title with the first words of its
 * text and an ellipsis ("Seldom do I ever get a staff member…"): that is no title, and is left out.
 */
function ownTitle(review: TrustpilotReview): string | undefined {
  const title = present(review.title)?.trim();
  if (!title) return undefined;
  const stem = title.replace(/(?:…|\.\.\.)$/, "").trimEnd();
  return stem !== title && (review.text ?? "").trimStart().startsWith(stem) ? undefined : title;
}

/**
 * A Trustpilot review as the pipeline's RawReview. The body is `text` alone: Trustpilot fills an
 * untitled review's title with the first words of its text ("I love how easy it is for me to buy…"),
 * so prefixing the title would repeat the text and change the review_hash clients already store.
 */
export function toRawReview(review: TrustpilotReview): RawReview {
  const consumerId = present(review.consumer?.id);
  const replyText = present(review.reply?.message);
  return {
    id: review.id,
    author_name: present(review.consumer?.displayName),
    author_id: consumerId,
    author_url: consumerId ? `${TRUSTPILOT_ORIGIN}/users/${encodeURIComponent(consumerId)}` : undefined,
    rating: { value: review.rating, best: 5, worst: 1 },
    text: review.text ?? "",
    url: `${TRUSTPILOT_ORIGIN}/reviews/${encodeURIComponent(review.id)}`,
    date: review.dates.publishedDate,
    language: present(review.language),
    ...(ownTitle(review) ? { title: ownTitle(review) } : {}),
    ...(typeof review.likes === "number" ? { likes: review.likes } : {}),
    ...(replyText
      ? {
          reply_text: replyText,
          reply_date: present(review.reply?.publishedDate) ?? present(review.reply?.updatedDate),
        }
      : {}),
  };
}

/** Reads a review page's HTML: its reviews (newest first, as asked) and where the list ends. */
export async function parseReviewPage(
  html: string,
  budget = new WorkBudget("Trustpilot review page"),
): Promise<ReviewPage> {
  const props = await pageProps(html, ReviewPagePropsSchema, "review page", budget);
  const { pagination } = props.filters;
  const ratings = props.filters.reviewStatistics?.ratings;
  return {
    reviews: props.reviews.map((review) => {
      budget.spend();
      return toRawReview(review);
    }),
    pagination: pagination
      ? {
          currentPage: pagination.currentPage,
          totalPages: pagination.totalPages,
          perPage: pagination.perPage ?? null,
        }
      : null,
    totalCount: pagination?.totalCount ?? props.businessUnit.numberOfReviews ?? null,
    ratings: ratings ? [ratings.one, ratings.two, ratings.three, ratings.four, ratings.five] : null,
    summary: {
      rating: props.businessUnit.trustScore ?? null,
      ratingScale: "1-5",
      histogram: ratings
        ? { 1: ratings.one, 2: ratings.two, 3: ratings.three, 4: ratings.four, 5: ratings.five }
        : null,
    },
  };
}
