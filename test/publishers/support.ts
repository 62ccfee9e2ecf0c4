/** Helpers the publisher modules' tests share. */
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

// Shared with the rest of the suite; re-exported so the publisher tests import one module.
export { failed } from "../helpers/api";
export { queuePerTest } from "../helpers/queue";
