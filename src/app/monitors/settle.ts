import { and, asc, eq, inArray } from "drizzle-orm";
import { diffRun, type DetectedChange, type KnownReview } from "../../core/monitors/diff";
import type { Review } from "../../core/reviews/review";
import { TaskStatus } from "../../core/tasks/status";
import { taskCoverage } from "../../core/tasks/coverage";
import { chunk, D1_MAX_PARAMS } from "../../db/batching";
import { database, type Database } from "../../db/client";
import { monitorChanges, monitorReviews, monitorRuns, monitors, tasks, webhooks } from "../../db/schema";
import { queueMonitorEvents, type RunCompletedPayload } from "./events";
import { changeView } from "./store";
import { readAllReviews } from "../../storage/task-reviews";

type MonitorRun = typeof monitorRuns.$inferSelect;

/** Only the run that is still `running` writes: a second settle of the same task changes nothing. */
const GUARD = `EXISTS (SELECT 1 FROM monitor_runs WHERE task_id = ? AND state = 'running')`;

/** Fixed parameters of a change insert (monitor, publisher, task, run, time, guard) and 5 per change. */
const CHANGES_PER_INSERT = Math.floor((D1_MAX_PARAMS - 6) / 5);
/** Fixed parameters of a state upsert (monitor, publisher, run, guard) and 4 per review. */
const REVIEWS_PER_UPSERT = Math.floor((D1_MAX_PARAMS - 4) / 4);
/** Fixed parameters of a state delete (monitor, publisher, guard) and 1 per review. */
const IDS_PER_DELETE = D1_MAX_PARAMS - 3;

/**
 * Applies a monitor run's task once it has ended (called where a task completes or fails, see
 * src/app/scrape/finish.ts): a failed task marks its run failed; a completed one is compared with
 * what the monitor knew, and in one D1 transaction the changes are logged (numbered in detection
 * order), the review state is updated and the run is marked settled. The events of every settled
 * run not yet queued are then queued from the log, so calling this again (a redelivered message, a
 * crash before the events were queued) queues the same events under the same ids and writes nothing twice.
 * Tasks that no monitor made cost one primary-key lookup.
 */
export async function settleMonitorRun(env: Env, taskId: string): Promise<void> {
  const db = database(env.DB);
  const found = await db
    .select({ run: monitorRuns, accountId: monitors.accountId, foreignKey: monitors.foreignKey })
    .from(monitorRuns)
    .innerJoin(monitors, eq(monitors.id, monitorRuns.monitorId))
    .where(eq(monitorRuns.taskId, taskId))
    .get();
  if (!found) return;
  const task = await db
    .select({
      status: tasks.status,
      publisherTotal: tasks.publisherTotal,
      limitedView: tasks.limitedView,
      fullWalk: tasks.fullWalk,
      stopReason: tasks.stopReason,
      collected: tasks.reviewsFound,
    })
    .from(tasks)
    .where(eq(tasks.id, taskId))
    .get();
  if (!task) return;
  if (task.status === TaskStatus.failed) {
    await db
      .update(monitorRuns)
      .set({ state: "failed", settledAt: Date.now() })
      .where(and(eq(monitorRuns.taskId, taskId), eq(monitorRuns.state, "running")));
    return;
  }
  if (task.status !== TaskStatus.completed) return;
  if (found.run.state === "running") {
    // Deletions are inferred only from a walk that reached the publisher's last page and whose
    // coverage is complete: not one the page budget or a failure after page 1 ended, not a limited
    // view, not clearly fewer reviews than the publisher states (src/core/tasks/coverage.ts).
    const complete = found.run.fullWalk && task.fullWalk === true && taskCoverage(task).complete;
    await applyDiff(env, db, found.run, complete);
  }
  await queueSettledRuns(env, db, found.accountId, found.run.monitorId, found.foreignKey);
}

