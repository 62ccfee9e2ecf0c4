/**
 * Retention (issue 33, docs/api.md "Retention"): finished tasks older than RETENTION_DAYS are
 * deleted by the cron with their R2 objects (page files, id snapshots, the sorted store), and so are
 * requests left without tasks. Afterwards retrieve and export answer `404 Task not found`, exactly
 * as for an unknown task, and the task's signed file URLs answer 404.
 *
 * Bounded and resumable: each tick takes the oldest RETENTION_BATCH finished tasks past the cutoff,
 * deletes their objects first and then their rows in one transaction. A tick cut short leaves rows
 * whose objects may already be gone; the next tick finds them again (deleting objects is
 * idempotent), and meanwhile such a task answers 404 as well (src/app/tasks/retrieve.ts).
 */
import { settings } from "../../settings";
import { deleteTaskFiles } from "../../storage/review-files";
import { legacyReviewsExist } from "./legacy-reviews";

/** Tasks per tick: their ids and the cutoff are bound in one statement (D1 binds at most 100). */
export const RETENTION_BATCH = 90;

/** Deletes up to RETENTION_BATCH expired tasks; returns how many (a full batch means more may wait). */
export async function sweepRetention(env: Env, now: number): Promise<number> {
  const cutoff = now - settings(env).retentionMs;
  const { results } = await env.DB.prepare(
    `SELECT id, request_id FROM tasks WHERE finished_at < ?1 ORDER BY finished_at LIMIT ${RETENTION_BATCH}`,
  )
    .bind(cutoff)
    .all<{ id: string; request_id: string }>();
  if (!results.length) return 0;
  for (const { id } of results) await deleteTaskFiles(env, id);
  const ids = results.map((r) => r.id);
  const requestIds = [...new Set(results.map((r) => r.request_id))];
  const list = (values: readonly string[]) => values.map(() => "?").join(", ");
  const statements: D1PreparedStatement[] = [];
  // Rows of the table the move step empties (migration 0010) still point at their task.
  if (await legacyReviewsExist(env)) {
    statements.push(
      env.DB.prepare(`DELETE FROM legacy_reviews WHERE task_id IN (${list(ids)})`).bind(...ids),
    );
  }
  statements.push(
    env.DB.prepare(`DELETE FROM tasks WHERE id IN (${list(ids)}) AND finished_at < ?`).bind(...ids, cutoff),
    env.DB.prepare(
      `DELETE FROM requests WHERE id IN (${list(requestIds)}) AND NOT EXISTS (SELECT 1 FROM tasks WHERE tasks.request_id = requests.id)`,
    ).bind(...requestIds),
  );
  await env.DB.batch(statements);
  return ids.length;
}
