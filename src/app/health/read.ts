import {
  DAY_MS,
  HOUR_MS,
  hourlySuccess,
  publisherHealth,
  type CanaryRun,
  type HourOutcomes,
  type PublisherHealth,
} from "../../core/health/status";
import { listPublishers } from "../../publishers/registry";
import { CANARY_ACCOUNT_ID } from "./outcomes";
import { trackedKeysJson } from "./tracked";

/** A publisher's health and its last 24 hours' success rate per hour (oldest first), for /status. */
export interface HealthView {
  health: PublisherHealth;
  hourly: (number | null)[];
}

/** Outcomes are kept this long (the cron tick prunes older hours). */
export const OUTCOME_RETENTION_MS = 30 * DAY_MS;

let domainOf: Map<string, string> | undefined;

/** The registry's domain for a publisher key as tasks store it (an alias maps to its publisher). */
export function publisherDomain(key: string): string {
  domainOf ??= new Map(
    listPublishers().flatMap((p) => [
      [p.domain, p.domain] as const,
      ...p.aliases.map((a) => [a, p.domain] as const),
    ]),
  );
  return domainOf.get(key) ?? key;
}

interface HourRow {
  publisher_key: string;
  hour: number;
  tasks: number;
  succeeded: number;
  failed_publisher: number;
  last_success_at: number | null;
  last_failure_at: number | null;
  last_failure_reason: string | null;
  failed_accounts: string;
}

/**
 * Every publisher's health as of `now`, keyed by registry domain: one D1 round trip (a batch of
 * three reads: the last 24 hours of outcomes, each publisher's last success in the 30 days kept, and
 * each publisher's last three canary runs). Publishers with nothing recorded are absent: `unknown`.
 * Only tracked publishers are read (./tracked.ts), each by the outcomes' primary key (publisher,
 * hour): the work is bounded by the registry and the canaries, whatever domains clients submit.
 */
export async function loadHealth(env: Env, now: number): Promise<Map<string, HealthView>> {
  const since = Math.floor((now - DAY_MS) / HOUR_MS) * HOUR_MS;
  const tracked = trackedKeysJson(env);
  const [hours, successes, canaries] = await env.DB.batch<Record<string, unknown>>([
    env.DB.prepare(
      `SELECT publisher_key, hour, tasks, succeeded, failed_publisher, last_success_at, last_failure_at, last_failure_reason, failed_accounts
       FROM publisher_hours WHERE publisher_key IN (SELECT value FROM json_each(?2)) AND hour >= ?1`,
    ).bind(since, tracked),
    env.DB.prepare(
      `SELECT publisher_key, max(last_success_at) AS at FROM publisher_hours
       WHERE publisher_key IN (SELECT value FROM json_each(?1)) GROUP BY publisher_key`,
    ).bind(tracked),
    env.DB.prepare(
      `SELECT publisher_key, status, reviews_found, reason, finished_at FROM (
         SELECT publisher_key, status, reviews_found, reason, finished_at,
           ROW_NUMBER() OVER (PARTITION BY publisher_key ORDER BY finished_at DESC) AS n
         FROM tasks WHERE account_id = ?1 AND status IN (200, 500) AND finished_at IS NOT NULL)
       WHERE n <= 3 ORDER BY finished_at DESC`,
    ).bind(CANARY_ACCOUNT_ID),
  ]);
  const hoursBy = new Map<string, HourOutcomes[]>();
  for (const row of hours.results as unknown as HourRow[]) {
    const list = hoursBy.get(publisherDomain(row.publisher_key)) ?? [];
    list.push({
      hour: row.hour,
      tasks: row.tasks,
      succeeded: row.succeeded,
      failedPublisher: row.failed_publisher,
      lastSuccessAt: row.last_success_at,
      lastFailureAt: row.last_failure_at,
      lastFailureReason: row.last_failure_reason,
      failedAccounts: JSON.parse(row.failed_accounts) as string[],
    });
    hoursBy.set(publisherDomain(row.publisher_key), list);
  }
  const lastSuccess = new Map<string, number>();
  for (const row of successes.results as { publisher_key: string; at: number | null }[]) {
    const domain = publisherDomain(row.publisher_key);
    if (row.at !== null) lastSuccess.set(domain, Math.max(lastSuccess.get(domain) ?? 0, row.at));
  }
  const canariesBy = new Map<string, CanaryRun[]>();
  for (const row of canaries.results as {
    publisher_key: string;
    status: number;
    reviews_found: number;
    reason: string | null;
    finished_at: number;
  }[]) {
    const domain = publisherDomain(row.publisher_key);
    const list = canariesBy.get(domain) ?? [];
    // A canary's profile is known to have reviews: a completion with none is a failure too.
    list.push({
      ok: row.status === 200 && row.reviews_found > 0,
      reason: row.status === 200 ? (row.reviews_found > 0 ? null : "no_reviews") : row.reason,
      finishedAt: row.finished_at,
    });
    canariesBy.set(domain, list);
  }
  const views = new Map<string, HealthView>();
  for (const domain of new Set([...hoursBy.keys(), ...lastSuccess.keys(), ...canariesBy.keys()])) {
    const own = hoursBy.get(domain) ?? [];
    const runs = (canariesBy.get(domain) ?? []).sort((a, b) => b.finishedAt - a.finishedAt);
    views.set(domain, {
      health: publisherHealth(own, runs, now, lastSuccess.get(domain) ?? null),
      hourly: hourlySuccess(own, now),
    });
  }
  return views;
}

/** Health of a publisher with nothing recorded. */
export const UNKNOWN_HEALTH: PublisherHealth = {
  status: "unknown",
  success_rate_24h: null,
  tasks_24h: 0,
  last_success_at: null,
  last_failure_reason: null,
};
