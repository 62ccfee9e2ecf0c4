import { moduleQueue } from "../../publishers/queues";
import { publisherFor } from "../../publishers/registry";
import type { QueueRef } from "../../queue/queue-gate";
import { gateQueue } from "../../queue/concurrency";
import { queueGate, sendTasks } from "../../queue/queue-gate";
import type { Offer } from "../../queue/fair-share";

export interface Dispatch {
  taskId: string;
  publisherKey: string;
  /** The task's account: its share of the queue is counted per account. */
  accountId: string;
  /** The run the message starts (absent for a task's first run). */
  run?: number;
  /** Hold the task this long before it may be sent. */
  delaySeconds?: number;
}

/**
 * The one way a task reaches a scraping queue: submit, follow-up runs and the sweeper all call
 * this. Tasks are handed to their queue's gate (src/queue/queue-gate.ts), one call per queue, which keeps
 * them until their account may run them (fair share) and then sends their messages; so a backlog
 * waits in the gate, not in the queue in front of other accounts' tasks.
 */
export async function dispatchTasks(env: Env, items: readonly Dispatch[]): Promise<void> {
  const byQueue = new Map<string, { queue: QueueRef; offers: Offer[] }>();
  for (const item of items) {
    const queue = moduleQueue(publisherFor(item.publisherKey).module.name);
    const group = byQueue.get(queue.name) ?? { queue, offers: [] };
    group.offers.push({
      taskId: item.taskId,
      accountId: item.accountId,
      run: item.run ?? null,
      delaySeconds: item.delaySeconds ?? 0,
    });
    byQueue.set(queue.name, group);
  }
  for (const { queue, offers } of byQueue.values())
    await sendTasks(env, queue.binding, await queueGate(env, queue).offer(gateQueue(queue, env), offers));
}