/**
 * Queues the events of the monitor's settled runs whose events are not queued yet, in the order the
 * runs settled, and marks each run once its events are in. Runs of two publishers that settle at
 * once are therefore queued in their `seq` order whichever call gets here first: the later one
 * queues the earlier one's events (the same ids) before its own. Without a webhook nothing is
 * queued and the runs are only marked; the changes stay in the log for /monitors/changes/.
 */
async function queueSettledRuns(
  env: Env,
  db: Database,
  accountId: string,
  monitorId: string,
  foreignKey: string,
): Promise<void> {
  const pending = and(
    eq(monitorRuns.monitorId, monitorId),
    eq(monitorRuns.state, "settled"),
    eq(monitorRuns.eventsQueued, false),
  );
  const runs = await db.select().from(monitorRuns).where(pending).orderBy(asc(monitorRuns.settleOrder)).all();
  if (!runs.length) return;
  const hasWebhook = await db
    .select({ id: webhooks.accountId })
    .from(webhooks)
    .where(eq(webhooks.accountId, accountId))
    .get();
  for (const run of runs) {
    if (hasWebhook) {
      const rows = await db
        .select()
        .from(monitorChanges)
        .where(eq(monitorChanges.taskId, run.taskId))
        .orderBy(asc(monitorChanges.seq))
        .all();
      const completed: RunCompletedPayload = {
        event: "monitor.run_completed",
        monitor_id: run.monitorId,
        foreign_key: foreignKey,
        publisher_key: run.publisherKey,
        task_id: run.taskId,
        run: run.run,
        full_walk: run.fullWalk,
        complete: run.complete ?? false,
        baseline: run.baseline,
        reviews_seen: run.reviewsSeen,
        counts: { created: run.created, updated: run.updated, deleted: run.deleted },
      };
      await queueMonitorEvents(
        env,
        {
          accountId,
          monitorId: run.monitorId,
          foreignKey,
          publisherKey: run.publisherKey,
          taskId: run.taskId,
          run: run.run,
        },
        rows.map(changeView),
        completed,
      );
    }
    await db.update(monitorRuns).set({ eventsQueued: true }).where(eq(monitorRuns.taskId, run.taskId));
  }
}

