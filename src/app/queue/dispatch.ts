import { chunk } from "../../db/batching";
import { moduleQueue } from "../../publishers/queues";
import { publisherFor } from "../../publishers/registry";
import type { ScrapeQueueBinding } from "../../publishers/types";
import type { ScrapeMessage } from "../../queue/messages";

export interface Dispatch {
  taskId: string;
  publisherKey: string;
  /** The run the message starts (absent for a task's first run). */
  run?: number;
  /** Hold the message this long before a consumer sees it. */
  delaySeconds?: number;
}

/** Messages per sendBatch call (the Queues limit). */
const SEND_BATCH_MAX = 100;

/**
 * The one way a task reaches a scraping queue: submit, follow-up runs, deferred runs and the
 * sweeper all call this. Each publisher's module names its queue; messages for one queue go out in
 * as few sendBatch calls as the platform allows.
 */
export async function dispatchTasks(env: Env, items: readonly Dispatch[]): Promise<void> {
  const byQueue = new Map<ScrapeQueueBinding, MessageSendRequest<ScrapeMessage>[]>();
  for (const item of items) {
    const binding = moduleQueue(publisherFor(item.publisherKey).module.name).binding;
    const body: ScrapeMessage = item.run === undefined ? { task_id: item.taskId } : { task_id: item.taskId, run: item.run };
    const message: MessageSendRequest<ScrapeMessage> = { body, contentType: "json" };
    if (item.delaySeconds) message.delaySeconds = item.delaySeconds;
    byQueue.set(binding, [...(byQueue.get(binding) ?? []), message]);
  }
  for (const [binding, messages] of byQueue) {
    const queue = env[binding] as Queue<ScrapeMessage>;
    for (const part of chunk(messages, SEND_BATCH_MAX)) await queue.sendBatch(part);
  }
}
