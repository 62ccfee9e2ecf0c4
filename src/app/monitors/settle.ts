import { and, asc, count, eq, gt, inArray, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { diffRun, type DetectedChange, type KnownReview } from "../../core/monitors/diff";
import type { Review } from "../../core/reviews/review";
import { TaskStatus } from "../../core/tasks/status";
import { taskCoverage } from "../../core/tasks/coverage";
import { chunk, D1_MAX_PARAMS } from "../../db/batching";
import { database, type Database } from "../../db/client";
import { monitorChanges, monitorReviews, monitorRuns, monitors, tasks, webhooks } from "../../db/schema";
import { errorText, log } from "../../log";
import { queueMonitorEvents, type RunCompletedPayload } from "./events";
import { changeView } from "./store";
import { readAllReviews } from "../../storage/task-reviews";

type MonitorRun = typeof monitorRuns.$inferSelect;

/** Only the run that is still in the given state writes: a second settle of the same task changes nothing. */
const guard = (state: "running" | "settling") =>
  `EXISTS (SELECT 1 FROM monitor_runs WHERE task_id = ? AND state = '${state}')`;

/**
 * Statements per settle transaction (each binds at most 100 parameters, so about 240 reviews or 288
 * changes): a run of any size is written in transactions of this bound, never in one.
 */
export const SETTLE_STATEMENTS_PER_BATCH = 16;
/** Known reviews read per query on a full walk. */
const KNOWN_PER_QUERY = 500;

/** Fixed parameters of a change insert (monitor, base, publisher, task, run, time, guard) and 5 per change. */
const CHANGES_PER_INSERT = Math.floor((D1_MAX_PARAMS - 7) / 5);
/** Fixed parameters of a state upsert (monitor, publisher, run, guard) and 4 per review. */
const REVIEWS_PER_UPSERT = Math.floor((D1_MAX_PARAMS - 4) / 4);
/** Fixed parameters of a state delete (monitor, publisher, guard) and 1 per review. */
const IDS_PER_DELETE = D1_MAX_PARAMS - 3;

/**
 * Applies a monitor run's task once it has ended (called where a task completes or fails, see
 * src/app/scrape/finish.ts): a failed task marks its run failed; a completed one is compared with
 * what the monitor knew, and the changes are logged (numbered in detection order), the review state
 * is updated and the run is marked settled, in transactions of bounded size (applyDiff says how a
 * settle cut off between them is finished by the next call). The events of every settled
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
  if (found.run.state === "running" || found.run.state === "settling") {
    // Deletions are inferred only from a walk that reached the publisher's last page and whose
    // coverage is complete: not one the page budget or a failure after page 1 ended, not a limited
    // view, not clearly fewer reviews than the publisher states (src/core/tasks/coverage.ts).
    const complete = found.run.fullWalk && task.fullWalk === true && taskCoverage(task).complete;
    await applyDiff(env, db, found.run, complete);
  }
  await queueSettledRuns(env, db, found.accountId, found.run.monitorId, found.foreignKey);
}

/** Runs a cron tick settles again at most (one large settle may make a few hundred D1 queries). */
export const STUCK_SETTLES_PER_TICK = 1;
/** A run whose task ended this long ago and is still not settled lost its settle (every delivery failed). */
const STUCK_AFTER_MS = 10 * 60_000;

/**
 * The cron's retry of settles that every delivery of their message failed (the message went to
 * the dead-letter queue): runs still `running` or `settling` whose task ended over ten minutes ago,
 * the oldest first, STUCK_SETTLES_PER_TICK at a time. Each is logged; a run that fails again is
 * tried again at a later tick.
 */
export async function settleStuckRuns(env: Env, now = Date.now()): Promise<number> {
  const { results } = await env.DB.prepare(
    `SELECT r.task_id FROM monitor_runs r JOIN tasks t ON t.id = r.task_id
     WHERE r.state IN ('running', 'settling') AND t.status IN (${TaskStatus.completed}, ${TaskStatus.failed})
       AND t.finished_at < ?
     ORDER BY t.finished_at LIMIT ?`,
  )
    .bind(now - STUCK_AFTER_MS, STUCK_SETTLES_PER_TICK)
    .all<{ task_id: string }>();
  for (const { task_id } of results) {
    log("warn", "monitor run was not settled when its task ended; settling it now", { task_id });
    try {
      await settleMonitorRun(env, task_id);
    } catch (err) {
      log("error", "monitor run could not be settled; the next tick tries again", {
        task_id,
        error: errorText(err),
      });
    }
  }
  return results.length;
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

/**
 * Writes a run's diff in bounded transactions, in three phases, each safe to repeat:
 * 1. `running` → `settling`: the run's counts are recorded and `change_seq` is moved on by the number
 *    of changes in one small transaction, which reserves the run's change numbers (`settle_base`).
 * 2. The changes are logged under those numbers (a number already logged is skipped), then the
 *    review state is upserted from the task's reviews, then the deleted reviews' state is removed
 *    (their ids read back from the log). The state is touched only once every change is logged, so a
 *    settle cut off before that finds the state as it was and detects the same changes again.
 * 3. `settling` → `settled`, numbered among the monitor's settled runs.
 */
async function applyDiff(env: Env, db: Database, run: MonitorRun, complete: boolean): Promise<void> {
  const { taskId, monitorId, publisherKey } = run;
  const seen = await taskReviews(env, taskId);
  let current = run;
  if (current.state === "running") {
    const { changes, baseline } = await detect(db, run, seen, complete);
    await reserve(env, run, changes, baseline, seen.length, complete);
    await writeChanges(env, run, await settleBase(db, taskId), changes);
    current = (await db.select().from(monitorRuns).where(eq(monitorRuns.taskId, taskId)).get()) ?? run;
  } else {
    const logged = await db
      .select({ n: count() })
      .from(monitorChanges)
      .where(eq(monitorChanges.taskId, taskId))
      .get();
    if ((logged?.n ?? 0) < current.created + current.updated + current.deleted) {
      const { changes } = await detect(db, run, seen, current.complete ?? false);
      await writeChanges(env, run, current.settleBase ?? 0, changes);
    }
  }
  if (current.state !== "settling") return;
  const statements: D1PreparedStatement[] = [];
  for (const part of chunk(seen, REVIEWS_PER_UPSERT)) {
    statements.push(
      env.DB.prepare(
        `INSERT INTO monitor_reviews (monitor_id, publisher_key, review_id, review_hash, posted_at, last_seen_run, data)
         SELECT ?, ?, v.column1, v.column2, v.column3, ?, v.column4 FROM (VALUES ${part.map(() => "(?, ?, ?, ?)").join(", ")}) v
         WHERE ${guard("settling")}
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
  const gone = (
    await db
      .select({ id: monitorChanges.reviewId })
      .from(monitorChanges)
      .where(and(eq(monitorChanges.taskId, taskId), eq(monitorChanges.type, "review.deleted")))
      .all()
  ).map((row) => row.id);
  for (const ids of chunk(gone, IDS_PER_DELETE)) {
    statements.push(
      env.DB.prepare(
        `DELETE FROM monitor_reviews WHERE monitor_id = ? AND publisher_key = ? AND review_id IN (${ids.map(() => "?").join(", ")}) AND ${guard("settling")}`,
      ).bind(monitorId, publisherKey, ...ids, taskId),
    );
  }
  await inBatches(env, statements);
  await env.DB.batch([
    env.DB.prepare(
      `UPDATE monitors SET settled_runs = settled_runs + 1 WHERE id = ? AND ${guard("settling")}`,
    ).bind(monitorId, taskId),
    env.DB.prepare(
      `UPDATE monitor_runs SET state = 'settled', settled_at = ?, settle_order = (SELECT settled_runs FROM monitors WHERE id = ?)
       WHERE task_id = ? AND state = 'settling'`,
    ).bind(Date.now(), monitorId, taskId),
  ]);
}

/** The run's changes against what the monitor knew (whether this is the publisher's first settled run). */
async function detect(
  db: Database,
  run: MonitorRun,
  seen: readonly Review[],
  complete: boolean,
): Promise<{ changes: DetectedChange[]; baseline: boolean }> {
  const known = await knownReviews(db, run, seen);
  const earlier = await db
    .select({ taskId: monitorRuns.taskId })
    .from(monitorRuns)
    .where(
      and(
        eq(monitorRuns.monitorId, run.monitorId),
        eq(monitorRuns.publisherKey, run.publisherKey),
        eq(monitorRuns.state, "settled"),
      ),
    )
    .limit(1)
    .get();
  const baseline = !earlier;
  return { changes: diffRun({ seen, known, completeWalk: complete, baseline }), baseline };
}

/** Phase 1: the run's counts, and its change numbers reserved by moving `change_seq` on. */
async function reserve(
  env: Env,
  run: MonitorRun,
  changes: readonly DetectedChange[],
  baseline: boolean,
  reviewsSeen: number,
  complete: boolean,
): Promise<void> {
  const count = (type: DetectedChange["type"]) => changes.filter((c) => c.type === type).length;
  await env.DB.batch([
    env.DB.prepare(
      `UPDATE monitors SET change_seq = change_seq + ? WHERE id = ? AND ${guard("running")}`,
    ).bind(changes.length, run.monitorId, run.taskId),
    env.DB.prepare(
      `UPDATE monitor_runs SET state = 'settling', created = ?, updated = ?, deleted = ?, reviews_seen = ?, complete = ?, baseline = ?,
         settle_base = (SELECT change_seq FROM monitors WHERE id = ?) - ?
       WHERE task_id = ? AND state = 'running'`,
    ).bind(
      count("review.created"),
      count("review.updated"),
      count("review.deleted"),
      reviewsSeen,
      complete ? 1 : 0,
      baseline ? 1 : 0,
      run.monitorId,
      changes.length,
      run.taskId,
    ),
  ]);
}

async function settleBase(db: Database, taskId: string): Promise<number> {
  const row = await db
    .select({ base: monitorRuns.settleBase })
    .from(monitorRuns)
    .where(eq(monitorRuns.taskId, taskId))
    .get();
  return row?.base ?? 0;
}

/** Phase 2a: the changes under their reserved numbers; a number already logged is left as it is. */
async function writeChanges(
  env: Env,
  run: MonitorRun,
  base: number,
  changes: readonly DetectedChange[],
): Promise<void> {
  const now = Date.now();
  const statements = chunk(
    changes.map((change, i) => ({ change, offset: i + 1 })),
    CHANGES_PER_INSERT,
  ).map((part) =>
    env.DB.prepare(
      `INSERT INTO monitor_changes (monitor_id, seq, type, publisher_key, review_id, task_id, run, before, after, detected_at)
       SELECT ?, ? + v.column1, v.column2, ?, v.column3, ?, ?, v.column4, v.column5, ?
       FROM (VALUES ${part.map(() => "(?, ?, ?, ?, ?)").join(", ")}) v
       WHERE ${guard("settling")}
       ON CONFLICT (monitor_id, seq) DO NOTHING`,
    ).bind(
      run.monitorId,
      base,
      run.publisherKey,
      run.taskId,
      run.run,
      now,
      ...part.flatMap(({ change, offset }) => [
        offset,
        change.type,
        change.review_id,
        change.before ? JSON.stringify(change.before) : null,
        change.after ? JSON.stringify(change.after) : null,
      ]),
      run.taskId,
    ),
  );
  await inBatches(env, statements);
}

/** Runs the statements in transactions of at most SETTLE_STATEMENTS_PER_BATCH, one after another. */
async function inBatches(env: Env, statements: D1PreparedStatement[]): Promise<void> {
  for (const part of chunk(statements, SETTLE_STATEMENTS_PER_BATCH)) await env.DB.batch(part);
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
    ? await allKnown(db, where, columns)
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

/** Every known review of the publisher, KNOWN_PER_QUERY at a time (by review id), so no one D1 answer grows with it. */
async function allKnown<C extends { review_id: typeof monitorReviews.reviewId }>(
  db: Database,
  where: SQL | undefined,
  columns: C & Record<string, SQLiteColumn>,
) {
  const rows = [];
  let after = "";
  for (;;) {
    const page = await db
      .select(columns)
      .from(monitorReviews)
      .where(and(where, gt(monitorReviews.reviewId, after)))
      .orderBy(asc(monitorReviews.reviewId))
      .limit(KNOWN_PER_QUERY)
      .all();
    rows.push(...page);
    if (page.length < KNOWN_PER_QUERY) return rows;
    after = String((page[page.length - 1] as Record<string, unknown>).review_id);
  }
}

/** The completed task's reviews in position order, from its store in R2 (src/storage/task-reviews.ts). */
async function taskReviews(env: Env, taskId: string): Promise<Review[]> {
  const row = await env.DB.prepare(`SELECT reviews_key FROM tasks WHERE id = ?1`)
    .bind(taskId)
    .first<{ reviews_key: string | null }>();
  return row?.reviews_key ? readAllReviews(env, row.reviews_key) : [];
}
