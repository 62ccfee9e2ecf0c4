import type { CollectionOptions } from "./collection";

export const TaskStatus = {
  queued: 100,
  inProgress: 101,
  completed: 200,
  failed: 500,
} as const;

export const FAILURE_REASONS = [
  "profile_not_found",
  "login_required",
  "blocked",
  "timeout",
  "publisher_error",
  "provider_error",
  "internal",
  "secret_unreadable",
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** Options a task is scraped with, stored as JSON on the task row (with the client's collection options). */
export interface TaskOptions extends CollectionOptions {
  last_review_hashes: string[];
  first_page_only: boolean;
  lazy: boolean;
}

/** Total scraping time a task gets before it fails with `timeout`. */
export function timeBudgetMs(lazy: boolean): number {
  return (lazy ? 60 : 5) * 60_000;
}
