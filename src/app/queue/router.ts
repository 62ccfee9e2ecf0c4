import { moduleQueue } from "../../publishers/queues";
import { ALL_MODULES } from "../../publishers/registry";
import { consumeScrapeBatch } from "./consumer";
import { consumeDeadLetters } from "./dead-letter";

type QueueHandler = (batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext) => Promise<void>;

/** The dead letters of every scraping queue (wrangler.toml: `dead_letter_queue`). */
export const DEAD_LETTER_QUEUE = "scrape-dlq";

/** Queue name → handler: one scraping queue per publisher module, and their dead letters. */
export const QUEUE_HANDLERS: Readonly<Record<string, QueueHandler>> = {
  ...Object.fromEntries(ALL_MODULES.map((module) => [moduleQueue(module.name).name, consumeScrapeBatch])),
  [DEAD_LETTER_QUEUE]: (batch, env) => consumeDeadLetters(batch, env),
};

export async function handleQueue(
  batch: MessageBatch<unknown>,
  env: Env,
  ctx: ExecutionContext,
): Promise<void> {
  const handler = Object.hasOwn(QUEUE_HANDLERS, batch.queue) ? QUEUE_HANDLERS[batch.queue] : undefined;
  // A queue wired to this Worker without a handler is a deployment mistake: retry, never drop.
  if (!handler) throw new Error(`No handler for queue "${batch.queue}"`);
  return handler(batch, env, ctx);
}
