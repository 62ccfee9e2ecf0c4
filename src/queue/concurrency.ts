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

/**
 * Longest a run's hold (in its queue's gate and in its account's running slots) outlives the run's
 * last sign of life. A live run renews both every third of it (`heartbeatMs`, a timer beside its
 * page boundaries), so a run that died (a killed process, an isolate gone at its CPU limit, a
 * deploy) frees its slots within this, not after its D1 lease: other tasks start within seconds.
 * The dead run's own task still waits for its lease before it resumes (no two runs of a task).
 */
export const RUN_HOLD_MS = 30_000;

/** What a queue's gate needs to know: the queue, its concurrency and how long holds last. */
export function gateQueue(queue: QueueRef, env: Env): GateQueue {
  const lease = settings(env).runLeaseMs;
  return {
    binding: queue.binding,
    name: queue.name,
    concurrency: Object.hasOwn(QUEUE_CONCURRENCY, queue.name) ? QUEUE_CONCURRENCY[queue.name] : 1,
    // A run's hold lasts RUN_HOLD_MS past its last heartbeat (shorter with a short lease); a sent
    // message gets half as long again as the lease (180 s for the default 120 s): it may wait for a
    // consumer that is busy with a whole batch.
    runningTtlMs: Math.min(Math.round(lease * 1.25), RUN_HOLD_MS),
    sentTtlMs: Math.round(lease * 1.5),
  };
}
