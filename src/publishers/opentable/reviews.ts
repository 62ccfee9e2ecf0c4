/**
 * OpenTable's reviews, as its restaurant page gets them: the first page is embedded in the page's
 * state (`window.__INITIAL_STATE__.restaurantProfile.{restaurant.restaurantId,
 * reviewsData.reviewSearchResults.{reviews, totalCount}}`), the following ones come from the
 * GraphQL review search the page calls, `POST /dapi/fe/gql?optype=query&opname=ReviewSearchResults`
 * (a persisted query by hash, `{restaurantId, page, pageSize: 10, sortBy: "newestReview", …}`),
 * answering `{data: {restaurant: {reviewSearchResults: {reviews, totalCount}}}}`. As the 2026-01
 * client reads it (see README.md).
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import type { RequestOptions } from "../../scraping/client";
import { permanentError } from "../../scraping/errors";
import { jsonLiteralAt } from "../kit/json-literal";
import {
  countOf,
  nextByNumber,
  readAnswer,
  type ParseContext,
  type WalkPage,
  type WalkPosition,
} from "../kit/json-walk";

export const WHAT = "OpenTable reviews";
export const PAGE_SIZE = 10;
/** The persisted query's hash as the 2026-01-18 client sends it; OpenTable rotates it with releases. */
export const REVIEW_SEARCH_HASH = "a544a8bb7070a1aa6c5e50b3f9bb239ba44f442eb9ac628f30b57bd3ae098b27";

/** What one page's fetch hands the parser: the restaurant page (page 1) or a GraphQL answer. */
export type OpentableFetched =
  { kind: "state"; html: string } | { kind: "gql"; answer: unknown; restaurantId: string };

/** Page 1 is the restaurant page itself; later pages are the review search, by restaurant id (the position's token). */
export function opentableRequest(
  position: WalkPosition,
  pageUrl: string,
): { url: string; options?: RequestOptions } {
  if (position.page <= 1 || !position.token) return { url: pageUrl };
  return {
    url: `${new URL(pageUrl).origin}/dapi/fe/gql?optype=query&opname=ReviewSearchResults`,
    options: {
      method: "POST",
      headers: { "ot-page-group": "rest-profile", "ot-page-type": "restprofilepage", Referer: pageUrl },
      json: {
        operationName: "ReviewSearchResults",
        variables: {
          prioritiseUserLanguage: false,
          gpid: 0,
          restaurantId: Number(position.token),
          page: position.page,
          pageSize: PAGE_SIZE,
          sortBy: "newestReview",
          searchTerm: "",
          highlightFormat: "index",
        },
        extensions: { persistedQuery: { version: 1, sha256Hash: REVIEW_SEARCH_HASH } },
      },
    },
  };
}

/**
 * Where a restaurant page states its session's CSRF token, as the 2026-01 client looks for it:
 * `window.__csrfToken`, `<meta name="csrf-token" content>`, `window._csrfToken`. Each marker is found
 * with indexOf and only a short slice after it is matched (no regex over the page).
 */
