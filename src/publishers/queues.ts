/**
 * A module's scraping queue follows from its name: module "google-maps" sends to the producer
 * binding SCRAPE_GOOGLE_MAPS, whose queue is "scrape-google-maps". wrangler.toml is the one place
 * each queue is declared (producer and consumer); test/publishers/contract.test.ts checks that it
 * declares exactly these for every module.
 */
import type { QueueRef, ScrapeQueueBinding } from "../queue/queue-gate";

export function moduleQueue(moduleName: string): QueueRef {
  // The binding is checked against wrangler.toml's producers (and so Env) by the contract test.
  return {
    binding: `SCRAPE_${moduleName.toUpperCase().replaceAll("-", "_")}` as ScrapeQueueBinding,
    name: `scrape-${moduleName}`,
  };
}
