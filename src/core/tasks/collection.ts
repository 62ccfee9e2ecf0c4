/**
 * A client's collection options for one publisher (submit's `since`, `max_reviews` and `sort`) and
 * the pure rule that applies them to each page of a walk. See docs/api.md, "Collection options".
 */
import type { Review } from "../reviews/review";

/** The orders a client may ask for; `newest` is what every walk uses unless told otherwise. */
export const REVIEW_SORTS = ["newest", "relevant", "highest", "lowest"] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];

/**
 * What a task stores of them (on the task's options). `since` is milliseconds since the epoch, UTC.
 * Absent fields are absent options: tasks stored before these options existed read the same.
 */
export interface CollectionOptions {
  since?: number;
  max_reviews?: number;
  sort?: ReviewSort;
}

/**
 * The options every publisher takes, whatever its module: the pipeline applies them to the module's
 * pages, which every adapter reads newest first (GET /publishers lists them as `collection_options`;
 * the orders a publisher takes are its own list, `sorts`).
 */
export const COLLECTION_OPTIONS = ["since", "max_reviews"] as const;
export type CollectionOption = (typeof COLLECTION_OPTIONS)[number];

/** Codes of stop reasons that are the client's own choice: coverage stays complete with them. */
export const CLIENT_STOP_CODES = ["since", "max_reviews"] as const;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}:?\d{2})?$/;

/** The longest `since` read; "2026-11-27T10:00:00.123456789+01:00" is 35 characters. */
const MAX_SINCE = 40;

/**
 * An ISO 8601 calendar date ("2026-01-31", UTC midnight) or date-time ("2026-01-31T08:00:00Z",
 * "…+01:00"; without an offset it is UTC) in milliseconds since the epoch; null for anything else,
 * dates that do not exist ("2026-02-30") and times past 23:59:59 included.
 */
export function parseSince(text: string): number | null {
  if (text.length > MAX_SINCE) return null;
  const match = ISO_DATE.exec(text) ?? ISO_DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const [hour, minute, second] = [Number(match[4] ?? 0), Number(match[5] ?? 0), Number(match[6] ?? 0)];
  const fraction = match[7] ? Number(`0.${match[7]}`) * 1000 : 0;
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second) + Math.floor(fraction);
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls over ("2026-02-30" would be March 2): only a date that exists is kept.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  return utc - offsetMinutes(match[8]) * 60_000;
}

/** "+01:00" → 60, "-0530" → -330; none or "Z" → 0. */
function offsetMinutes(offset: string | undefined): number {
  if (!offset || offset === "Z" || offset === "z") return 0;
  const digits = offset.slice(1).replace(":", "");
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
  return offset.startsWith("-") ? -minutes : minutes;
}

/** How a page's reviews are cut to the options, and whether the walk ends at this page because of them. */
export interface OptionCut {
  /** The reviews the task keeps from this page, in the page's order. */
  kept: Review[];
  /** The option the walk ends with at this page, or null when it may go on. */
  stop: { code: (typeof CLIENT_STOP_CODES)[number]; detail: string } | null;
}

export interface CutInput {
  options: CollectionOptions;
  /** The page's fresh reviews (without the ones the client has), in the publisher's order. */
  reviews: readonly Review[];
  /** Reviews the task stored before this page. */
  storedBefore: number;
  /**
   * Whether the walk's pages come newest first: the task's sort is newest and the module can ask
   * for that order (`PublisherModule.walksNewestFirst`). Default: the task's sort is newest.
   */
  newestFirst?: boolean;
}

/**
 * Applies `since` and `max_reviews` to one page, in the walk's order. Reviews older than `since`
 * are left out; in a newest-first walk the first of them also ends the walk (every later review is
 * older still), while with another sort the walk goes on (an older review may be followed by a
 * newer one). `max_reviews` keeps the first reviews the walk meets up to the cap (the newest ones
 * newest first) and ends the walk once it is reached, so no page past it is fetched.
 */
export function cutToOptions({
  options,
  reviews,
  storedBefore,
  newestFirst = (options.sort ?? "newest") === "newest",
}: CutInput): OptionCut {
  let kept = [...reviews];
  let stop: OptionCut["stop"] = null;
  if (options.since !== undefined) {
    const since = options.since;
    const recent = kept.filter((review) => review.posted_at >= since);
    if (newestFirst && recent.length < kept.length)
      stop = {
        code: "since",
        detail: `the walk reached a review older than ${new Date(since).toISOString()}`,
      };
    kept = recent;
  }
  if (options.max_reviews !== undefined) {
    const room = Math.max(0, options.max_reviews - storedBefore);
    if (kept.length >= room) {
      kept = kept.slice(0, room);
      stop = {
        code: "max_reviews",
        detail: `the walk collected the ${options.max_reviews} reviews asked for`,
      };
    }
  }
  return { kept, stop };
}
