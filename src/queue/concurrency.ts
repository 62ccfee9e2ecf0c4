import type { GateQueue, QueueRef } from "./queue-gate";
import { settings } from "../settings";
import { GENERATED_QUEUE_CONCURRENCY } from "./concurrency.gen";

/**
 * Consumers each scraping queue runs at once: wrangler.toml's `max_concurrency` of its consumer,
 * which the Worker cannot read at run time. Both are written by `npm run generate` from each
 * module's `queue` declaration (./concurrency.gen.ts); test/e2e/fair-share.test.ts checks that they
 * agree. The fair share of a queue (./fair-share.ts) divides this number.
 */
export const QUEUE_CONCURRENCY: Readonly<Record<string, number>> = GENERATED_QUEUE_CONCURRENCY;

/** What a queue's gate needs to know: the queue, its concurrency and how long holds last. */
export function gateQueue(queue: QueueRef, env: Env): GateQueue {
  const lease = settings(env).runLeaseMs;
  return {
    binding: queue.binding,
    name: queue.name,
    concurrency: Object.hasOwn(QUEUE_CONCURRENCY, queue.name) ? QUEUE_CONCURRENCY[queue.name] : 1,
    // A run's hold outlives its D1 lease by a quarter (150 s for the default 120 s), so a run
    // presumed dead can resume at once; a sent message gets half as long again (180 s).
    runningTtlMs: Math.round(lease * 1.25),
    sentTtlMs: Math.round(lease * 1.5),
  };
}