const CSRF_MARKERS: { marker: string; value: RegExp }[] = [
  { marker: "__csrfToken", value: /^__csrfToken\s*=\s*["']([\w.:+/=-]{1,400})["']/ },
  { marker: 'name="csrf-token"', value: /^name="csrf-token"\s+content="([\w.:+/=-]{1,400})"/ },
  { marker: "_csrfToken", value: /^_csrfToken\s*=\s*["']([\w.:+/=-]{1,400})["']/ },
];

/** The page's CSRF token, or null where it states none. */
export function csrfTokenOf(html: string): string | null {
  for (const { marker, value } of CSRF_MARKERS) {
    const at = html.indexOf(marker);
    if (at < 0) continue;
    const match = value.exec(html.slice(at, at + 480));
    if (match) return match[1];
  }
  return null;
}

const STATE_MARKER = "window.__INITIAL_STATE__";

/** The page's `window.__INITIAL_STATE__` object, found by its marker and bracket-matched (no regex over the page). */
export function initialStateOf(html: string): unknown {
  const marker = html.indexOf(STATE_MARKER);
  if (marker < 0) throw permanentError("publisher_error", `${WHAT}: the page has no ${STATE_MARKER}`);
  // The object follows ` = ` right after the marker; a brace further away is not this assignment.
  const brace = html.indexOf("{", marker);
  const literal = brace >= 0 && brace - marker < 40 ? jsonLiteralAt(html, brace) : null;
  if (literal === null)
    throw permanentError("publisher_error", `${WHAT}: ${STATE_MARKER} is not a closed object`);
  try {
    return JSON.parse(literal);
  } catch {
    throw permanentError("publisher_error", `${WHAT}: ${STATE_MARKER} is not JSON`);
  }
}

const ResultsSchema = z.object({ reviews: z.array(z.unknown()), totalCount: z.unknown() });

const StateSchema = z.object({
  restaurantProfile: z.object({
    restaurant: z.object({
      restaurantId: z.union([z.number().int().positive(), z.string().regex(/^\d{1,12}$/)]),
    }),
    reviewsData: z.object({ reviewSearchResults: ResultsSchema }),
  }),
});

const GqlSchema = z.object({
  data: z.object({ restaurant: z.object({ reviewSearchResults: ResultsSchema }) }),
});

const score = z.union([z.number(), z.string().max(20)]).nullish();
const ReviewSchema = z.object({
  reviewId: z.union([z.string().min(1).max(100), z.number().int()]),
  text: z.string().max(50_000).nullish(),
  rating: z
    .object({
      overall: z.number().min(1).max(5),
      food: score,
      service: score,
      ambience: score,
      value: score,
      noise: score,
    })
    .nullish(),
  user: z.object({ nickname: z.string().max(200).nullish() }).nullish(),
  submittedDateTime: z.string().max(40).nullish(),
  dinedDateTime: z.string().max(40).nullish(),
  /** The restaurant's public answer, `{message, responseDateTimeUtc}` in a real 2022 page state. */
  publicRestaurantReply: z
    .object({ message: z.string().max(50_000).nullish(), responseDateTimeUtc: z.string().max(40).nullish() })
    .nullish(),
});

/** A noise rating that says the diner gave none (seen in a real 2022 page state beside QUIET, MODERATE, ENERGETIC). */
const NO_NOISE_RATING = "DO_NOT_RECALL";

const SUB_RATINGS = [
  ["food", "Food"],
  ["service", "Service"],
  ["ambience", "Ambience"],
  ["value", "Value"],
  ["noise", "Noise"],
] as const;

/**
 * The review's text, then its sub-ratings as OpenTable shows them, one `Label: value` line each in
 * a block after a blank line (the way other modules kept extra sections in the text before the
 * review had `sub_ratings`; kept so, as the text is what review_hash is of).
 */
function reviewText(review: z.infer<typeof ReviewSchema>): string {
  const lines = SUB_RATINGS.flatMap(([key, label]) => {
    const value = review.rating?.[key];
    return value === null || value === undefined || value === "" || value === NO_NOISE_RATING
      ? []
      : [`${label}: ${value}`];
  });
  return [review.text?.trim(), lines.join("\n")].filter(Boolean).join("\n\n");
}

/** The 1–5 scores (food, service, ambience, value) as `sub_ratings`; noise is a word (QUIET…), not a score. */
function subRatings(review: z.infer<typeof ReviewSchema>): Pick<RawReview, "sub_ratings"> {
  const scores = SUB_RATINGS.flatMap(([key]) => {
    const value = review.rating?.[key];
    return key !== "noise" &&
      (typeof value === "number" || (typeof value === "string" && /^[1-5]$/.test(value)))
      ? [[key, value] as const]
      : [];
  });
  return scores.length ? { sub_ratings: Object.fromEntries(scores) } : {};
}

function reviewsOf(items: unknown[], ctx: ParseContext): RawReview[] {
  const reviews: RawReview[] = [];
  for (const raw of items) {
    ctx.budget.spend();
    const item = ReviewSchema.safeParse(raw);
    if (!item.success) continue;
    const review = item.data;
    const author = review.user?.nickname?.trim();
    const dined = review.dinedDateTime?.slice(0, 10);
    const reply = review.publicRestaurantReply?.message?.trim();
    const replyDate = review.publicRestaurantReply?.responseDateTimeUtc;
    reviews.push({
      id: String(review.reviewId),
      ...(author ? { author_name: author } : {}),
      ...(review.rating ? { rating: { value: review.rating.overall, best: 5, worst: 1 } } : {}),
      text: reviewText(review),
      ...subRatings(review),
      url: ctx.pageUrl,
      ...(review.submittedDateTime ? { date: review.submittedDateTime } : {}),
      ...(dined && /^\d{4}-\d{2}-\d{2}$/.test(dined) ? { visit_date: dined } : {}),
      ...(reply ? { reply_text: reply, ...(replyDate ? { reply_date: replyDate } : {}) } : {}),
    });
  }
  return reviews;
}

/** One page: the embedded first page or a review search answer; the next page carries the restaurant id. */
export function parseOpentablePage(data: unknown, ctx: ParseContext): WalkPage {
  const fetched = data as OpentableFetched;
  let restaurantId: string;
  let results: z.infer<typeof ResultsSchema>;
  if (fetched?.kind === "state") {
    const state = readAnswer(StateSchema, initialStateOf(fetched.html), `${WHAT} (page state)`);
    restaurantId = String(state.restaurantProfile.restaurant.restaurantId);
    results = state.restaurantProfile.reviewsData.reviewSearchResults;
  } else if (fetched?.kind === "gql") {
    results = readAnswer(GqlSchema, fetched.answer, `${WHAT} (review search)`).data.restaurant
      .reviewSearchResults;
    restaurantId = fetched.restaurantId;
  } else {
    throw permanentError("publisher_error", `${WHAT}: nothing to read`);
  }
  const total = countOf(results.totalCount);
  if (total === null) throw permanentError("publisher_error", `${WHAT}: totalCount is not a count`);
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const next =
    fetched.kind === "state"
      ? afterFirstPage(results.reviews.length, total, lastPage)
      : nextByNumber(WHAT, ctx.position.page, lastPage, results.reviews.length);
  return {
    reviews: reviewsOf(results.reviews, ctx),
    next: next ? { page: next.page, token: restaurantId } : null,
    publisherTotal: total,
  };
}

/**
 * Where the review search (10 a page) takes over from the embedded first page. How many reviews the
 * page embeds is the page's own choice: the 2026-01 client assumes 10, but a real 2022 page state
 * held 24 of 24 (`totalPages: 1`). So the search starts at the first 10-page reaching past what
 * the page held (page 2 after 10, page 3 after 20), and a page holding them all ends the walk;
 * asking for page 2 after 20 would get only repeats, which end a walk early.
 */
function afterFirstPage(held: number, total: number, lastPage: number): WalkPosition | null {
  if (held >= total) return null;
  const next = nextByNumber(WHAT, 1, lastPage, held);
  return next ? { page: Math.max(next.page, Math.floor(held / PAGE_SIZE) + 1), token: null } : null;
}
