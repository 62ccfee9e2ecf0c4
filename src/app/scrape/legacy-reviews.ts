/**
 * The move step of migration 0010 (docs/deploy.md "Upgrading: reviews move to R2"). Before it, every
 * review was also a D1 row; 0010 renamed that table to `legacy_reviews`. Each cron tick moves the
 * rows of up to MOVE_TASKS_PER_TICK tasks: a completed task without a store gets one written from
 * its rows (src/storage/task-reviews.ts, the same newest-first order its positions had) and recorded
 * in `tasks.reviews_key`; any other task's rows are simply dropped (an unfinished task's page files
 * hold its reviews, a failed task keeps none). Rows go in the transaction that records the store, so
 * a tick cut short moves the task again next time. Once no row is left the step drops the table.
 */
import {
  ReviewCollector,
  deleteTaskReviews,
  taskReviewsKey,
  writeTaskReviews,
} from "../../storage/task-reviews";

export const MOVE_TASKS_PER_TICK = 20;
/** Rows read per query while moving one task (keyset pagination on review_id). */
const ROWS_PER_READ = 1000;

export async function legacyReviewsExist(env: Env): Promise<boolean> {
  const row = await env.DB.prepare(
    `SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'legacy_reviews'`,
  ).first<{ found: number }>();
  return row !== null;
}

/** One tick of the move; returns how many tasks' rows it moved or dropped. */
export async function moveLegacyReviews(env: Env): Promise<number> {
  if (!(await legacyReviewsExist(env))) return 0;
  const { results } = await env.DB.prepare(
    `SELECT DISTINCT task_id FROM legacy_reviews LIMIT ${MOVE_TASKS_PER_TICK}`,
  ).all<{ task_id: string }>();
  if (!results.length) {
    await env.DB.prepare(`DROP TABLE IF EXISTS legacy_reviews`).run();
    return 0;
  }
  for (const { task_id } of results) await moveTask(env, task_id);
  return results.length;
}

/**
 * Moves one task's rows now (a retrieve of a completed task the cron has not reached yet), and
 * returns its store key; null when there is nothing to move.
 */
export async function moveLegacyTask(env: Env, taskId: string): Promise<string | null> {
  if (!(await legacyReviewsExist(env))) return null;
  const rows = await env.DB.prepare(`SELECT 1 AS found FROM legacy_reviews WHERE task_id = ?1 LIMIT 1`)
    .bind(taskId)
    .first();
  if (!rows) return null;
  await moveTask(env, taskId);
  const row = await env.DB.prepare(`SELECT reviews_key FROM tasks WHERE id = ?1`)
    .bind(taskId)
    .first<{ reviews_key: string | null }>();
  return row?.reviews_key ?? null;
}

async function moveTask(env: Env, taskId: string): Promise<void> {
  const task = await env.DB.prepare(`SELECT status, reviews_key FROM tasks WHERE id = ?1`)
    .bind(taskId)
    .first<{ status: number; reviews_key: string | null }>();
  const drop = env.DB.prepare(`DELETE FROM legacy_reviews WHERE task_id = ?1`).bind(taskId);
  if (task?.status !== 200 || task.reviews_key !== null) {
    await drop.run();
    return;
  }
  const collector = new ReviewCollector();
  let after = "";
  for (;;) {
    const { results } = await env.DB.prepare(
      `SELECT review_id, data FROM legacy_reviews WHERE task_id = ?1 AND review_id > ?2 ORDER BY review_id LIMIT ${ROWS_PER_READ}`,
    )
      .bind(taskId, after)
      .all<{ review_id: string; data: string }>();
    for (const row of results) collector.addJson(row.data);
    if (results.length < ROWS_PER_READ) break;
    after = results[results.length - 1].review_id;
  }
  const key = taskReviewsKey(taskId, crypto.randomUUID().slice(0, 8));
  const count = await writeTaskReviews(env, key, collector);
  const [recorded] = await env.DB.batch([
    env.DB.prepare(
      `UPDATE tasks SET reviews_key = ?2, reviews_found = ?3 WHERE id = ?1 AND reviews_key IS NULL`,
    ).bind(taskId, key, count),
    drop,
  ]);
  if (recorded.meta.changes !== 1) await deleteTaskReviews(env, key);
}
