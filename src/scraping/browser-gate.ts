import { DurableObject } from "cloudflare:workers";

export interface SlotDecision {
  granted: boolean;
  /** When not granted: seconds until the earliest slot frees itself at the latest. */
  retryInSeconds: number;
}

/**
 * Caps the Browser Rendering sessions open at once across every queue consumer (BROWSER_SESSIONS_MAX):
 * many queues times their concurrency could otherwise exceed the account's session limit. One
 * instance ("global") holds the slots in its SQLite storage; each slot has an expiry so a run that
 * died without releasing it cannot hold it forever. The object runs one call at a time, so the count
 * is exact.
 */
export class BrowserGate extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // A constructor cannot await; the runtime holds every event until this settles (and resets the object if it throws).
    void ctx.blockConcurrencyWhile(async () => {
      ctx.storage.sql.exec(
        "CREATE TABLE IF NOT EXISTS slots (holder TEXT PRIMARY KEY, until INTEGER NOT NULL)",
      );
    });
  }

  async acquire(holder: string, max: number, ttlMs: number): Promise<SlotDecision> {
    const sql = this.ctx.storage.sql;
    const now = Date.now();
    sql.exec("DELETE FROM slots WHERE until <= ?", now);
    const held =
      sql.exec<{ n: number }>("SELECT count(*) AS n FROM slots WHERE holder = ?", holder).one().n > 0;
    const { used, earliest } = sql
      .exec<{ used: number; earliest: number | null }>(
        "SELECT count(*) AS used, MIN(until) AS earliest FROM slots",
      )
      .one();
    if (!held && used >= max)
      return {
        granted: false,
        retryInSeconds: Math.max(1, Math.min(60, Math.ceil(((earliest ?? now) - now) / 1000))),
      };
    sql.exec(
      "INSERT INTO slots (holder, until) VALUES (?, ?) ON CONFLICT (holder) DO UPDATE SET until = excluded.until",
      holder,
      now + ttlMs,
    );
    return { granted: true, retryInSeconds: 0 };
  }

  async release(holder: string): Promise<void> {
    this.ctx.storage.sql.exec("DELETE FROM slots WHERE holder = ?", holder);
  }

  async inUse(): Promise<number> {
    return this.ctx.storage.sql
      .exec<{ n: number }>("SELECT count(*) AS n FROM slots WHERE until > ?", Date.now())
      .one().n;
  }
}

export function browserGate(env: Env): DurableObjectStub<BrowserGate> {
  return env.BROWSER_GATE.get(env.BROWSER_GATE.idFromName("global"));
}
