/**
 * Fair share of one scraping queue, kept in that queue's gate object (./queue-gate.ts) in SQLite.
 *
 * The rule (docs/architecture.md, "Product decisions", Tasks): when tasks of several accounts wait on the same queue, no account
 * holds more than ⌈consumer concurrency ÷ accounts with waiting or running tasks on it⌉ of it; alone,
 * an account may use all of it; the plan's running-task cap applies on top.
 *
 * Every unfinished task of the queue has one row here, in one of four states:
 * - `waiting`: wants a run; no message for it is in the queue (parked here, costing nothing);
 * - `sent`: its message is in the queue (sent by the gate, or retried by the consumer);
 * - `running`: a run holds one of the account's share (renewed at every page: `until`);
 * - `yielding`: a run told to hand over at its page boundary (over its share); no longer counted.
 *
 * The queue itself therefore holds only about `concurrency` messages: a backlog of hundreds waits
 * here, and a newcomer's task is sent at the next free slot, ahead of that backlog, whatever its
 * size. A `sent` or `running` row whose `until` passes is presumed lost (a lost message, a killed
 * run) and waits again, so a crash costs at most that long and never fails a task by itself.
 *
 * Every function is synchronous SQL: the object runs one call at a time, so the counts are exact.
 */

/** A run's hold (renewed at every page) and a sent message's wait: GateQueue's TTLs (src/queue/concurrency.ts). */
interface Limits {
  concurrency: number;
  runningTtlMs: number;
  sentTtlMs: number;
}

/** A run's hold past its last heartbeat, past which it is presumed dead (src/queue/concurrency.ts). */
export const RUNNING_TTL_MS = 30_000;

export interface Offer {
  taskId: string;
  accountId: string;
  /** The run the message starts (null: the first). */
  run: number | null;
  delaySeconds: number;
}

export interface Send {
  taskId: string;
  run: number | null;
}

export type Admission = "granted" | "parked" | "duplicate";

interface Row {
  task_id: string;
  account_id: string;
  max_running: number | null;
  state: "waiting" | "sent" | "running" | "yielding";
  run: number | null;
  next_run: number | null;
  next_delay: number;
  available_at: number;
  until: number | null;
  seq: number;
}

