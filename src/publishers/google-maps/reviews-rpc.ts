import type { RawReview } from "../../core/reviews";
import { permanentError } from "../../scraping/errors";
import { WorkBudget } from "../kit/work-budget";
import { at, numberAt, pathText, stringAt } from "./nested";

/**
 * The `listugcposts` RPC the Maps page calls when its reviews tab opens or scrolls:
 * `GET https://www.google.com/maps/rpc/listugcposts?authuser=0&hl=en&pb=<descriptor>`, answered with
 * Google's `)]}'` guard line and a positional JSON array:
 *
 *   [_, <next page token or null>, [[<review>, _, <entry token>], …], …]
 *
 * A review (the entry's element 0) keeps, by index path:
 *   [0] review id · [1][2] posted, [1][3] updated (µs since the epoch) · [1][4][5][0] author name,
 *   [1][4][5][2][0] author profile URL, [1][4][5][3] author id, [1][4][5][5] the author's review
 *   count (its text, "2 reviews", at [1][4][5][10][0]) · [1][6] relative date as printed ·
 *   [1][13][0] source ("Google", or the partner site of a syndicated review) and [1][13][4] its
 *   rating scale · [2][0][0] rating 1–5 · [2][14][0] the review's own language, [2][14][1] the
 *   language it was machine-translated to · [2][15][0][0] original text, [2][15][1][0] translated
 *   text · [3][1] reply posted (µs), [3][3] reply date as printed, [3][14][0][0] original reply text ·
 *   [4][3][0] the review's own link.
 */

/** Reviews per RPC page; the Maps page asks for 10 or 20. */
export const PAGE_SIZE = 20;

/** `!13m1!1e<n>` sorts: 1 most relevant (the page's default), 2 newest, 3 highest, 4 lowest rating. */
export const SORT_NEWEST = 2;

export interface ReviewsRequest {
  featureId: string;
  /** The previous page's next token; "" for the first page. */
  token: string;
  /** A random id the page sends with every call of one session (`!5m2!1s<id>`). */
  requestId: string;
  /** The sort code (`!13m1!1e<n>`); newest first when absent. */
  sort?: number;
}

/** The RPC URL for one page of a place's reviews, newest first. */
export function reviewsRpcUrl({ featureId, token, requestId, sort = SORT_NEWEST }: ReviewsRequest): string {
  const pb = [
    `!1m6!1s${featureId}!6m4!4m1!1e1!4m1!1e3`,
    `!2m2!1i${PAGE_SIZE}!2s${token}`,
    `!5m2!1s${requestId}!7e81`,
    `!8m9!2b1!3b1!5b1!7b1!12m4!1b1!2b1!4m1!1e1!11m0`,
    `!13m1!1e${sort}`,
  ].join("");
  const params = new URLSearchParams({ authuser: "0", hl: "en", pb });
  return `https://www.google.com/maps/rpc/listugcposts?${params.toString()}`;
}

/** A random session id of the kind the Maps page sends (21 URL-safe base64 characters). */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "")
    .slice(0, 21);
}

export interface ReviewsPage {
  reviews: RawReview[];
  /** Entries on the page, syndicated ones included (they are skipped, not missing). */
  entries: number;
  nextToken: string | null;
}

/** An epoch value in microseconds as an ISO 8601 timestamp (millisecond precision). */
function isoFromMicros(micros: number | undefined): string | undefined {
  if (micros === undefined || micros <= 0) return undefined;
  const ms = Math.floor(micros / 1000);
  // Past Date's range (±8.64e15 ms) toISOString throws a RangeError; such a time is no time.
  return ms <= MAX_DATE_MS ? new Date(ms).toISOString() : undefined;
}

/** The latest time a Date holds, in ms since the epoch. */
const MAX_DATE_MS = 8_640_000_000_000_000;

function missing(what: string, index: number, path: number[]): never {
  throw permanentError(
    "publisher_error",
    `listugcposts: review ${index} has no ${what} at ${pathText([2, index, 0, ...path])}`,
  );
}

/**
 * One review entry as a RawReview, or null for a review Google syndicates from another site
 * (Tripadvisor, Booking.com…, on hotel pages): those belong to that site, on its own scale.
 */
