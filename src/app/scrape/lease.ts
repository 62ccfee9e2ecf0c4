import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { database } from "../../db/client";
import { tasks, type TaskRow } from "../../db/schema";
import { TaskStatus, timeBudgetMs, type FailureReason } from "../../core/tasks/status";
import { settings } from "../../settings";

/**
 * One scraping run at a time per task. A queue message names a task and a run number (the first
 * message has none: run 1). A run holds a lease (random token + expiry) while it works and writes
 * only while its token is still the task's, so duplicated or redelivered messages never do the
 * same work twice:
 *
 * - run k may start when run k-1 is over: `runs = k-1` and no live lease;
 * - run k may resume when run k itself stopped without finishing (an error, or a crash once its
 *   lease has expired): `runs = k` and an expired lease;
 * - anything else is either busy (a live lease: try again when it expires) or stale (that run is
 *   done; a later message carries the work on): acknowledged and dropped.
 *
 * A finished run clears its lease (`lease_until` NULL); a failed one expires it (`lease_until` 0),
 * which is what lets its redelivered message resume it.
 */
export const LEASE_MS = 120_000;

/** The lease of this deployment: LEASE_MS unless RUN_LEASE_SECONDS says otherwise. */
export function leaseMs(env: Env): number {
  return settings(env).runLeaseMs;
}

export type Claim =
  | { kind: "claimed"; task: TaskRow; token: string }
  | { kind: "busy"; retryInSeconds: number }
  | { kind: "ended"; task: TaskRow }
  | { kind: "stale" }
  | { kind: "missing" };

const unfinished = inArray(tasks.status, [TaskStatus.queued, TaskStatus.inProgress]);

export async function claimRun(env: Env, taskId: string, run: number, now: number): Promise<Claim> {
  const db = database(env.DB);
  const token = crypto.randomUUID();
  const leaseFree = or(isNull(tasks.leaseUntil), lt(tasks.leaseUntil, now));
  const [task] = await db
    .update(tasks)
    .set({
      status: TaskStatus.inProgress,
      runs: run,
      leaseToken: token,
      leaseUntil: now + leaseMs(env),
      startedAt: sql`coalesce(${tasks.startedAt}, ${now})`,
      // The time budget counts the runs' own work: it starts at the first start, and every later
      // run moves the deadline on by the time the task sat between runs (waiting for its turn, a
      // retry's delay, a lost message, a dead run's lease), measured from its last write.
      deadlineAt: sql`coalesce(${tasks.deadlineAt} + max(0, ${now} - ${tasks.updatedAt}), ${now} + iif(json_extract(${tasks.options}, '$.lazy'), ${timeBudgetMs(true)}, ${timeBudgetMs(false)}))`,
      updatedAt: now,
    })
    .where(
      and(
        eq(tasks.id, taskId),
        unfinished,
        or(
          and(eq(tasks.runs, run - 1), leaseFree),
          and(eq(tasks.runs, run), isNotNull(tasks.leaseUntil), lt(tasks.leaseUntil, now)),
        ),
      ),
    )
    .returning();
  if (task) return { kind: "claimed", task, token };

  const current = await db.select().from(tasks).where(eq(tasks.id, taskId)).get();
  if (!current) return { kind: "missing" };
  if (current.status === TaskStatus.completed || current.status === TaskStatus.failed)
    return { kind: "ended", task: current };
  const leaseLive = current.leaseUntil !== null && current.leaseUntil >= now;
  if (leaseLive && (current.runs === run || current.runs === run - 1)) {
    return { kind: "busy", retryInSeconds: Math.max(1, Math.ceil((current.leaseUntil! - now) / 1000)) };
  }
  return { kind: "stale" };
}

/** The run's pages are done (the follow-up message is already sent): the next run may start. */
export async function releaseRun(env: Env, taskId: string, token: string): Promise<void> {
  await database(env.DB)
    .update(tasks)
    .set({ leaseToken: null, leaseUntil: null, updatedAt: Date.now() })
    .where(and(eq(tasks.id, taskId), eq(tasks.leaseToken, token)));
}

/**
 * The run stopped early and its message will be retried: expire the lease so the retry can resume,
 * and remember why, for the dead-letter consumer should the retries run out.
 */
export async function abandonRun(
  env: Env,
  taskId: string,
  token: string,
  reason: FailureReason,
): Promise<void> {
  await database(env.DB)
    .update(tasks)
    .set({ leaseToken: null, leaseUntil: 0, reason, updatedAt: Date.now() })
    .where(and(eq(tasks.id, taskId), eq(tasks.leaseToken, token)));
}

/** For the sweeper: unfinished tasks nobody has touched since `before` and that hold no live lease. */
export function idleTasksWhere(before: number, now: number) {
  return and(
    unfinished,
    lt(tasks.updatedAt, before),
    or(isNull(tasks.leaseUntil), lt(tasks.leaseUntil, now)),
  );
}
