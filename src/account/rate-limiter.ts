/**
 * Sliding-window submit limiter kept in the account Durable Object's SQLite storage. The object
 * runs one call at a time and every statement here is synchronous, so the count is exact under any
 * parallelism and survives eviction.
 */
export const WINDOW_MS = 60_000;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window frees a slot (or fully resets when allowed). */
  resetSeconds: number;
}

export function migrateRateLimiter(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS rate_hits (at INTEGER NOT NULL)");
  sql.exec("CREATE INDEX IF NOT EXISTS rate_hits_at ON rate_hits (at)");
  // Tasks are counted by weight: one submit of 25 publishers is 25 tasks.
  sql.exec("CREATE TABLE IF NOT EXISTS task_hits (at INTEGER NOT NULL, n INTEGER NOT NULL)");
  sql.exec("CREATE INDEX IF NOT EXISTS task_hits_at ON task_hits (at)");
  // Requests of the endpoints without a plan rate, leased to isolates in blocks (see request-quota.ts).
  sql.exec("CREATE TABLE IF NOT EXISTS request_leases (at INTEGER NOT NULL, n INTEGER NOT NULL)");
  sql.exec("CREATE INDEX IF NOT EXISTS request_leases_at ON request_leases (at)");
}

const TABLES = { requests: "rate_hits", tasks: "task_hits", leases: "request_leases" } as const;

const secondsUntil = (at: number, now: number) => Math.max(1, Math.ceil((at + WINDOW_MS - now) / 1000));

/** Drops what left the window, then what is still in it: units used and the oldest entry's time. */
function window(
  sql: SqlStorage,
  table: string,
  units: string,
  now: number,
): { used: number; oldest: number | null } {
  sql.exec(`DELETE FROM ${table} WHERE at <= ?`, now - WINDOW_MS);
  return sql
    .exec<{ used: number; oldest: number | null }>(`SELECT ${units} AS used, MIN(at) AS oldest FROM ${table}`)
    .one();
}

/**
 * Counts `weight` units of one kind against a per-minute limit, or refuses them all: a submit of
 * more tasks than the window has left is refused whole, never half-queued.
 */
export function consume(
  sql: SqlStorage,
  limit: number,
  now: number,
  kind: keyof typeof TABLES = "requests",
  weight = 1,
): RateLimitDecision {
  const { used, oldest } = window(
    sql,
    TABLES[kind],
    kind === "requests" ? "COUNT(*)" : "coalesce(SUM(n), 0)",
    now,
  );
  if (used + weight > limit) {
    return {
      allowed: false,
      limit,
      remaining: Math.max(0, limit - used),
      resetSeconds: secondsUntil(oldest ?? now, now),
    };
  }
  if (kind === "requests") sql.exec("INSERT INTO rate_hits (at) VALUES (?)", now);
  else sql.exec("INSERT INTO task_hits (at, n) VALUES (?, ?)", now, weight);
  return {
    allowed: true,
    limit,
    remaining: limit - used - weight,
    resetSeconds: secondsUntil(oldest ?? now, now),
  };
}

export interface RequestLease {
  /** Requests the caller may admit (0 = the window is full). */
  granted: number;
  /** Seconds until the window frees a slot. */
  resetSeconds: number;
}

/**
 * Grants up to `want` requests of a per-minute `limit` at once, or as many as the sliding window has
 * left: every granted request counts from the moment of the grant, used or not, so however the
 * grants are spread over isolates, no more than `limit` are granted in any 60 seconds.
 */
export function leaseRequests(sql: SqlStorage, limit: number, want: number, now: number): RequestLease {
  const { used, oldest } = window(sql, TABLES.leases, "coalesce(SUM(n), 0)", now);
  const granted = Math.max(0, Math.min(want, limit - used));
  if (granted > 0) sql.exec("INSERT INTO request_leases (at, n) VALUES (?, ?)", now, granted);
  return { granted, resetSeconds: secondsUntil(oldest ?? now, now) };
}

export interface SubmitAdmission {
  /** The plan's submit rate; null when the plan has none. */
  requests: RateLimitDecision | null;
  /** The plan's tasks per minute; null when the plan has none or the submit was not counted (refused, or invalid). */
  tasks: RateLimitDecision | null;
}

/**
 * One submit's admission in one call: the request is counted against the plan's rate first; only
 * an admitted request with `tasks` > 0 (a valid body) then counts its tasks, all or none.
 */
export function admitSubmit(
  sql: SqlStorage,
  requestLimit: number | null,
  taskLimit: number | null,
  tasks: number,
  now: number,
): SubmitAdmission {
  const requests = requestLimit === null ? null : consume(sql, requestLimit, now, "requests");
  if (requests && !requests.allowed) return { requests, tasks: null };
  return {
    requests,
    tasks: taskLimit === null || tasks === 0 ? null : consume(sql, taskLimit, now, "tasks", tasks),
  };
}
