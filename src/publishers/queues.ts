/**
 * A module's scraping queue follows from its name: module "google-maps" sends to the producer
 * binding SCRAPE_GOOGLE_MAPS, whose queue is "scrape-google-maps". `npm run generate` declares each
 * module's queue in wrangler.toml (producer and consumer) from these names and the module's `queue`
 * settings; test/publishers/contract.test.ts checks that it declares exactly these for every module.
 */
import type { QueueRef, ScrapeQueueBinding } from "../queue/queue-gate";

export function moduleQueue(moduleName: string): QueueRef {
  // The binding is checked against wrangler.toml's producers (and so Env) by the contract test.
  return {
    binding: `SCRAPE_${moduleName.toUpperCase().replaceAll("-", "_")}` as ScrapeQueueBinding,
    name: `scrape-${moduleName}`,
  };
}
