import type { GateQueue, QueueRef } from "./queue-gate";
import { settings } from "../settings";

/**
 * Consumers each scraping queue runs at once: wrangler.toml's `max_concurrency` of its consumer,
 * which the Worker cannot read at run time. test/e2e/fair-share.test.ts checks that the two agree,
 * so a queue added or retuned in wrangler.toml without this table fails the suite. The fair share
 * of a queue (./fair-share.ts) divides this number.
 */
export const QUEUE_CONCURRENCY: Readonly<Record<string, number>> = {
  "scrape-generic": 4,
  "scrape-google-maps": 2,
  "scrape-yelp": 2,
  "scrape-tripadvisor": 2,
  "scrape-trustpilot": 3,
  "scrape-facebook": 1,
  "scrape-booking": 2,
  "scrape-airbnb": 2,
  "scrape-glassdoor": 1,
  "scrape-capterra": 2,
  "scrape-g2": 1,
  "scrape-google-play": 2,
  "scrape-app-store": 2,
  "scrape-bbb": 1,
  "scrape-trusted-shops": 2,
  "scrape-feefo": 2,
  "scrape-reviews-io": 2,
  "scrape-healthgrades": 1,
  "scrape-agoda": 2,
  "scrape-zillow": 1,
  "scrape-opentable": 1,
  "scrape-expedia": 1,
  "scrape-holidaycheck": 2,
};

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
