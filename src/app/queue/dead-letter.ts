import { eq } from "drizzle-orm";
import { database } from "../../db/client";
import { tasks } from "../../db/schema";
import { failTask } from "../scrape/finish";
import { TaskStatus } from "../../core/tasks/status";
import { errorText, log } from "../../log";
import { ScrapeMessageSchema } from "../../queue/messages";
import { moduleQueue } from "../../publishers/queues";
import { publisherFor } from "../../publishers/registry";
import { gateQueue } from "../../queue/concurrency";
import { queueGate, sendTasks } from "../../queue/queue-gate";

/**
 * Dead letters are scrape messages whose retries ran out without the run deciding anything (the
 * Worker kept crashing). Their task fails with the reason an earlier attempt recorded, or
 * `internal`, unless a later run has taken over. While the lease of this run (or the one before)
 * is still live, a crashed run may hold it: the dead letter comes back once that lease has expired
 * rather than being dropped, which would leave the task in progress until the sweeper found it.
 */
export async function consumeDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const parsed = ScrapeMessageSchema.safeParse(message.body);
    if (parsed.success) {
      try {
        const run = parsed.data.run ?? 1;
        const now = Date.now();
        const task = await database(env.DB)
          .select({
            status: tasks.status,
            runs: tasks.runs,
            leaseUntil: tasks.leaseUntil,
            publisherKey: tasks.publisherKey,
          })
          .from(tasks)
          .where(eq(tasks.id, parsed.data.task_id))
          .get();
        const unfinished =
          task && (task.status === TaskStatus.queued || task.status === TaskStatus.inProgress);
        if (unfinished && task.runs <= run && task.leaseUntil !== null && task.leaseUntil >= now) {
          // One second past the expiry, so the retry finds it expired.
          message.retry({ delaySeconds: Math.ceil((task.leaseUntil - now) / 1000) + 1 });
          continue;
        }
        await failTask(env, parsed.data.task_id, "internal", { abandonedRun: run });
        // The task's queue gate still counts its message as sent: it has ended, so it is dropped there.
        if (task) {
          const queue = moduleQueue(publisherFor(task.publisherKey).module.name);
          await sendTasks(
            env,
            queue.binding,
            await queueGate(env, queue).forget(gateQueue(queue, env), parsed.data.task_id),
          );
        }
      } catch (err) {
        log("error", "dead letters: could not fail task", {
          task_id: parsed.data.task_id,
          error: errorText(err),
        });
        message.retry();
        continue;
      }
    }
    message.ack();
  }
}
