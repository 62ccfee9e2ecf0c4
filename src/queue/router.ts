import { consumeScrapeBatch } from "./consumer";
import { consumeDeadLetters } from "./dead-letter";

/** The Worker consumes two queues: scraping work and the dead letters of that work. */
export async function handleQueue(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext): Promise<void> {
  if (batch.queue.endsWith("-dlq")) return consumeDeadLetters(batch, env);
  return consumeScrapeBatch(batch, env, ctx);
}
