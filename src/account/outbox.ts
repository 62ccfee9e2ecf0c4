/**
 * The account's webhook outbox, kept in the Durable Object's SQLite storage so that nothing queued
 * is lost to an eviction or a restart. Every function is synchronous SQL: the object runs them
 * without interleaving, which is what keeps enqueueing idempotent and sending ordered.
 */
export type DeliveryState = "pending" | "delivered" | "failed";

/** One event and the state of its delivery, as the delivery log shows it. */
export interface DeliveryRecord {
  id: string;
  task_id: string;
  event: string;
  state: DeliveryState;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  /** Milliseconds since the epoch; null once delivered or given up. */
  next_attempt_at: number | null;
  created_at: number;
  last_attempt_at: number | null;
}

export interface NewEvent {
  id: string;
  taskId: string;
  event: string;
  body: string;
}

export interface DueEvent {
  id: string;
  body: string;
  attempts: number;
}

/** Finished deliveries stay in the log this long. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3600 * 1000;

export function migrateOutbox(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS webhook_outbox (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    task_id TEXT NOT NULL,
    event TEXT NOT NULL,
    body TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    last_status_code INTEGER,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    last_attempt_at INTEGER,
    finished_at INTEGER
  )`);
  sql.exec("CREATE INDEX IF NOT EXISTS webhook_outbox_pending ON webhook_outbox (state, task_id, seq)");
  sql.exec("CREATE INDEX IF NOT EXISTS webhook_outbox_task ON webhook_outbox (task_id, seq)");
  sql.exec("CREATE TABLE IF NOT EXISTS outbox_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
}

export function getMeta(sql: SqlStorage, key: string): string | null {
  const rows = sql.exec<{ value: string }>("SELECT value FROM outbox_meta WHERE key = ?", key).toArray();
  return rows.length ? rows[0].value : null;
}

export function setMeta(sql: SqlStorage, key: string, value: string | null): void {
  if (value === null) sql.exec("DELETE FROM outbox_meta WHERE key = ?", key);
  else
    sql.exec(
      "INSERT INTO outbox_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      key,
      value,
    );
}

/** Adds an event unless one with its id exists (a redelivered queue message); true when added. */
export function enqueue(sql: SqlStorage, event: NewEvent, now: number): boolean {
  const cursor = sql.exec(
    `INSERT INTO webhook_outbox (id, task_id, event, body, state, next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, 'pending', ?, ?) ON CONFLICT (id) DO NOTHING`,
    event.id,
    event.taskId,
    event.event,
    event.body,
    now,
    now,
  );
  sql.exec(
    "DELETE FROM webhook_outbox WHERE state != 'pending' AND finished_at < ?",
    now - DELIVERY_RETENTION_MS,
  );
  return cursor.rowsWritten > 0;
}

/**
 * Only the oldest pending event of each task may go out, so a task's events arrive in the order
 * they happened; later ones wait until it is delivered or given up.
 */
const HEADS = `FROM webhook_outbox o WHERE o.state = 'pending'
  AND o.seq = (SELECT MIN(p.seq) FROM webhook_outbox p WHERE p.task_id = o.task_id AND p.state = 'pending')`;

export function dueEvents(sql: SqlStorage, dueBy: number, limit: number): DueEvent[] {
  return sql
    .exec<{ id: string; body: string; attempts: number }>(
      `SELECT o.id, o.body, o.attempts ${HEADS} AND o.next_attempt_at <= ? ORDER BY o.next_attempt_at, o.seq LIMIT ?`,
      dueBy,
      limit,
    )
    .toArray();
}

/** When the next event becomes due, or null when nothing is pending. */
export function nextDueAt(sql: SqlStorage): number | null {
  return sql.exec<{ at: number | null }>(`SELECT MIN(o.next_attempt_at) AS at ${HEADS}`).one().at;
}

export type AttemptResult =
  | { ok: true; statusCode: number }
  | { ok: false; statusCode: number | null; error: string; retryAt: number | null };

export function recordAttempt(sql: SqlStorage, id: string, result: AttemptResult, now: number): void {
  if (result.ok) {
    sql.exec(
      `UPDATE webhook_outbox SET state = 'delivered', attempts = attempts + 1, last_status_code = ?, last_error = NULL,
       next_attempt_at = NULL, last_attempt_at = ?, finished_at = ? WHERE id = ?`,
      result.statusCode,
      now,
      now,
      id,
    );
    return;
  }
  const givenUp = result.retryAt === null;
  sql.exec(
    `UPDATE webhook_outbox SET state = ?, attempts = attempts + 1, last_status_code = ?, last_error = ?,
     next_attempt_at = ?, last_attempt_at = ?, finished_at = ? WHERE id = ?`,
    givenUp ? "failed" : "pending",
    result.statusCode,
    result.error,
    result.retryAt,
    now,
    givenUp ? now : null,
    id,
  );
}

/** The most recent deliveries first, optionally of one task. */
export function listDeliveries(sql: SqlStorage, limit: number, taskId?: string): DeliveryRecord[] {
  const columns =
    "id, task_id, event, state, attempts, last_status_code, last_error, next_attempt_at, created_at, last_attempt_at";
  const cursor =
    taskId === undefined
      ? sql.exec<DeliveryRecord & Record<string, SqlStorageValue>>(
          `SELECT ${columns} FROM webhook_outbox ORDER BY seq DESC LIMIT ?`,
          limit,
        )
      : sql.exec<DeliveryRecord & Record<string, SqlStorageValue>>(
          `SELECT ${columns} FROM webhook_outbox WHERE task_id = ? ORDER BY seq DESC LIMIT ?`,
          taskId,
          limit,
        );
  return cursor.toArray().map((row) => ({ ...row }));
}
