/**
 * Tripadvisor's review list: the persisted GraphQL query the location pages run
 * (`POST /data/graphql/ids`, a batch of `{variables, extensions: {preRegisteredQueryId}}`), and the
 * pure parsing of its answer into RawReviews. The shapes follow what open-source scrapers record of
 * the live site (see test/publishers/tripadvisor/data.ts for the sources).
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import { issueText } from "../../scraping/answer-schema";
import { permanentError } from "../../scraping/errors";
import { WorkBudget } from "../kit/work-budget";

/**
 * The review list operation's persisted query id (`ReviewsProxy_getReviewListPageForLocation`).
 * Tripadvisor rotates it when it deploys, but `PersistedQueryNotFound` is also what it answers a
 * distrusted (datacenter) session for every id, even an invented one (shahidirfan100/
 * Tripadvisor-Reviews-Scraper, Oct 2026). For the known id that answer is therefore `blocked`
 * (`persistedQueryRefused`), so the next configured route is tried.
 */
export const REVIEW_LIST_QUERY_ID = "3d5e9aff1e00e113";

/** Reviews per request; the site's own pages ask for 10 to 20. */
export const REVIEWS_PER_PAGE = 20;

/** The batch body of one review list request, newest first, every language, no machine translation. */
export function reviewListRequest(locationId: number, offset: number) {
  return [
    {
      variables: {
        locationId,
        offset,
        limit: REVIEWS_PER_PAGE,
        filters: [],
        sortType: null,
        sortBy: "DATE",
        language: "en",
        locale: "en-US",
        // Asked off so that `text` is what the reviewer wrote and `language` the language they wrote in.
        doMachineTranslation: false,
        photosPerReviewLimit: 0,
      },
      extensions: { preRegisteredQueryId: REVIEW_LIST_QUERY_ID },
    },
  ];
}

const Text = z.string().nullish();

const ReviewSchema = z.object({
  id: z.union([z.number().int(), z.string().min(1)]),
  rating: z.number(),
  title: Text,
  text: Text,
  language: Text,
  originalLanguage: Text,
  publishedDate: Text,
  createdDate: Text,
  userProfile: z
    .object({
      id: Text,
      displayName: Text,
      username: Text,
      route: z.object({ url: Text }).nullish(),
    })
    .nullish(),
  reviewDetailPageWrapper: z.object({ reviewDetailPageRoute: z.object({ url: Text }).nullish() }).nullish(),
  /** The review's own link in the older `locations[0].reviewListPage` answer (2023; see the real capture in the tests). */
  route: z.object({ url: Text }).nullish(),
  mgmtResponse: z.object({ text: Text, publishedDate: Text }).nullish(),
  tripInfo: z.object({ stayDate: Text }).nullish(),
  /** "Helpful" votes the review received. */
  helpfulVotes: z.number().nullish(),
});

export type TripadvisorReview = z.infer<typeof ReviewSchema>;

const ReviewListSchema = z.object({
  totalCount: z.number().int().nonnegative(),
  reviews: z.array(z.unknown()),
});

const GraphQLErrorSchema = z
  .object({
    message: z.string().optional(),
    extensions: z.object({ code: z.string().optional() }).passthrough().optional(),
  })
  .passthrough();

const ResultSchema = z
  .object({
    data: z.record(z.string(), z.unknown()).nullish(),
    errors: z.array(GraphQLErrorSchema).optional(),
  })
  .passthrough();

const PERSISTED_QUERY_NOT_FOUND = /PersistedQueryNotFound/i;

/** `PersistedQueryNotFound` for the known id: Tripadvisor distrusts the session (see REVIEW_LIST_QUERY_ID). */
export function persistedQueryRefused() {
  return permanentError(
    "blocked",
    `Tripadvisor review list answered PersistedQueryNotFound for query ${REVIEW_LIST_QUERY_ID}: its answer to a distrusted session (or the id rotated)`,
  );
}

/**
 * The page inspector's check of a review list answer (small JSON; only its head is looked at):
 * `PersistedQueryNotFound` is `blocked` there already, so the client falls through to the next route
 * for this very request.
 */
export function refusedReviewList(text: string): boolean {
  const head = text.slice(0, 2048);
  return head.trimStart().startsWith("[") && PERSISTED_QUERY_NOT_FOUND.test(head);
}

export interface ReviewListPage {
  totalCount: number;
  reviews: TripadvisorReview[];
}

