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
}

export function consume(sql: SqlStorage, limit: number, now: number): RateLimitDecision {
  sql.exec("DELETE FROM rate_hits WHERE at <= ?", now - WINDOW_MS);
  const { used, oldest } = sql.exec<{ used: number; oldest: number | null }>("SELECT COUNT(*) AS used, MIN(at) AS oldest FROM rate_hits").one();
  const secondsUntil = (at: number) => Math.max(1, Math.ceil((at + WINDOW_MS - now) / 1000));
  if (used >= limit) {
    return { allowed: false, limit, remaining: 0, resetSeconds: secondsUntil(oldest ?? now) };
  }
  sql.exec("INSERT INTO rate_hits (at) VALUES (?)", now);
  return { allowed: true, limit, remaining: limit - used - 1, resetSeconds: secondsUntil(oldest ?? now) };
}
