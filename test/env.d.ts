declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    /** wrangler.toml's `[[queues.consumers]]`, as JSON (vitest.config.ts). */
    TEST_QUEUE_CONSUMERS: string;
    /** wrangler.toml's `[[queues.producers]]`, as JSON. */
    TEST_QUEUE_PRODUCERS: string;
  }
}
