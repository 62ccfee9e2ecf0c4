/**
 * Publisher health: the rule that turns a publisher's last 24 hours of task outcomes and its last
 * canary runs into a status. Pure (no I/O): src/app/health/ reads the numbers and acts on the result.
 * docs/health.md states the same rule for operators.
 */
export const HEALTH_STATUSES = ["operational", "degraded", "failing", "unknown"] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/** Failure reasons that point at the publisher (its pages, its walls), not at the client or at us. */
export const PUBLISHER_FAILURES = ["blocked", "publisher_error", "profile_not_found"] as const;

/** Fewer finished tasks than this in 24 h say nothing about a rate; only canaries decide then. */
export const MIN_TASKS_FOR_RATE = 10;
/** Share of publisher failures among the last 24 h's tasks from which a publisher is failing. */
export const FAILING_SHARE = 0.5;
/** Share from which it is degraded. */
export const DEGRADED_SHARE = 0.2;
/**
 * A rate-based status (degraded, failing) needs publisher failures from at least this many accounts
 * in 24 h (the canary's counts as one): a single client's made-up profiles never turn a publisher
 * degraded or failing, for everyone, on the public status page and in the operator's alerts.
 */
export const MIN_FAILING_ACCOUNTS = 2;
/** This many canary runs in a row that failed make a publisher failing. */
export const FAILING_CANARY_RUNS = 3;

/** What one hour of a publisher's outcomes adds up to (a row of `publisher_hours`). */
export interface HourOutcomes {
  hour: number;
  tasks: number;
  succeeded: number;
  failedPublisher: number;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
  lastFailureReason: string | null;
  /** Accounts whose tasks failed for a publisher reason in the hour (up to three are kept). */
  failedAccounts: readonly string[];
}

/** A finished canary run, newest first. `ok` is a completion with at least one review. */
export interface CanaryRun {
  ok: boolean;
  reason: string | null;
  finishedAt: number;
}

export interface PublisherHealth {
  status: HealthStatus;
  /** Completed ÷ finished tasks over the last 24 hours (clients' and canaries'); null without tasks. */
  success_rate_24h: number | null;
  tasks_24h: number;
  /** Milliseconds since the epoch of the last completed task (within the 30 days kept), or null. */
  last_success_at: number | null;
  /** The reason of the most recent failure within the last 24 hours, or null. */
  last_failure_reason: string | null;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/**
 * The rule, in order:
 * - failing: the last three canary runs all failed, or at least ten tasks finished in 24 h and at
 *   least half of them failed for a publisher reason (blocked, publisher_error, profile_not_found),
 *   those failures coming from at least MIN_FAILING_ACCOUNTS accounts;
 * - degraded: the last canary run failed, or at least ten tasks and at least a fifth of them failed
 *   for a publisher reason;
 * - operational: anything finished in 24 h (task or canary) and none of the above;
 * - unknown: nothing finished in 24 h.
 */
export function publisherHealth(
  hours: readonly HourOutcomes[],
  canaries: readonly CanaryRun[],
  now: number,
  lastSuccessAt: number | null,
): PublisherHealth {
  const since = now - DAY_MS;
  const recent = hours.filter((h) => h.hour + HOUR_MS > since);
  const tasks = recent.reduce((n, h) => n + h.tasks, 0);
  const succeeded = recent.reduce((n, h) => n + h.succeeded, 0);
  const failedPublisher = recent.reduce((n, h) => n + h.failedPublisher, 0);
  // The newest failure of the day: a failed task's reason, or a canary's (one that completed without
  // reviews is a failure too, though its task completed).
  let lastFailure: { at: number; reason: string | null } | null = null;
  for (const h of recent)
    if (h.lastFailureAt !== null && (lastFailure === null || h.lastFailureAt > lastFailure.at))
      lastFailure = { at: h.lastFailureAt, reason: h.lastFailureReason };
  const recentCanaries = canaries.filter((c) => c.finishedAt > since);
  for (const c of recentCanaries)
    if (!c.ok && (lastFailure === null || c.finishedAt > lastFailure.at))
      lastFailure = { at: c.finishedAt, reason: c.reason };

  const lastCanaries = canaries.slice(0, FAILING_CANARY_RUNS);
  const canariesFailing = lastCanaries.length === FAILING_CANARY_RUNS && lastCanaries.every((c) => !c.ok);
  const failingAccounts = new Set(recent.flatMap((h) => h.failedAccounts)).size;
  const share =
    tasks >= MIN_TASKS_FOR_RATE && failingAccounts >= MIN_FAILING_ACCOUNTS ? failedPublisher / tasks : 0;
  let status: HealthStatus;
  if (canariesFailing || share >= FAILING_SHARE) status = "failing";
  else if ((canaries[0] !== undefined && !canaries[0].ok) || share >= DEGRADED_SHARE) status = "degraded";
  else if (tasks > 0 || recentCanaries.length > 0) status = "operational";
  else status = "unknown";

  return {
    status,
    success_rate_24h: tasks > 0 ? Math.round((succeeded / tasks) * 1000) / 1000 : null,
    tasks_24h: tasks,
    last_success_at: lastSuccessAt,
    last_failure_reason: lastFailure?.reason ?? null,
  };
}

/** The operator event a change of status sends, or null (changes into or out of `unknown` are quiet). */
export function healthEvent(
  previous: HealthStatus | null,
  next: HealthStatus,
): "publisher.degraded" | "publisher.failing" | "publisher.recovered" | null {
  if (previous === next) return null;
  if (next === "degraded") return "publisher.degraded";
  if (next === "failing") return "publisher.failing";
  if (next === "operational" && (previous === "degraded" || previous === "failing"))
    return "publisher.recovered";
  return null;
}

/** Success rate per hour over the last 24 hours, oldest first (null for an hour without tasks): the sparkline. */
export function hourlySuccess(hours: readonly HourOutcomes[], now: number): (number | null)[] {
  const current = Math.floor(now / HOUR_MS) * HOUR_MS;
  const byHour = new Map(hours.map((h) => [h.hour, h]));
  const out: (number | null)[] = [];
  for (let i = 23; i >= 0; i--) {
    const h = byHour.get(current - i * HOUR_MS);
    out.push(h && h.tasks > 0 ? h.succeeded / h.tasks : null);
  }
  return out;
}
