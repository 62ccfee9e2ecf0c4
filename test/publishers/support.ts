/** Helpers the publisher modules' parser tests share. */
import { ScrapeError } from "../../src/scraping/errors";

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
