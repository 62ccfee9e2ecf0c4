import type { Review } from "../reviews/review";

/** What a monitor compares between two sightings of one review: the fields review.updated names. */
export interface WatchedFields {
  rating: number;
  text: string;
  owner_reply: { text: string; posted_at: number | null } | null;
}

export type ChangeType = "review.created" | "review.updated" | "review.deleted";

export interface DetectedChange {
  type: ChangeType;
  review_id: string;
  /** The review as last seen (updated, deleted); null for a new review. */
  before: Review | null;
  /** The review as seen now (created, updated); null for a deletion. */
  after: Review | null;
}

/** The review as the monitor last stored it. */
export interface KnownReview {
  review_id: string;
  review_hash: string;
  data: Review;
}

export interface RunSighting {
  /** The reviews the run's task stored, newest first (its retrieve order). */
  seen: readonly Review[];
  /** What the monitor knew of the reviews it needs: every one of a full walk, or those seen now. */
  known: ReadonlyMap<string, KnownReview>;
  /**
   * A full walk that reached the publisher's last page: a known review it did not see is gone.
   * Only then are deletions inferred; an incremental run stops early by design.
   */
  completeWalk: boolean;
  /** The first run of a publisher records what is there without announcing it as new. */
  baseline: boolean;
}

export function watchedFields(review: Review): WatchedFields {
  return { rating: review.rating, text: review.text, owner_reply: review.owner_reply ?? null };
}

function sameFields(a: WatchedFields, b: WatchedFields): boolean {
  return (
    a.rating === b.rating &&
    a.text === b.text &&
    (a.owner_reply?.text ?? null) === (b.owner_reply?.text ?? null)
  );
}

/**
 * The changes one run shows, in detection order: new reviews oldest first (the order they were
 * written), then edits in the run's order, then deletions oldest first. A review whose watched
 * fields are the same (another field of the hash changed, say the author's display name) is no
 * change; the monitor still records its newest state.
 */
export function diffRun(sighting: RunSighting): DetectedChange[] {
  const created: DetectedChange[] = [];
  const updated: DetectedChange[] = [];
  const seenIds = new Set<string>();
  for (const review of sighting.seen) {
    if (seenIds.has(review.review_id)) continue;
    seenIds.add(review.review_id);
    const known = sighting.known.get(review.review_id);
    if (!known) {
      if (!sighting.baseline)
        created.push({ type: "review.created", review_id: review.review_id, before: null, after: review });
      continue;
    }
    if (!sameFields(watchedFields(known.data), watchedFields(review))) {
      updated.push({
        type: "review.updated",
        review_id: review.review_id,
        before: known.data,
        after: review,
      });
    }
  }
  const deleted: DetectedChange[] = [];
  if (sighting.completeWalk && !sighting.baseline) {
    for (const known of sighting.known.values()) {
      if (!seenIds.has(known.review_id))
        deleted.push({ type: "review.deleted", review_id: known.review_id, before: known.data, after: null });
    }
    deleted.sort((a, b) => a.before!.posted_at - b.before!.posted_at || (a.review_id < b.review_id ? -1 : 1));
  }
  return [...created.reverse(), ...updated, ...deleted];
}

/** Consecutive changes of one type, at most `max` per group, in order: one webhook event each. */
export function eventBatches<T extends { type: string }>(changes: readonly T[], max = 100): T[][] {
  const batches: T[][] = [];
  for (const change of changes) {
    const last = batches[batches.length - 1];
    if (last && last[0].type === change.type && last.length < max) last.push(change);
    else batches.push([change]);
  }
  return batches;
}

/** Whether run `run` (1-based) of a monitor walks every page: the first, then every Nth after it. */
export function isFullWalk(run: number, fullWalkEvery: number): boolean {
  return (run - 1) % fullWalkEvery === 0;
}