/** The review list of one location, read from the `/data/graphql/ids` answer; throws publisher_error when it is not there. */
export function parseReviewListResponse(
  body: unknown,
  budget = new WorkBudget("Tripadvisor review list"),
): ReviewListPage {
  const results = z.array(ResultSchema).min(1).safeParse(body);
  if (!results.success)
    throw permanentError(
      "publisher_error",
      `Tripadvisor review list: expected a GraphQL batch answer (${issueText(results.error)})`,
    );
  const [result] = results.data;
  if (result.errors?.length) {
    const first = result.errors[0];
    const code = first.extensions?.code ?? first.message ?? "unknown error";
    if (PERSISTED_QUERY_NOT_FOUND.test(`${code} ${first.message ?? ""}`)) throw persistedQueryRefused();
    throw permanentError(
      "publisher_error",
      `Tripadvisor review list: GraphQL error ${code}${first.message && first.message !== code ? ` (${first.message})` : ""}`,
    );
  }
  const data = result.data ?? {};
  // The current operation answers a one-element list; older ones nested the page under the location.
  const proxy = data.ReviewsProxy_getReviewListPageForLocation;
  const legacy = Array.isArray(data.locations)
    ? (data.locations[0] as { reviewListPage?: unknown } | undefined)?.reviewListPage
    : undefined;
  const raw: unknown = Array.isArray(proxy) ? proxy[0] : legacy;
  if (raw === undefined || raw === null) {
    throw permanentError(
      "publisher_error",
      "Tripadvisor review list: the answer has no data.ReviewsProxy_getReviewListPageForLocation[0] (nor data.locations[0].reviewListPage)",
    );
  }
  const list = ReviewListSchema.safeParse(raw);
  if (!list.success)
    throw permanentError("publisher_error", `Tripadvisor review list: ${issueText(list.error)}`);
  const reviews = list.data.reviews.map((review, index) => {
    budget.spend();
    const parsed = ReviewSchema.safeParse(review);
    if (!parsed.success)
      throw permanentError(
        "publisher_error",
        `Tripadvisor review list: reviews.${index}.${issueText(parsed.error)}`,
      );
    return parsed.data;
  });
  return { totalCount: list.data.totalCount, reviews };
}

function absolute(path: string | null | undefined, origin: string): string | undefined {
  if (!path) return undefined;
  return URL.canParse(path, origin) ? new URL(path, origin).toString() : undefined;
}

/**
 * One review as the service keeps it. `origin` is the profile's site (reviews link to it). The
 * title is not part of the text: the text is the review body as written, so its hash stays the
 * body's; the owner reply (mgmtResponse) becomes reply_text and reply_date; the month of stay
 * (tripInfo.stayDate) becomes visit_date.
 */
export function toRawReview(review: TripadvisorReview, origin: string): RawReview {
  const user = review.userProfile;
  const reply = review.mgmtResponse;
  const raw: RawReview = {
    id: String(review.id),
    rating: { value: review.rating, best: 5, worst: 1 },
    text: review.text ?? "",
  };
  const name = user?.displayName?.trim() || user?.username?.trim();
  if (name) raw.author_name = name;
  if (user?.id) raw.author_id = user.id;
  const profile = absolute(user?.route?.url, origin);
  if (profile) raw.author_url = profile;
  const url = absolute(
    review.reviewDetailPageWrapper?.reviewDetailPageRoute?.url ?? review.route?.url,
    origin,
  );
  if (url) raw.url = url;
  const date = review.publishedDate ?? review.createdDate;
  if (date) raw.date = date;
  // `language` is the language of `text`; with machine translation off that is the reviewer's own.
  const language = review.language ?? review.originalLanguage;
  if (language) raw.language = language;
  if (reply?.text?.trim()) {
    raw.reply_text = reply.text;
    if (reply.publishedDate) raw.reply_date = reply.publishedDate;
  }
  // "Date of stay" is a month on Tripadvisor ("October 2026"); `stayDate` carries it as a date, so
  // only its month is kept (visited_at is then the first day of that month).
  const stayMonth = /^(\d{4}-\d{2})-\d{2}/.exec(review.tripInfo?.stayDate?.trim() ?? "")?.[1];
  if (stayMonth) raw.visit_date = stayMonth;
  // The reviewer's own title and the helpful votes (optional fields, never hashed).
  if (review.title?.trim()) raw.title = review.title;
  if (typeof review.helpfulVotes === "number") raw.likes = review.helpfulVotes;
  return raw;
}
