/** Helpers the publisher modules' tests share. */
import { afterEach, beforeEach, vi } from "vitest";
import { ScrapeError } from "../../src/scraping/errors";
import { QueueDriver } from "../helpers/queue";

/** The ScrapeError a parser throws (anything else, or nothing thrown, fails the test). */
export function scrapeError(fn: () => unknown): ScrapeError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ScrapeError) return err;
    throw err;
  }
  throw new Error("expected a ScrapeError");
}

/** The `response_message` retrieve answers for a task that failed with `reason`. */
export function failed(reason: string) {
  return [{ status: "failed", message: "Task processing failed", task_status: 500, reason }];
}

/**
 * A fresh QueueDriver for every test of the enclosing file or describe block, restored after it
 * together with every spy the test made. Call the returned function for the current driver.
 */
export function queuePerTest(): () => QueueDriver {
  let queue: QueueDriver | undefined;
  beforeEach(() => {
    queue = new QueueDriver();
  });
  afterEach(() => {
    queue?.restore();
    vi.restoreAllMocks();
  });
  return () => {
    if (!queue) throw new Error("queuePerTest: no test is running");
    return queue;
  };
}
