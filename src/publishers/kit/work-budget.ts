import { permanentError } from "../../scraping/errors";

/**
 * A count of the work a parser does on one publisher answer (nodes visited, references resolved,
 * elements read). A hostile answer (shared-reference fans, deep nesting, endless markup) cannot drive
 * a parser past linear work: past the limit the page fails with `publisher_error` naming what was
 * being read, instead of burning the run's CPU until the platform kills it. Tests read `used` to
 * assert a work bound in operations rather than wall time.
 */
export class WorkBudget {
  used = 0;

  constructor(
    /** What is being read, for the error message ("glassdoor Apollo cache"). */
    readonly what: string,
    readonly limit = DEFAULT_WORK_LIMIT,
  ) {}

  /** Counts `n` units of work; throws `publisher_error` once the limit is passed. */
  spend(n = 1): void {
    this.used += n;
    if (this.used > this.limit)
      throw permanentError(
        "publisher_error",
        `${this.what}: the answer needs more than ${this.limit} steps to read`,
      );
  }
}

/** Enough for any real page (a few thousand reviews' worth of nodes), far below a CPU limit. */
export const DEFAULT_WORK_LIMIT = 2_000_000;

/** Deepest nesting a recursive walk follows in a publisher answer. */
export const MAX_WALK_DEPTH = 64;
