/**
 * The account's running tasks, kept in its Durable Object's SQLite storage: at most the plan's
 * `concurrent_tasks` hold a slot at once, so one account's slow or huge tasks never take every
 * consumer. A slot expires on its own (a run that died without releasing it), and the object runs
 * one call at a time, so the count is exact.
 */
export interface SlotDecision {
  granted: boolean;
  running: number;
}

export function migrateRunSlots(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS run_slots (task_id TEXT PRIMARY KEY, until INTEGER NOT NULL)");
}

export function acquireSlot(
  sql: SqlStorage,
  taskId: string,
  max: number,
  ttlMs: number,
  now: number,
): SlotDecision {
  sql.exec("DELETE FROM run_slots WHERE until <= ?", now);
  const held =
    sql.exec<{ n: number }>("SELECT count(*) AS n FROM run_slots WHERE task_id = ?", taskId).one().n > 0;
  const running = sql.exec<{ n: number }>("SELECT count(*) AS n FROM run_slots").one().n;
  if (!held && running >= max) return { granted: false, running };
  sql.exec(
    "INSERT INTO run_slots (task_id, until) VALUES (?, ?) ON CONFLICT (task_id) DO UPDATE SET until = excluded.until",
    taskId,
    now + ttlMs,
  );
  return { granted: true, running: held ? running : running + 1 };
}

export function releaseSlot(sql: SqlStorage, taskId: string): void {
  sql.exec("DELETE FROM run_slots WHERE task_id = ?", taskId);
}

/** A live run's heartbeat: its slot lasts on (a slot that already expired is not taken back). */
export function renewSlot(sql: SqlStorage, taskId: string, ttlMs: number, now: number): void {
  sql.exec("UPDATE run_slots SET until = ? WHERE task_id = ?", now + ttlMs, taskId);
}
