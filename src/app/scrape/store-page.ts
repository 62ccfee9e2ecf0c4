import { chunk, D1_MAX_PARAMS } from "../../db/batching";
import type { Review } from "../../core/reviews/review";
import type { RequestCounts } from "../../core/tasks/task-views";
import type { StoredSummary } from "../../core/tasks/publisher-summary";
import type { StoredCursor } from "./cursor";
import { leaseMs } from "./lease";
import { deleteFile, pageFileKey, putPageFile } from "../../storage/review-files";

/** 4 parameters per review row, 3 for the guard. */
const ROWS_PER_INSERT = Math.floor((D1_MAX_PARAMS - 3) / 4);

export interface StoredPage {
  taskId: string;
  /** The lease token of the run storing the page. */
  token: string;
  page: number;
  /** The page's reviews, already without the ones the client knows. */
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
 * Stores one scraped page: its JSON Lines file in R2 (pages without reviews get none) under a key of
 * its own, then in one D1 transaction the progress (cursor, pages_scraped, files, a longer lease)
 * and the reviews (INSERT OR IGNORE: deduplicated by review_id across pages and re-scrapes).
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
       publisher_summary = coalesce(?16, publisher_summary)
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
    page.summary ? JSON.stringify(page.summary) : null,
  );

  const inserts = chunk(page.reviews, ROWS_PER_INSERT).map((rows) =>
    env.DB.prepare(
      `INSERT OR IGNORE INTO reviews (task_id, review_id, posted_at, data)
       SELECT column1, column2, column3, column4 FROM (VALUES ${rows.map(() => "(?, ?, ?, ?)").join(", ")})
       WHERE EXISTS (SELECT 1 FROM tasks WHERE id = ? AND lease_token = ? AND pages_scraped = ?)`,
    ).bind(
      ...rows.flatMap((r) => [taskId, r.review_id, r.posted_at, JSON.stringify(r)]),
      taskId,
      token,
      page.page,
    ),
  );

  const count = env.DB.prepare(
    `UPDATE tasks SET reviews_found = (SELECT count(*) FROM reviews WHERE task_id = ?1) WHERE id = ?1 AND lease_token = ?2`,
  ).bind(taskId, token);

  let stored = false;
  try {
    const [result] = await env.DB.batch([progress, ...inserts, count]);
    stored = result.meta.changes === 1;
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

/** Review ids per query: the limit less the task id. */
const IDS_PER_QUERY = D1_MAX_PARAMS - 1;

/** How many of these review ids the task has stored already. */
export async function storedReviewCount(
  env: Env,
  taskId: string,
  reviewIds: readonly string[],
): Promise<number> {
  const unique = [...new Set(reviewIds)];
  if (!unique.length) return 0;
  const counts = await env.DB.batch<{ n: number }>(
    chunk(unique, IDS_PER_QUERY).map((ids) =>
      env.DB.prepare(
        `SELECT count(*) AS n FROM reviews WHERE task_id = ? AND review_id IN (${ids.map(() => "?").join(", ")})`,
      ).bind(taskId, ...ids),
    ),
  );
  return counts.reduce((sum, result) => sum + (result.results[0]?.n ?? 0), 0);
}
