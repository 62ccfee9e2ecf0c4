import type { Review } from "../../core/reviews/review";
import type { RequestCounts } from "../../core/tasks/task-views";
import type { StoredSummary } from "../../core/tasks/publisher-summary";
import type { StoredCursor } from "./cursor";
import { leaseMs } from "./lease";
import { deleteFile, pageFileKey, putPageFile } from "../../storage/review-files";

export interface StoredPage {
  taskId: string;
  /** The lease token of the run storing the page. */
  token: string;
  page: number;
  /**
   * The page's reviews new to the task: without the ones the client knows and without those already
   * stored (src/storage/review-ids.ts), so the page files hold each review once and `reviews_found`
   * grows by exactly their number.
   */
  reviews: readonly Review[];
  /** Where the walk goes on from here. */
  next: StoredCursor;
  /** The profile's URL as finally reached (after redirects); stored from the first page. */
  profileUrl?: string;
  /** What the page says about coverage (src/core/tasks/coverage.ts); absent values keep the stored ones. */
  publisherTotal?: number | null;
  /** The publisher's rating and histogram as the page showed them (checked); absent keeps the stored one. */
  summary?: StoredSummary | null;
  limitedView?: string | null;
  /** With the last page: whether the walk reached the publisher's end, and why it stopped short if not. */
  fullWalk?: boolean;
  stopReason?: string | null;
  /** Requests made since the last stored counts, by route kind; added to the task's. */
  requests?: RequestCounts;
}

/**
 * Stores one scraped page: its JSON Lines file in R2 (pages without new reviews get none) under a
 * key of its own, then in one guarded D1 update the progress (cursor, pages_scraped, files,
 * reviews_found, a longer lease). No review goes to D1: the recorded files are the task's reviews
 * until completion sorts them (src/storage/task-reviews.ts).
 *
 * Everything is conditional on the run still holding the task at exactly the previous page, so a
 * run that lost its lease, or a page stored twice, changes nothing: the D1 writes do not happen and
 * the file it wrote (never recorded, so never served) is deleted again, which also keeps a failed
 * task's files from coming back. Returns whether it was stored.
 */
export async function storePage(env: Env, page: StoredPage): Promise<boolean> {
  const { taskId, token } = page;
  const now = Date.now();
  const fileKey = page.reviews.length
    ? pageFileKey(taskId, page.page, crypto.randomUUID().slice(0, 8))
    : null;
  if (fileKey) await putPageFile(env, fileKey, page.reviews);

  const progress = env.DB.prepare(
    `UPDATE tasks SET cursor = ?1, pages_scraped = ?2,
       files = CASE WHEN ?3 IS NULL THEN files ELSE json_insert(files, '$[#]', ?3) END,
       lease_until = ?4, updated_at = ?5, profile_url = coalesce(?8, profile_url),
       publisher_total = coalesce(?9, publisher_total), limited_view = coalesce(?10, limited_view),
       full_walk = coalesce(?11, full_walk), stop_reason = coalesce(?12, stop_reason),
       requests_direct = requests_direct + ?13, requests_browser = requests_browser + ?14, requests_provider = requests_provider + ?15,
       reviews_found = reviews_found + ?16,
       publisher_summary = coalesce(?17, publisher_summary)
     WHERE id = ?6 AND lease_token = ?7 AND status = 101 AND pages_scraped = ?2 - 1`,
  ).bind(
    JSON.stringify(page.next),
    page.page,
    fileKey,
    now + leaseMs(env),
    now,
    taskId,
    token,
    page.profileUrl ?? null,
    page.publisherTotal ?? null,
    page.limitedView ?? null,
    page.fullWalk === undefined ? null : page.fullWalk ? 1 : 0,
    page.stopReason ?? null,
    page.requests?.direct ?? 0,
    page.requests?.browser ?? 0,
    page.requests?.provider ?? 0,
    page.reviews.length,
    page.summary ? JSON.stringify(page.summary) : null,
  );

  let stored = false;
  try {
    stored = (await progress.run()).meta.changes === 1;
  } finally {
    if (!stored && fileKey) await deleteFile(env, fileKey);
  }
  return stored;
}

/**
 * Adds requests made outside a stored page (a failed or abandoned page, a walk that ended without
 * one) to the task's counts, whatever its state: they were made and cost the same.
 */
export async function addRequestCounts(env: Env, taskId: string, counts: RequestCounts): Promise<void> {
  if (counts.direct + counts.browser + counts.provider === 0) return;
  await env.DB.prepare(
    `UPDATE tasks SET requests_direct = requests_direct + ?2, requests_browser = requests_browser + ?3, requests_provider = requests_provider + ?4 WHERE id = ?1`,
  )
    .bind(taskId, counts.direct, counts.browser, counts.provider)
    .run();
}
