import { DurableObject } from "cloudflare:workers";
import { OPS_ACCOUNT_ID, opsWebhookTarget } from "./ops-webhook";
import { database } from "../db/client";
import { loadWebhook, type WebhookTarget } from "./webhook-config";
import { deliverOnce, retryDelaySeconds } from "./webhook-delivery";
import { settings } from "../settings";
import {
  dueEvents,
  enqueue,
  getMeta,
  listDeliveries,
  migrateOutbox,
  nextDueAt,
  recordAttempt,
  setMeta,
  type DeliveryRecord,
  type DueEvent,
  type NewEvent,
} from "./outbox";
import {
  admitSubmit,
  leaseRequests,
  migrateRateLimiter,
  type RequestLease,
  type SubmitAdmission,
} from "./rate-limiter";
import { log } from "../log";
import { acquireSlot, migrateRunSlots, releaseSlot, renewSlot, type SlotDecision } from "./run-slots";

/** Events sent side by side in one round (each of a different task). */
const SEND_BATCH = 10;
/** Rounds per alarm run; more work re-arms the alarm at once instead of holding the object. */
const MAX_ROUNDS = 5;
/** Pause before the next run when a run could not even load the webhook (D1 unavailable). */
const RUN_FAILURE_BACKOFF_MS = 30_000;

const META_ACCOUNT_ID = "account_id";
/** The time the alarm was last set for; see alarm(). */
const META_ARMED_FOR = "alarm_armed_for";

/**
 * One object per account serializes what must not race for that account: the submit rate limit
 * and the webhook outbox. All outbox state is in the object's SQLite storage and the alarm is
 * re-armed from it, so an eviction or restart loses nothing.
 */
export class AccountDurableObject extends DurableObject<Env> {
  /** Events whose attempt is awaiting the receiver; never picked twice at once. */
  private readonly sending = new Set<string>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // A constructor cannot await; the runtime holds every event until this settles (and resets the object if it throws).
    void ctx.blockConcurrencyWhile(async () => {
      migrateRateLimiter(ctx.storage.sql);
      migrateOutbox(ctx.storage.sql);
      migrateRunSlots(ctx.storage.sql);
      // An alarm lost with an earlier instance comes back from the outbox itself.
      if (nextDueAt(ctx.storage.sql) !== null && (await ctx.storage.getAlarm()) === null) await this.rearm();
    });
  }

  /** A submit's request rate and task budget together, so a submit costs one call to this object. */
  async admitSubmit(
    requestLimit: number | null,
    taskLimit: number | null,
    tasks: number,
  ): Promise<SubmitAdmission> {
    return admitSubmit(this.ctx.storage.sql, requestLimit, taskLimit, tasks, Date.now());
  }

  /** A block of up to `want` requests of the per-account limit, for an isolate to admit on its own. */
  async leaseRequests(limit: number, want: number): Promise<RequestLease> {
    return leaseRequests(this.ctx.storage.sql, limit, want, Date.now());
  }

  /** A running slot for a task's run, if fewer than `max` of this account's tasks hold one. */
  async acquireRunSlot(taskId: string, max: number, ttlMs: number): Promise<SlotDecision> {
    return acquireSlot(this.ctx.storage.sql, taskId, max, ttlMs, Date.now());
  }

  async renewRunSlot(taskId: string, ttlMs: number): Promise<void> {
    renewSlot(this.ctx.storage.sql, taskId, ttlMs, Date.now());
  }

  async releaseRunSlot(taskId: string): Promise<void> {
    releaseSlot(this.ctx.storage.sql, taskId);
  }

  /** Puts a webhook event in the outbox once; true when it was new. */
  async enqueueWebhookEvent(accountId: string, event: NewEvent): Promise<boolean> {
    const sql = this.ctx.storage.sql;
    setMeta(sql, META_ACCOUNT_ID, accountId);
    const added = enqueue(sql, event, Date.now());
    if (added) await this.rearm();
    return added;
  }

  async listWebhookDeliveries(limit: number, taskId?: string): Promise<DeliveryRecord[]> {
    return listDeliveries(this.ctx.storage.sql, limit, taskId);
  }

  override async alarm(): Promise<void> {
    try {
      await this.sendDueEvents();
    } catch (err) {
      // The name only: a message could quote a receiver's answer.
      log("error", "webhook delivery run failed", { error: err instanceof Error ? err.name : "unknown" });
      await this.arm(Date.now() + RUN_FAILURE_BACKOFF_MS);
      return;
    }
    await this.rearm();
  }

  private async sendDueEvents(): Promise<void> {
    const sql = this.ctx.storage.sql;
    // An alarm sends what it was armed for even when it runs before that time (a test driving
    // it with runDurableObjectAlarm); the platform itself never fires early.
    const dueBy = Math.max(Date.now(), Number(getMeta(sql, META_ARMED_FOR) ?? 0));
    const accountId = getMeta(sql, META_ACCOUNT_ID);
    let target: WebhookTarget | null | undefined;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const due = dueEvents(sql, dueBy, SEND_BATCH).filter((event) => !this.sending.has(event.id));
      if (!due.length) return;
      // Read at send time, so a replaced URL or a rotated secret applies to pending retries too.
      if (target === undefined) {
        if (accountId === OPS_ACCOUNT_ID) target = opsWebhookTarget(this.env);
        else target = accountId ? await loadWebhook(this.env, database(this.env.DB), accountId) : null;
      }
      await Promise.all(due.map((event) => this.attempt(target ?? null, event)));
    }
  }

  private async attempt(target: WebhookTarget | null, event: DueEvent): Promise<void> {
    const config = settings(this.env);
    this.sending.add(event.id);
    try {
      // A secret no configured key opens fails the attempt (kept in the delivery log, retried on
      // schedule: a create-webhook issues a fresh secret the next attempt signs with).
      const outcome = !target
        ? { ok: false as const, statusCode: null, error: "No webhook configured" }
        : target.secret === null
          ? {
              ok: false as const,
              statusCode: null,
              error: "secret_unreadable: the webhook secret is sealed under a key that is not configured",
            }
          : await deliverOnce({ url: target.url, secret: target.secret }, event, {
              serviceName: config.serviceName,
              allowPrivateNetwork: config.allowPrivateNetwork,
              now: Date.now(),
            });
      const now = Date.now();
      if (outcome.ok) {
        recordAttempt(this.ctx.storage.sql, event.id, outcome, now);
      } else {
        const delay = retryDelaySeconds(event.attempts + 1, config.webhookRetrySchedule);
        recordAttempt(
          this.ctx.storage.sql,
          event.id,
          { ...outcome, retryAt: delay === null ? null : now + delay * 1000 },
          now,
        );
      }
    } finally {
      this.sending.delete(event.id);
    }
  }

  /** Sets the alarm for the next due event, from storage; clears it when nothing is pending. */
  private async rearm(): Promise<void> {
    const at = nextDueAt(this.ctx.storage.sql);
    if (at === null) {
      setMeta(this.ctx.storage.sql, META_ARMED_FOR, null);
      await this.ctx.storage.deleteAlarm();
      return;
    }
    await this.arm(Math.max(at, Date.now()));
  }

  private async arm(at: number): Promise<void> {
    setMeta(this.ctx.storage.sql, META_ARMED_FOR, String(at));
    await this.ctx.storage.setAlarm(at);
  }
}

export function accountStub(env: Env, accountId: string): DurableObjectStub<AccountDurableObject> {
  return env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
}