export function migrateFairShare(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS gate_tasks (
    task_id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    max_running INTEGER,
    state TEXT NOT NULL,
    run INTEGER,
    next_run INTEGER,
    next_delay INTEGER NOT NULL DEFAULT 0,
    available_at INTEGER NOT NULL,
    until INTEGER,
    seq INTEGER NOT NULL
  )`);
  sql.exec("CREATE INDEX IF NOT EXISTS gate_tasks_state ON gate_tasks (state, account_id, seq)");
  // Every offer reads max(seq), every pump counts the accounts present and every call finds the next
  // wake: with these indexes none of them reads the whole table, whose rows are the queue's backlog.
  sql.exec("CREATE INDEX IF NOT EXISTS gate_tasks_seq ON gate_tasks (seq)");
  sql.exec("CREATE INDEX IF NOT EXISTS gate_tasks_account ON gate_tasks (account_id)");
  sql.exec("CREATE INDEX IF NOT EXISTS gate_tasks_until ON gate_tasks (until)");
  sql.exec("CREATE INDEX IF NOT EXISTS gate_tasks_state_available ON gate_tasks (state, available_at)");
  sql.exec("CREATE TABLE IF NOT EXISTS gate_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
}

function row(sql: SqlStorage, taskId: string): Row | null {
  const rows = sql
    .exec<Row & Record<string, SqlStorageValue>>("SELECT * FROM gate_tasks WHERE task_id = ?", taskId)
    .toArray();
  return rows.length ? { ...rows[0] } : null;
}

function nextSeq(sql: SqlStorage): number {
  return sql.exec<{ n: number | null }>("SELECT max(seq) AS n FROM gate_tasks").one().n ?? 0;
}

/** Accounts with a waiting, sent, running or yielding task here: the divisor of the share. */
function activeAccounts(sql: SqlStorage): number {
  return sql.exec<{ n: number }>("SELECT count(DISTINCT account_id) AS n FROM gate_tasks").one().n;
}

function runningOf(sql: SqlStorage, accountId: string): number {
  return sql
    .exec<{ n: number }>(
      "SELECT count(*) AS n FROM gate_tasks WHERE state = 'running' AND account_id = ?",
      accountId,
    )
    .one().n;
}

/** ⌈concurrency ÷ active accounts⌉, never below one. */
export function fairShare(concurrency: number, accounts: number): number {
  return Math.max(1, Math.ceil(concurrency / Math.max(1, accounts)));
}

/** What an account may hold now: its share, capped by its plan's running tasks where known. */
function allowance(sql: SqlStorage, concurrency: number, maxRunning: number | null): number {
  const share = fairShare(concurrency, activeAccounts(sql));
  return maxRunning === null ? share : Math.min(share, maxRunning);
}

/** Runs and messages presumed lost wait again (a dead run resumes under its own number). */
export function expire(sql: SqlStorage, now: number): void {
  sql.exec(
    `UPDATE gate_tasks SET state = 'waiting', run = coalesce(next_run, run), next_run = NULL, available_at = ?, until = NULL
     WHERE state IN ('sent', 'running', 'yielding') AND until <= ?`,
    now,
    now,
  );
}

/**
 * Tasks that want a run (submit, a follow-up, the sweeper): parked as waiting. A follow-up offered
 * by a run still holding its slot is remembered and takes effect when that run releases it, so
 * the next run never starts while the previous one's D1 lease is still held. A task whose message
 * is already in the queue is left alone.
 */
export function offer(sql: SqlStorage, offers: readonly Offer[], now: number): void {
  let seq = nextSeq(sql);
  for (const item of offers) {
    const existing = row(sql, item.taskId);
    if (existing?.state === "running" || existing?.state === "yielding") {
      sql.exec(
        "UPDATE gate_tasks SET next_run = ?, next_delay = ? WHERE task_id = ?",
        item.run,
        item.delaySeconds,
        item.taskId,
      );
    } else if (existing?.state === "sent") {
      continue;
    } else if (existing) {
      sql.exec(
        "UPDATE gate_tasks SET run = ?, available_at = ? WHERE task_id = ?",
        item.run,
        now + item.delaySeconds * 1000,
        item.taskId,
      );
    } else {
      sql.exec(
        `INSERT INTO gate_tasks (task_id, account_id, state, run, available_at, seq) VALUES (?, ?, 'waiting', ?, ?, ?)`,
        item.taskId,
        item.accountId,
        item.run,
        now + item.delaySeconds * 1000,
        ++seq,
      );
    }
  }
}

/**
 * A message arrived: the run may start when its account holds less than its allowance; otherwise
 * the task waits here (the message is acknowledged: no retry spent, no consumer held). A second
 * message for a task whose run is alive is a duplicate and dropped (the gate re-sends if that run dies).
 */
export function admit(
  sql: SqlStorage,
  taskId: string,
  accountId: string,
  maxRunning: number,
  run: number | null,
  limits: Limits,
  now: number,
): Admission {
  const { concurrency } = limits;
  expire(sql, now);
  const existing = row(sql, taskId);
  if (existing?.state === "running" || existing?.state === "yielding") return "duplicate";
  // An older run's copy arriving while the next run's message is in the queue: that one carries on.
  if (existing?.state === "sent" && (run ?? 1) < (existing.run ?? 1)) return "duplicate";
  if (!existing) {
    sql.exec(
      `INSERT INTO gate_tasks (task_id, account_id, state, run, available_at, seq) VALUES (?, ?, 'waiting', ?, ?, ?)`,
      taskId,
      accountId,
      run,
      now,
      nextSeq(sql) + 1,
    );
  }
  sql.exec("UPDATE gate_tasks SET max_running = ? WHERE account_id = ?", maxRunning, accountId);
  if (runningOf(sql, accountId) < allowance(sql, concurrency, maxRunning)) {
    sql.exec(
      "UPDATE gate_tasks SET state = 'running', run = ?, next_run = NULL, until = ? WHERE task_id = ?",
      run,
      now + limits.runningTtlMs,
      taskId,
    );
    return "granted";
  }
  sql.exec(
    "UPDATE gate_tasks SET state = 'waiting', run = ?, available_at = ?, until = NULL WHERE task_id = ?",
    run,
    now,
    taskId,
  );
  return "parked";
}

/**
 * At a page boundary: renews the run's hold, and tells it to hand over when its account holds more
 * than its share while another account has a task waiting for a slot (a newcomer gets its share
 * within one page of the running ones, not one whole run).
 */
export function heartbeat(sql: SqlStorage, taskId: string, limits: Limits, now: number): { yield: boolean } {
  const { concurrency } = limits;
  const current = row(sql, taskId);
  if (!current || current.state !== "running") return { yield: false };
  sql.exec("UPDATE gate_tasks SET until = ? WHERE task_id = ?", now + limits.runningTtlMs, taskId);
  const held = runningOf(sql, current.account_id);
  if (held <= fairShare(concurrency, activeAccounts(sql))) return { yield: false };
  const othersWaiting =
    sql
      .exec<{ n: number }>(
        "SELECT count(*) AS n FROM gate_tasks WHERE state IN ('waiting', 'sent') AND account_id != ? AND available_at <= ?",
        current.account_id,
        now,
      )
      .one().n > 0;
  if (!othersWaiting) return { yield: false };
  sql.exec("UPDATE gate_tasks SET state = 'yielding' WHERE task_id = ?", taskId);
  return { yield: true };
}

/** How a run ended, for its row. */
export interface Release {
  /** The consumer retries the message after this many seconds (it stays in the queue). */
  retryInSeconds?: number;
  /** The task waits here this long before it is sent again (over the plan's account-wide cap). */
  deferSeconds?: number;
}

/**
 * The run is over: its slot is free. The task waits for its follow-up run (offered while it ran),
 * stays in the queue (a retried message), waits a while, or is done here.
 */
export function release(sql: SqlStorage, taskId: string, how: Release, limits: Limits, now: number): void {
  const current = row(sql, taskId);
  if (!current || (current.state !== "running" && current.state !== "yielding")) return;
  if (how.retryInSeconds !== undefined) {
    const at = now + how.retryInSeconds * 1000;
    sql.exec(
      "UPDATE gate_tasks SET state = 'sent', available_at = ?, until = ? WHERE task_id = ?",
      at,
      at + limits.sentTtlMs,
      taskId,
    );
  } else if (how.deferSeconds !== undefined) {
    sql.exec(
      "UPDATE gate_tasks SET state = 'waiting', available_at = ?, until = NULL WHERE task_id = ?",
      now + how.deferSeconds * 1000,
      taskId,
    );
  } else if (current.next_run !== null) {
    sql.exec(
      "UPDATE gate_tasks SET state = 'waiting', run = next_run, next_run = NULL, available_at = ? + next_delay * 1000, next_delay = 0, until = NULL WHERE task_id = ?",
      now,
      taskId,
    );
  } else {
    sql.exec("DELETE FROM gate_tasks WHERE task_id = ?", taskId);
  }
}

/**
 * Chooses which waiting tasks to send now, and marks them sent: while fewer than `concurrency` are
 * running or due in the queue, the next one goes to the account holding the least (then the one
 * waiting longest), never past its allowance. Oldest first within an account.
 */
export function pump(sql: SqlStorage, limits: Limits, now: number): Send[] {
  const { concurrency } = limits;
  expire(sql, now);
  const sends: Send[] = [];
  for (let i = 0; i < concurrency; i++) {
    const inFlight = sql
      .exec<{ n: number }>(
        "SELECT count(*) AS n FROM gate_tasks WHERE state = 'running' OR (state = 'sent' AND available_at <= ?)",
        now + 1000,
      )
      .one().n;
    if (inFlight >= concurrency) break;
    const share = fairShare(concurrency, activeAccounts(sql));
    const candidates = sql
      .exec<{ task_id: string; run: number | null; held: number; max_running: number | null }>(
        `SELECT w.task_id, w.run, w.max_running,
           (SELECT count(*) FROM gate_tasks h WHERE h.account_id = w.account_id
              AND (h.state = 'running' OR (h.state = 'sent' AND h.available_at <= ?))) AS held
         FROM gate_tasks w
         WHERE w.state = 'waiting' AND w.available_at <= ?
           AND w.seq = (SELECT min(o.seq) FROM gate_tasks o WHERE o.account_id = w.account_id AND o.state = 'waiting' AND o.available_at <= ?)
         ORDER BY held, w.seq`,
        now + 1000,
        now,
        now,
      )
      .toArray();
    const next = candidates.find(
      (c) => c.held < (c.max_running === null ? share : Math.min(share, c.max_running)),
    );
    if (!next) break;
    sql.exec(
      "UPDATE gate_tasks SET state = 'sent', available_at = ?, until = ? WHERE task_id = ?",
      now,
      now + limits.sentTtlMs,
      next.task_id,
    );
    sends.push({ taskId: next.task_id, run: next.run });
  }
  return sends;
}

/**
 * Messages sent at least `ms` ago (or due that long ago) whose run has not started: a queue whose
 * consumers are all busy. A consumer then stops running the gate's choices itself, so its
 * invocation ends and the queue can deliver what waits (src/app/queue/consumer.ts).
 */
export function stalledSends(sql: SqlStorage, now: number, ms: number): number {
  return sql
    .exec<{ n: number }>(
      "SELECT count(*) AS n FROM gate_tasks WHERE state = 'sent' AND available_at <= ?",
      now - ms,
    )
    .one().n;
}

/** A live run's timer heartbeat: its hold lasts on (no share question asked, unlike a page's). */
export function renew(sql: SqlStorage, taskId: string, limits: Limits, now: number): void {
  sql.exec(
    "UPDATE gate_tasks SET until = ? WHERE task_id = ? AND state IN ('running', 'yielding')",
    now + limits.runningTtlMs,
    taskId,
  );
}

export function forget(sql: SqlStorage, taskId: string): void {
  sql.exec("DELETE FROM gate_tasks WHERE task_id = ?", taskId);
}

/** A sent message that could not be sent waits again. */
export function unsend(sql: SqlStorage, taskIds: readonly string[], now: number): void {
  for (const id of taskIds)
    sql.exec(
      "UPDATE gate_tasks SET state = 'waiting', available_at = ?, until = NULL WHERE task_id = ? AND state = 'sent'",
      now,
      id,
    );
}

/**
 * When the gate must look again: the next expiry, or the next waiting task becoming available. Two
 * index lookups (gate_tasks_until, gate_tasks_state_available), not a scan of the backlog: it runs
 * after every call.
 */
export function nextWake(sql: SqlStorage, now: number): number | null {
  const expiry = sql
    .exec<{ at: number | null }>("SELECT min(until) AS at FROM gate_tasks WHERE until IS NOT NULL")
    .one().at;
  const due = sql
    .exec<{ at: number | null }>(
      "SELECT min(available_at) AS at FROM gate_tasks WHERE state = 'waiting' AND available_at > ?",
      now,
    )
    .one().at;
  if (expiry === null) return due;
  return due === null ? expiry : Math.min(expiry, due);
}

/** Counts by state and account, for tests and the operator. */
export function snapshot(sql: SqlStorage): { account_id: string; state: string; n: number }[] {
  return sql
    .exec<{ account_id: string; state: string; n: number }>(
      "SELECT account_id, state, count(*) AS n FROM gate_tasks GROUP BY account_id, state ORDER BY account_id, state",
    )
    .toArray()
    .map((r) => ({ ...r }));
}
