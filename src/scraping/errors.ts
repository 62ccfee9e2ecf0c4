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

  /**
   * What a client may read of this failure (a task's `coverage.stop_reason`, its task.completed
   * webhook): the message itself, unless the failure's detail is the operator's alone.
   */
  get clientDetail(): string {
    return this.message;
  }
}

/**
 * A failure whose detail is for the operator's log only (a fetch provider's own answer: which
 * provider the operator uses, its account's state): clients see `clientText`, stable and generic.
 */
export class OperatorOnlyError extends ScrapeError {
  constructor(
    reason: FailureReason,
    transient: boolean,
    operatorDetail: string,
    private readonly clientText: string,
    retryAfterSeconds?: number,
  ) {
    super(reason, transient, operatorDetail, retryAfterSeconds);
  }

  override get clientDetail(): string {
    return this.clientText;
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
