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
}

const TABLES = { requests: "rate_hits", tasks: "task_hits" } as const;

/**
 * Counts `weight` units of one kind against a per-minute limit, or refuses them all: a submit of
 * more tasks than the window has left is refused whole, never half-queued.
 */
export function consume(sql: SqlStorage, limit: number, now: number, kind: keyof typeof TABLES = "requests", weight = 1): RateLimitDecision {
  const table = TABLES[kind];
  const units = kind === "requests" ? "COUNT(*)" : "coalesce(SUM(n), 0)";
  sql.exec(`DELETE FROM ${table} WHERE at <= ?`, now - WINDOW_MS);
  const { used, oldest } = sql.exec<{ used: number; oldest: number | null }>(`SELECT ${units} AS used, MIN(at) AS oldest FROM ${table}`).one();
  const secondsUntil = (at: number) => Math.max(1, Math.ceil((at + WINDOW_MS - now) / 1000));
  if (used + weight > limit) {
    return { allowed: false, limit, remaining: Math.max(0, limit - used), resetSeconds: secondsUntil(oldest ?? now) };
  }
  if (kind === "requests") sql.exec("INSERT INTO rate_hits (at) VALUES (?)", now);
  else sql.exec("INSERT INTO task_hits (at, n) VALUES (?, ?)", now, weight);
  return { allowed: true, limit, remaining: limit - used - weight, resetSeconds: secondsUntil(oldest ?? now) };
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
export function admitSubmit(sql: SqlStorage, requestLimit: number | null, taskLimit: number | null, tasks: number, now: number): SubmitAdmission {
  const requests = requestLimit === null ? null : consume(sql, requestLimit, now, "requests");
  if (requests && !requests.allowed) return { requests, tasks: null };
  return { requests, tasks: taskLimit === null || tasks === 0 ? null : consume(sql, taskLimit, now, "tasks", tasks) };
}
