import { DurableObject } from "cloudflare:workers";

export interface SlotDecision {
  granted: boolean;
  /** When not granted: seconds until the earliest slot frees itself at the latest. */
  retryInSeconds: number;
}

/**
 * An account refused a session is remembered as wanting one this long: while it waits, the others
 * are held to their share. A refused run asks again within a minute (BrowserBusy's delay), which
 * renews it.
 */
const WANT_TTL_MS = 90_000;

/** The share of `max` sessions each of `accounts` accounts may hold (an account alone may hold all). */
export function browserShare(max: number, accounts: number): number {
  return Math.max(1, Math.ceil(max / Math.max(1, accounts)));
}

/**
 * Caps the Browser Rendering sessions open at once across every queue consumer (BROWSER_SESSIONS_MAX):
 * many queues times their concurrency could otherwise exceed the account's session limit. One
 * instance ("global") holds the slots in its SQLite storage; each slot has an expiry so a run that
 * died without releasing it cannot hold it forever. The object runs one call at a time, so the count
 * is exact.
 *
 * Sessions are shared between accounts like a queue (docs/architecture.md, "Fair share of a queue"):
 * an account holds at most ⌈BROWSER_SESSIONS_MAX ÷ accounts holding or wanting a session⌉, so one
 * account's renders cannot take every session while another account's runs are refused. An account
 * alone may use them all. A slot is never taken back from a live run; the share applies from the
 * next acquire, and a session lasts one run.
 */
export class BrowserGate extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // A constructor cannot await; the runtime holds every event until this settles (and resets the object if it throws).
    void ctx.blockConcurrencyWhile(async () => {
      const sql = ctx.storage.sql;
      sql.exec(
        "CREATE TABLE IF NOT EXISTS slots (holder TEXT PRIMARY KEY, until INTEGER NOT NULL, account_id TEXT NOT NULL DEFAULT '')",
      );
      // Objects made before the per-account share have the table without its account column.
      const columns = sql.exec<{ name: string }>("PRAGMA table_info(slots)").toArray();
      if (!columns.some((c) => c.name === "account_id"))
        sql.exec("ALTER TABLE slots ADD COLUMN account_id TEXT NOT NULL DEFAULT ''");
      sql.exec("CREATE TABLE IF NOT EXISTS wants (account_id TEXT PRIMARY KEY, until INTEGER NOT NULL)");
    });
  }

  async acquire(holder: string, max: number, ttlMs: number, accountId = ""): Promise<SlotDecision> {
    const sql = this.ctx.storage.sql;
    const now = Date.now();
    sql.exec("DELETE FROM slots WHERE until <= ?", now);
    sql.exec("DELETE FROM wants WHERE until <= ?", now);
    const held =
      sql.exec<{ n: number }>("SELECT count(*) AS n FROM slots WHERE holder = ?", holder).one().n > 0;
    const { used, earliest } = sql
      .exec<{ used: number; earliest: number | null }>(
        "SELECT count(*) AS used, MIN(until) AS earliest FROM slots",
      )
      .one();
    if (!held) {
      const accounts = sql
        .exec<{ n: number }>(
          "SELECT count(*) AS n FROM (SELECT account_id FROM slots UNION SELECT account_id FROM wants UNION SELECT ?)",
          accountId,
        )
        .one().n;
      const mine = sql
        .exec<{ n: number }>("SELECT count(*) AS n FROM slots WHERE account_id = ?", accountId)
        .one().n;
      if (used >= max || mine >= browserShare(max, accounts)) {
        sql.exec(
          "INSERT INTO wants (account_id, until) VALUES (?, ?) ON CONFLICT (account_id) DO UPDATE SET until = excluded.until",
          accountId,
          now + WANT_TTL_MS,
        );
        return {
          granted: false,
          retryInSeconds: Math.max(1, Math.min(60, Math.ceil(((earliest ?? now) - now) / 1000))),
        };
      }
    }
    sql.exec(
      `INSERT INTO slots (holder, until, account_id) VALUES (?, ?, ?)
       ON CONFLICT (holder) DO UPDATE SET until = excluded.until`,
      holder,
      now + ttlMs,
      accountId,
    );
    // Served: it no longer waits (its later refusals, if any, say so again).
    sql.exec("DELETE FROM wants WHERE account_id = ?", accountId);
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
