import { runScrape } from "../scrape/run";
import { retryDelaySeconds } from "../scrape/retry-policy";
import { errorText, log } from "../../log";
import { ScrapeMessageSchema } from "../../queue/messages";

/**
 * Scrape queue consumer: one scraping run per message (the queue hands them over one at a time).
 * The run decides between acknowledging and retrying; an error before it could decide (D1 or the
 * queue unavailable) retries with backoff, and the task is safe to pick up again.
 */
export async function consumeScrapeBatch(batch: MessageBatch<unknown>, env: Env, _ctx: ExecutionContext): Promise<void> {
  for (const message of batch.messages) {
    const parsed = ScrapeMessageSchema.safeParse(message.body);
    if (!parsed.success) {
      log("error", "scrape queue: dropping a malformed message", { message_id: message.id, queue: batch.queue });
      message.ack();
      continue;
    }
    try {
      const outcome = await runScrape(env, parsed.data, message.attempts, batch.queue);
      if (outcome.kind === "retry") message.retry({ delaySeconds: outcome.delaySeconds });
      else message.ack();
    } catch (err) {
      log("error", "scrape queue: run failed before it finished", { task_id: parsed.data.task_id, queue: batch.queue, error: errorText(err) });
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    }
  }
}
