import { CLIENT_STOP_CODES } from "./collection";

/**
 * How complete a completed task's reviews are (docs/architecture.md, "Product decisions", Tasks). Pure: it
 * reads what the walk stored on the task and is computed when a retrieve or webhook needs it, so the
 * rule can change without rewriting stored tasks.
 */
export interface Coverage {
  /** The review count the publisher states for the profile, where a page stated one. */
  publisher_total: number | null;
  /** Reviews the task holds (deduplicated, without the ones in last_review_hashes). */
  collected: number;
  complete: boolean;
  /**
   * Why the walk stopped short (`<code>: <detail>`): a reason the reviews are incomplete, or the
   * client's own `since` / `max_reviews` (complete stays true); null when it went to the end.
   */
  stop_reason: string | null;
}

/** What the walk stored on the task (src/db/schema.ts). */
export interface WalkRecord {
  publisherTotal: number | null;
  limitedView: string | null;
  /** true: walked to the publisher's last page; false: stopped early by design; null: unknown (older tasks). */
  fullWalk: boolean | null;
  /** The page budget or a failure after page 1 ended the walk. */
  stopReason: string | null;
  /** Reviews stored. */
  collected: number;
}

/**
 * "Clearly fewer" than the publisher states: below 90 % of the total and at least 5 short. Publishers'
 * totals routinely exceed what their pages show: they count reviews they hide (Yelp's "not
 * recommended", reviews removed or under investigation, ratings without text that never appear as
 * reviews), totals are cached or rounded ("1.2k"), and the same review may be shown twice and is
 * stored once. A small gap is normal; a large one means the walk missed pages.
 */
export const CLEARLY_FEWER_RATIO = 0.9;
export const CLEARLY_FEWER_MIN_GAP = 5;

export function clearlyFewer(collected: number, publisherTotal: number): boolean {
  return (
    collected < publisherTotal * CLEARLY_FEWER_RATIO && publisherTotal - collected >= CLEARLY_FEWER_MIN_GAP
  );
}

/** A publisher total only counts when it is a sane count. */
function saneTotal(total: number | null): number | null {
  return total !== null && Number.isSafeInteger(total) && total >= 0 ? total : null;
}

/** A stop reason that names the client's own `since` or `max_reviews`: the task holds what was asked for. */
export function isClientStop(stopReason: string): boolean {
  return CLIENT_STOP_CODES.some((code) => stopReason.startsWith(`${code}: `));
}

export function taskCoverage(walk: WalkRecord): Coverage {
  const total = saneTotal(walk.publisherTotal);
  let stopReason: string | null = null;
  if (walk.stopReason) stopReason = walk.stopReason;
  else if (walk.limitedView) stopReason = `limited_view: ${walk.limitedView}`;
  else if (walk.fullWalk === true && total !== null && clearlyFewer(walk.collected, total)) {
    stopReason = `fewer_than_stated: the walk reached the last page with ${walk.collected} of the ${total} reviews the publisher states`;
  }
  return {
    publisher_total: total,
    collected: walk.collected,
    complete: stopReason === null || isClientStop(stopReason),
    stop_reason: stopReason,
  };
}

/** Longest stop_reason stored: failure details are the adapter's own messages, which may quote a URL. */
export const MAX_STOP_REASON = 500;

export function stopReasonText(code: string, detail: string): string {
  const text = `${code}: ${detail}`;
  return text.length > MAX_STOP_REASON ? `${text.slice(0, MAX_STOP_REASON - 1)}…` : text;
}
