import { healthEvent, type HealthStatus } from "../../core/health/status";
import { accountStub } from "../../account/account-do";
import { OPS_ACCOUNT_ID } from "../../account/ops-webhook";
import { settings } from "../../settings";
import { loadHealth, UNKNOWN_HEALTH } from "./read";
import { trackedKeysJson } from "./tracked";

/**
 * Operator alerts queued per tick at most. Further changes are left unstored, so the next tick (five
 * minutes later) sees and sends them: a burst is spread, never lost, and a tick stays small.
 */
export const MAX_ALERTS_PER_TICK = 20;

/**
 * Compares every tracked publisher's health now with the status it was last seen in, stores each change, and
 * queues one operator alert per change (publisher.degraded, publisher.failing, publisher.recovered)
 * in the ops outbox, which signs, retries and logs it like a client's webhook. The event id names
 * the publisher and the change it follows from, so a tick that dies between queueing and storing
 * queues the same event again, and the outbox keeps it once. Returns the alerts queued.
 */
export async function evaluateHealthAlerts(
  env: Env,
  now: number,
): Promise<{ publisher: string; event: string }[]> {
  const tracked = trackedKeysJson(env);
  const [views, stored] = await Promise.all([
    loadHealth(env, now),
    env.DB.prepare(
      `SELECT publisher_key, status, changed_at FROM publisher_health WHERE publisher_key IN (SELECT value FROM json_each(?1))`,
    )
      .bind(tracked)
      .all<{
        publisher_key: string;
        status: HealthStatus;
        changed_at: number;
      }>(),
  ]);
  const previous = new Map(stored.results.map((r) => [r.publisher_key, r]));
  const ops = settings(env).opsWebhook;
  const alerts: { publisher: string; event: string }[] = [];
  const updates: D1PreparedStatement[] = [];
  for (const publisher of new Set([...views.keys(), ...previous.keys()])) {
    const health = views.get(publisher)?.health ?? UNKNOWN_HEALTH;
    const before = previous.get(publisher);
    if (before?.status === health.status) continue;
    const event = healthEvent(before?.status ?? null, health.status);
    if (event && ops && alerts.length >= MAX_ALERTS_PER_TICK) continue;
    if (event && ops) {
      const id = `evt_${publisher}_${before?.changed_at ?? 0}_${health.status}`;
      const body = JSON.stringify({
        event,
        publisher,
        status: health.status,
        previous_status: before?.status ?? null,
        health,
        detected_at: now,
      });
      await accountStub(env, OPS_ACCOUNT_ID).enqueueWebhookEvent(OPS_ACCOUNT_ID, {
        id,
        taskId: `publisher:${publisher}`,
        event,
        body,
      });
      alerts.push({ publisher, event });
    }
    updates.push(
      env.DB.prepare(
        `INSERT INTO publisher_health (publisher_key, status, changed_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (publisher_key) DO UPDATE SET status = excluded.status, changed_at = excluded.changed_at`,
      ).bind(publisher, health.status, now),
    );
  }
  // Rows of publishers no longer tracked (client domains recorded before health was bounded).
  updates.push(
    env.DB.prepare(
      `DELETE FROM publisher_health WHERE publisher_key NOT IN (SELECT value FROM json_each(?1))`,
    ).bind(tracked),
  );
  await env.DB.batch(updates);
  return alerts;
}