async function applyDiff(env: Env, db: Database, run: MonitorRun, complete: boolean): Promise<void> {
  const { taskId, monitorId, publisherKey } = run;
  const seen = await taskReviews(env, taskId);
  const known = await knownReviews(db, run, seen);
  const earlier = await db
    .select({ taskId: monitorRuns.taskId })
    .from(monitorRuns)
    .where(
      and(
        eq(monitorRuns.monitorId, monitorId),
        eq(monitorRuns.publisherKey, publisherKey),
        eq(monitorRuns.state, "settled"),
      ),
    )
    .limit(1)
    .get();
  const baseline = !earlier;
  const changes = diffRun({ seen, known, completeWalk: complete, baseline });
  const now = Date.now();
  const count = (type: DetectedChange["type"]) => changes.filter((c) => c.type === type).length;

  const statements: D1PreparedStatement[] = [];
  chunk(
    changes.map((change, i) => ({ change, offset: i + 1 })),
    CHANGES_PER_INSERT,
  ).forEach((part) => {
    statements.push(
      env.DB.prepare(
        `INSERT INTO monitor_changes (monitor_id, seq, type, publisher_key, review_id, task_id, run, before, after, detected_at)
         SELECT m.id, m.change_seq + v.column1, v.column2, ?, v.column3, ?, ?, v.column4, v.column5, ?
         FROM monitors m, (VALUES ${part.map(() => "(?, ?, ?, ?, ?)").join(", ")}) v
         WHERE m.id = ? AND ${GUARD}`,
      ).bind(
        publisherKey,
        taskId,
        run.run,
        now,
        ...part.flatMap(({ change, offset }) => [
          offset,
          change.type,
          change.review_id,
          change.before ? JSON.stringify(change.before) : null,
          change.after ? JSON.stringify(change.after) : null,
        ]),
        monitorId,
        taskId,
      ),
    );
  });
  for (const part of chunk(seen, REVIEWS_PER_UPSERT)) {
    statements.push(
      env.DB.prepare(
        `INSERT INTO monitor_reviews (monitor_id, publisher_key, review_id, review_hash, posted_at, last_seen_run, data)
         SELECT ?, ?, v.column1, v.column2, v.column3, ?, v.column4 FROM (VALUES ${part.map(() => "(?, ?, ?, ?)").join(", ")}) v
         WHERE ${GUARD}
         ON CONFLICT (monitor_id, publisher_key, review_id) DO UPDATE SET
           review_hash = excluded.review_hash, posted_at = excluded.posted_at, last_seen_run = excluded.last_seen_run, data = excluded.data`,
      ).bind(
        monitorId,
        publisherKey,
        run.run,
        ...part.flatMap((r) => [r.review_id, r.review_hash, r.posted_at, JSON.stringify(r)]),
        taskId,
      ),
    );
  }
  const gone = changes.filter((c) => c.type === "review.deleted").map((c) => c.review_id);
  for (const ids of chunk(gone, IDS_PER_DELETE)) {
    statements.push(
      env.DB.prepare(
        `DELETE FROM monitor_reviews WHERE monitor_id = ? AND publisher_key = ? AND review_id IN (${ids.map(() => "?").join(", ")}) AND ${GUARD}`,
      ).bind(monitorId, publisherKey, ...ids, taskId),
    );
  }
  statements.push(
    env.DB.prepare(
      `UPDATE monitors SET change_seq = change_seq + ?, settled_runs = settled_runs + 1 WHERE id = ? AND ${GUARD}`,
    ).bind(changes.length, monitorId, taskId),
    env.DB.prepare(
      `UPDATE monitor_runs SET state = 'settled', created = ?, updated = ?, deleted = ?, reviews_seen = ?, complete = ?, baseline = ?, settled_at = ?,
         settle_order = (SELECT settled_runs FROM monitors WHERE id = ?)
       WHERE task_id = ? AND state = 'running'`,
    ).bind(
      count("review.created"),
      count("review.updated"),
      count("review.deleted"),
      seen.length,
      complete ? 1 : 0,
      baseline ? 1 : 0,
      now,
      monitorId,
      taskId,
    ),
  );
  await env.DB.batch(statements);
}

/** What the monitor knew that this run needs: all of the publisher's reviews for a full walk, else those seen. */
async function knownReviews(
  db: Database,
  run: MonitorRun,
  seen: readonly Review[],
): Promise<Map<string, KnownReview>> {
  const where = and(
    eq(monitorReviews.monitorId, run.monitorId),
    eq(monitorReviews.publisherKey, run.publisherKey),
  );
  const columns = {
    review_id: monitorReviews.reviewId,
    review_hash: monitorReviews.reviewHash,
    data: monitorReviews.data,
  };
  const rows = run.fullWalk
    ? await db.select(columns).from(monitorReviews).where(where).all()
    : (
        await Promise.all(
          chunk(
            seen.map((r) => r.review_id),
            D1_MAX_PARAMS - 2,
          ).map((ids) =>
            db
              .select(columns)
              .from(monitorReviews)
              .where(and(where, inArray(monitorReviews.reviewId, ids)))
              .all(),
          ),
        )
      ).flat();
  return new Map(
    rows.map((row) => [
      row.review_id,
      { review_id: row.review_id, review_hash: row.review_hash, data: row.data as Review },
    ]),
  );
}

/** The completed task's reviews in position order, from its store in R2 (src/storage/task-reviews.ts). */
async function taskReviews(env: Env, taskId: string): Promise<Review[]> {
  const row = await env.DB.prepare(`SELECT reviews_key FROM tasks WHERE id = ?1`)
    .bind(taskId)
    .first<{ reviews_key: string | null }>();
  return row?.reviews_key ? readAllReviews(env, row.reviews_key) : [];
}
