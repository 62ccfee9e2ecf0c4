import { emitTaskEvent } from "../webhooks/events";
import { settleMonitorRun } from "../monitors/settle";
import type { FailureReason } from "../../core/tasks/status";
import { deleteTaskFiles, readPageFiles } from "../../storage/review-files";
import {
  deleteTaskReviews,
  ReviewCollector,
  taskReviewsKey,
  writeTaskReviews,
} from "../../storage/task-reviews";
import { recordOutcome } from "../health/outcomes";

/**
 * Completes a task. Its recorded page files (each review once, see store-page.ts) are read, sorted
 * newest first (posted_at descending, then review_id) and written once to R2 as the task's store
 * (src/storage/task-reviews.ts) under a key of this attempt's own; then one D1 transaction makes the
 * task 200 with its review count and store key, deletes its login cookies and cursor (a finished task
 * keeps nothing a later run or a leak could use: the cursor may hold a publisher token) and adds the
 * outcome to its publisher's hour (health). Only the run holding the lease can do it; a run that lost
 * it deletes the store it wrote, which was never recorded, so never read.
 *
 * `partial` completes a walk that a failure ended after page 1 (docs/api.md, "Failures after page
 * 1"): `stopReason` is recorded for `coverage`, and the task only completes when at least one page
 * is stored (otherwise nothing happens and the caller fails it). Returns whether the task completed.
 */
export async function completeTask(
  env: Env,
  taskId: string,
  token: string,
  partial?: { stopReason: string },
): Promise<boolean> {
  const guard = `lease_token = ?2 AND status = 101${partial ? " AND pages_scraped > 0" : ""}`;
  const held = await env.DB.prepare(`SELECT files FROM tasks WHERE id = ?1 AND ${guard}`)
    .bind(taskId, token)
    .first<{ files: string }>();
  let key: string | null = null;
  let count = 0;
  if (held) {
    const files = JSON.parse(held.files) as string[];
    const collector = new ReviewCollector();
    for (const bytes of await readPageFiles(env, files)) collector.addJsonLines(bytes);
    if (collector.size) {
      key = taskReviewsKey(taskId, crypto.randomUUID().slice(0, 8));
      count = await writeTaskReviews(env, key, collector);
    }
  }
  const now = Date.now();
  const [, , state] = await env.DB.batch<{ status: number; reviews_key: string | null }>([
    env.DB.prepare(
      `UPDATE tasks SET status = 200, reviews_found = ?5, reviews_key = ?6,
         reason = NULL, cookies_enc = NULL, cursor = NULL, lease_token = NULL, lease_until = NULL, finished_at = ?3, updated_at = ?3,
         stop_reason = coalesce(?4, stop_reason)${partial ? ", full_walk = 0" : ""}
       WHERE id = ?1 AND ${guard}`,
    ).bind(taskId, token, now, partial?.stopReason ?? null, count, key),
    recordOutcome(env, taskId, now, "completed"),
    env.DB.prepare(`SELECT status, reviews_key FROM tasks WHERE id = ?1`).bind(taskId),
  ]);
  const row = state.results[0];
  if (key && row?.reviews_key !== key) await deleteTaskReviews(env, key);
  // A run that lost its lease completed nothing; the run holding the task will.
  const completed = row?.status === 200;
  if (completed) await announceCompletion(env, taskId);
  return completed;
}

/** What follows a completion (also repeated for a task found completed): a monitor's diff, then task.completed. */
export async function announceCompletion(env: Env, taskId: string): Promise<void> {
  await settleMonitorRun(env, taskId);
  await emitTaskEvent(env, taskId, "task.completed");
}

/** Who may fail a task: the run holding it, or the dead-letter consumer once no run holds it. */
export type FailGuard = { token: string } | { abandonedRun: number };

/**
 * Fails an unfinished task and keeps nothing of it: its raw files are deleted after the status
 * change and its login cookies cleared. The dead-letter path keeps a reason recorded by an
 * earlier attempt (`reason` is then only the fallback). Safe to repeat: the event is sent again
 * (idempotent) when the task had already failed.
 */
export async function failTask(
  env: Env,
  taskId: string,
  reason: FailureReason,
  guard: FailGuard,
): Promise<void> {
  const now = Date.now();
  const byRun = "token" in guard;
  const condition = byRun ? "lease_token = ?4" : "(lease_until IS NULL OR lease_until < ?3) AND runs <= ?4";
  const [, , state] = await env.DB.batch<{ status: number }>([
    env.DB.prepare(
      `UPDATE tasks SET status = 500, reason = ${byRun ? "?2" : "coalesce(reason, ?2)"}, cookies_enc = NULL,
         lease_token = NULL, lease_until = NULL, cursor = NULL, files = '[]', reviews_found = 0, finished_at = ?3, updated_at = ?3
       WHERE id = ?1 AND status IN (100, 101) AND ${condition}`,
    ).bind(taskId, reason, now, byRun ? guard.token : guard.abandonedRun),
    recordOutcome(env, taskId, now, "failed"),
    env.DB.prepare(`SELECT status FROM tasks WHERE id = ?1`).bind(taskId),
  ]);
  if (state.results[0]?.status !== 500) return;
  await deleteTaskFiles(env, taskId);
  await settleMonitorRun(env, taskId);
  await emitTaskEvent(env, taskId, "task.failed");
}
