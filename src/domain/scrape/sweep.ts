import { inArray } from "drizzle-orm";
import { database } from "../../db/client";
import { tasks } from "../../db/schema";
import { dispatchTasks } from "../../queue/dispatch";
import { TaskStatus } from "../tasks/status";
import { idleTasksWhere } from "./lease";

/** An unfinished task untouched this long, with no live lease, has lost its queue message. */
export const IDLE_MS = 10 * 60_000;
const BATCH = 100;

/**
 * Scheduled safety net for lost queue messages: a task still queued (the send after submit was
 * lost) or in progress with no run holding it (a follow-up send lost, or a crashed run's message
 * given up on) gets a message for the run it needs. Consumers are idempotent, so a message that
 * was only slow, not lost, does no harm. Returns the number of tasks re-queued.
 */
export async function requeueIdleTasks(env: Env, now = Date.now()): Promise<number> {
  const db = database(env.DB);
  const idle = await db
    .select({ id: tasks.id, publisherKey: tasks.publisherKey, status: tasks.status, runs: tasks.runs, leaseUntil: tasks.leaseUntil })
    .from(tasks)
    .where(idleTasksWhere(now - IDLE_MS, now))
    .limit(BATCH);
  if (!idle.length) return 0;
  await dispatchTasks(
    env,
    idle.map((task) => {
      // Never started: run 1. A run that ended cleanly (no lease) handed over to the next one; a
      // run whose lease expired stopped midway and resumes under its own number.
      const run = task.status === TaskStatus.queued ? 1 : task.leaseUntil === null ? task.runs + 1 : task.runs;
      return { taskId: task.id, publisherKey: task.publisherKey, run };
    }),
  );
  // Touch them so the next sweep gives these messages IDLE_MS to arrive.
  await db.update(tasks).set({ updatedAt: now }).where(inArray(tasks.id, idle.map((t) => t.id)));
  console.warn(`sweeper: re-queued ${idle.length} idle task(s)`);
  return idle.length;
}
