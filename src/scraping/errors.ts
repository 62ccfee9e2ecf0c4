import type { FailureReason } from "../core/tasks/status";

/**
 * Why a page could not be scraped. A transient error is worth another attempt later (rate limits,
 * publisher outages, slow pages); when its attempts run out the task fails with the same `reason`.
 * A permanent one fails the task at once.
 */
export class ScrapeError extends Error {
  constructor(
    readonly reason: FailureReason,
    readonly transient: boolean,
    message: string,
    /** What the publisher asked for (Retry-After), in seconds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "ScrapeError";
  }
}

export function permanentError(reason: FailureReason, message: string): ScrapeError {
  return new ScrapeError(reason, false, message);
}

export function transientError(
  reason: FailureReason,
  message: string,
  retryAfterSeconds?: number,
): ScrapeError {
  return new ScrapeError(reason, true, message, retryAfterSeconds);
}
