import { MIN_FAILING_ACCOUNTS, PUBLISHER_FAILURES } from "../../core/health/status";
import { trackedKeysJson } from "./tracked";

/** Accounts kept per publisher hour: more than the health rule needs (MIN_FAILING_ACCOUNTS), never more. */
const KEPT_FAILED_ACCOUNTS = MIN_FAILING_ACCOUNTS + 1;

/** The system account canary tasks run under (src/app/health/canaries.ts). */
export const CANARY_ACCOUNT_ID = "system:canary";

const PUBLISHER_FAILURE_LIST = PUBLISHER_FAILURES.map((r) => `'${r}'`).join(", ");
const HOUR = "CAST(?2 / 3600000 AS INTEGER) * 3600000";
/** The fetch routes the task used, by its request counts per route (src/scraping/routes/). */
const ROUTE_SUMS = [
  "requests_direct = requests_direct + excluded.requests_direct",
  "requests_browser = requests_browser + excluded.requests_browser",
  "requests_provider = requests_provider + excluded.requests_provider",
].join(", ");

/**
 * The statement that adds a task's outcome to its publisher's hour, for the batch that finishes the
 * task. It reads the task row the batch just changed and matches only when this very call finished
 * it (status and `finished_at = now`), so a repeated completion or failure never counts twice. Only
 * tracked publishers (./tracked.ts: the registry's and the canaries') are recorded; a failure for a
 * publisher reason also notes its account (up to three per hour), so no single client can turn a
 * publisher degraded or failing (src/core/health/status.ts).
 */
export function recordOutcome(
  env: Env,
  taskId: string,
  now: number,
  outcome: "completed" | "failed",
): D1PreparedStatement {
  const tracked = `(account_id = ?3 OR publisher_key IN (SELECT value FROM json_each(?4)))`;
  const keys = trackedKeysJson(env);
  if (outcome === "completed") {
    return env.DB.prepare(
      `INSERT INTO publisher_hours (publisher_key, hour, tasks, succeeded, canary_tasks, pages, reviews, duration_ms, last_success_at,
         requests_direct, requests_browser, requests_provider)
       SELECT publisher_key, ${HOUR}, 1, 1, account_id = ?3, pages_scraped, reviews_found, ?2 - coalesce(started_at, created_at), ?2,
         requests_direct, requests_browser, requests_provider
       FROM tasks WHERE id = ?1 AND status = 200 AND finished_at = ?2 AND ${tracked}
       ON CONFLICT (publisher_key, hour) DO UPDATE SET tasks = tasks + 1, succeeded = succeeded + 1, ${ROUTE_SUMS},
         canary_tasks = canary_tasks + excluded.canary_tasks, pages = pages + excluded.pages, reviews = reviews + excluded.reviews,
         duration_ms = duration_ms + excluded.duration_ms, last_success_at = max(coalesce(last_success_at, 0), excluded.last_success_at)`,
    ).bind(taskId, now, CANARY_ACCOUNT_ID, keys);
  }
  return env.DB.prepare(
    `INSERT INTO publisher_hours (publisher_key, hour, tasks, failed_publisher, failed_other, canary_tasks, pages, duration_ms, last_failure_at, last_failure_reason,
       requests_direct, requests_browser, requests_provider, failed_accounts)
     SELECT publisher_key, ${HOUR}, 1, reason IN (${PUBLISHER_FAILURE_LIST}), reason NOT IN (${PUBLISHER_FAILURE_LIST}), account_id = ?3,
       pages_scraped, ?2 - coalesce(started_at, created_at), ?2, reason, requests_direct, requests_browser, requests_provider,
       iif(reason IN (${PUBLISHER_FAILURE_LIST}), json_array(account_id), '[]')
     FROM tasks WHERE id = ?1 AND status = 500 AND finished_at = ?2 AND ${tracked}
     ON CONFLICT (publisher_key, hour) DO UPDATE SET tasks = tasks + 1, ${ROUTE_SUMS}, failed_publisher = failed_publisher + excluded.failed_publisher,
       failed_other = failed_other + excluded.failed_other, canary_tasks = canary_tasks + excluded.canary_tasks,
       pages = pages + excluded.pages, duration_ms = duration_ms + excluded.duration_ms,
       last_failure_reason = CASE WHEN excluded.last_failure_at >= coalesce(last_failure_at, 0) THEN excluded.last_failure_reason ELSE last_failure_reason END,
       last_failure_at = max(coalesce(last_failure_at, 0), excluded.last_failure_at),
       failed_accounts = CASE
         WHEN excluded.failed_accounts = '[]' OR json_array_length(failed_accounts) >= ${KEPT_FAILED_ACCOUNTS}
           OR instr(failed_accounts, json_quote(excluded.failed_accounts ->> '$[0]')) > 0 THEN failed_accounts
         ELSE json_insert(failed_accounts, '$[#]', excluded.failed_accounts ->> '$[0]') END`,
  ).bind(taskId, now, CANARY_ACCOUNT_ID, keys);
}
