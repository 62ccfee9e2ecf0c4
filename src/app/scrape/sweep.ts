import { asc, inArray, sql } from "drizzle-orm";
import { chunk, D1_MAX_PARAMS } from "../../db/batching";
import { database } from "../../db/client";
import { tasks } from "../../db/schema";
import { log } from "../../log";
import { dispatchTasks } from "../queue/dispatch";
import { TaskStatus } from "../../core/tasks/status";
import { idleTasksWhere } from "./lease";
import { moduleQueue } from "../../publishers/queues";
import { ALL_MODULES } from "../../publishers/registry";
import { gateQueue } from "../../queue/concurrency";
import { queueGate, sendTasks } from "../../queue/queue-gate";

/**
 * Wakes every queue's gate: after a restart (or a lost alarm) the gates hand out again what
 * was waiting and re-send what a crash lost. Cheap: one call per queue.
 */
export async function tickQueueGates(env: Env): Promise<void> {
  await Promise.all(
    ALL_MODULES.map(async (module) => {
      const queue = moduleQueue(module.name);
      return sendTasks(env, queue.binding, await queueGate(env, queue).tick(gateQueue(queue, env)));
    }),
  );
}

/** An unfinished task untouched this long, with no live lease, has lost its queue message. */
export const IDLE_MS = 10 * 60_000;
/**
 * Tasks per chunk: one queue sendBatch (at most 100 messages) and one touch, whose statement binds
 * the time plus one id per task under D1's 100-parameter limit.
 */
export const SWEEP_CHUNK = D1_MAX_PARAMS - 1;
/** Tasks one sweep re-queues at most (oldest first); the rest wait for the next sweep, 5 minutes on. */
export const SWEEP_MAX = 2_000;

/**
 * Scheduled safety net for lost queue messages: a task still queued (the send after submit was
 * lost) or in progress with no run holding it (a follow-up send lost, or a crashed run's message
 * given up on) gets a message for the run it needs. Consumers are idempotent, so a message that
 * was only slow, not lost, does no harm. Returns the number of tasks re-queued.
 *
 * Oldest first, in chunks: each chunk is sent, then touched, so a failure part way re-sends only
 * the chunk that failed, and a sweep that cannot finish never starves the tasks behind it.
 */
export async function requeueIdleTasks(env: Env, now = Date.now()): Promise<number> {
  const db = database(env.DB);
  const idle = await db
    .select({
      id: tasks.id,
      publisherKey: tasks.publisherKey,
      accountId: tasks.accountId,
      status: tasks.status,
      runs: tasks.runs,
      leaseUntil: tasks.leaseUntil,
    })
    .from(tasks)
    .where(idleTasksWhere(now - IDLE_MS, now))
    .orderBy(asc(tasks.updatedAt), asc(tasks.id))
    .limit(SWEEP_MAX);
  for (const group of chunk(idle, SWEEP_CHUNK)) {
    await dispatchTasks(
      env,
      group.map((task) => {
        // Never started: run 1. A run that ended cleanly (no lease) handed over to the next one; a
        // run whose lease expired stopped midway and resumes under its own number.
        const run =
          task.status === TaskStatus.queued ? 1 : task.leaseUntil === null ? task.runs + 1 : task.runs;
        return { taskId: task.id, publisherKey: task.publisherKey, accountId: task.accountId, run };
      }),
    );
    // Touch them so the next sweep gives these messages IDLE_MS to arrive; the idle time is
    // credited to their deadline first, so the touch never makes waiting count as work.
    await db
      .update(tasks)
      // (`now` is written into the statement: one bound value per task id is all D1 allows.)
      .set({
        updatedAt: now,
        deadlineAt: sql`${tasks.deadlineAt} + max(0, ${sql.raw(String(Math.trunc(now)))} - ${tasks.updatedAt})`,
      })
      .where(
        inArray(
          tasks.id,
          group.map((t) => t.id),
        ),
      );
  }
  if (idle.length) log("warn", "sweeper: re-queued idle tasks", { count: idle.length });
  return idle.length;
}