export function reviewFromEntry(entry: unknown, index: number): RawReview | null {
  const review = at(entry, 0);
  if (!Array.isArray(review))
    throw permanentError(
      "publisher_error",
      `listugcposts: entry ${index} has no review record at ${pathText([2, index, 0])}`,
    );
  const source = stringAt(review, 1, 13, 0);
  if (source !== undefined && source.toLowerCase() !== "google") return null;

  const id = stringAt(review, 0) ?? missing("review id", index, [0]);
  const rating = numberAt(review, 2, 0, 0) ?? missing("rating", index, [2, 0, 0]);
  const posted =
    isoFromMicros(numberAt(review, 1, 2) ?? numberAt(review, 1, 3)) ?? missing("timestamp", index, [1, 2]);
  const replyText = stringAt(review, 3, 14, 0, 0);
  const raw: RawReview = {
    id,
    author_name: stringAt(review, 1, 4, 5, 0) ?? missing("author name", index, [1, 4, 5, 0]),
    author_id: stringAt(review, 1, 4, 5, 3),
    author_url: stringAt(review, 1, 4, 5, 2, 0) ?? stringAt(review, 1, 4, 2, 0),
    rating: { value: rating, best: 5, worst: 1 },
    // [2][15][0] is what the reviewer wrote; [2][15][1] is Google's translation into `hl`.
    text: stringAt(review, 2, 15, 0, 0) ?? "",
    url: stringAt(review, 4, 3, 0),
    date: posted,
    language: stringAt(review, 2, 14, 0),
    author_review_count: reviewCountAt(review, 1, 4, 5, 5),
    author_badges: localGuide(stringAt(review, 1, 4, 5, 10, 0)),
    // Google's own translation into `hl` (en), beside the original: kept apart, never as the text.
    translated_text: stringAt(review, 2, 15, 1, 0),
    translated_language: stringAt(review, 2, 14, 1),
  };
  if (replyText) {
    raw.reply_text = replyText;
    raw.reply_date =
      isoFromMicros(numberAt(review, 3, 1) ?? numberAt(review, 3, 2)) ?? stringAt(review, 3, 3);
  }
  for (const key of Object.keys(raw) as (keyof RawReview)[]) if (raw[key] === undefined) delete raw[key];
  return raw;
}

/**
 * `["local_guide"]` when the reviewer's label says so: Google labels a Local Guide's reviews
 * "Local Guide · 46 reviews" at [1][4][5][10][0] (hl=en; gosom's real capture
 * review_native_no_translation.json), other reviewers' "6 reviews". The label gives no level, so
 * none is claimed.
 */
function localGuide(label: string | undefined): string[] | undefined {
  return label?.startsWith("Local Guide") ? ["local_guide"] : undefined;
}

/** The reviewer's review count: a whole number from 0 up, else left out. */
function reviewCountAt(review: unknown, ...path: number[]): number | undefined {
  const count = numberAt(review, ...path);
  return count !== undefined && Number.isSafeInteger(count) && count >= 0 ? count : undefined;
}

/** Most entries one answer may hold: the RPC sends the page size asked for (20); far more is not its answer. */
const MAX_ENTRIES = 1_000;

/** Reads one RPC answer (already without its `)]}'` line). */
export function parseReviewsPage(data: unknown): ReviewsPage {
  if (!Array.isArray(data)) throw permanentError("publisher_error", "listugcposts: the answer is not a list");
  const list = data[2] as unknown[] | null | undefined; // checked on the next line
  if (list !== undefined && list !== null && !Array.isArray(list))
    throw permanentError("publisher_error", "listugcposts: the review list at [2] is not a list");
  const entries: unknown[] = list ?? [];
  const token = data[1] as string | null | undefined; // checked on the next line
  if (token !== undefined && token !== null && typeof token !== "string")
    throw permanentError("publisher_error", "listugcposts: the next page token at [1] is not a string");
  const reviews: RawReview[] = [];
  const budget = new WorkBudget("listugcposts answer", MAX_ENTRIES);
  entries.forEach((entry, index) => {
    budget.spend();
    const review = reviewFromEntry(entry, index);
    if (review) reviews.push(review);
  });
  return { reviews, entries: entries.length, nextToken: token ? token : null };
}
