import { DurableObject } from "cloudflare:workers";
import { errorText, log } from "../log";
import {
  admit,
  expire,
  forget,
  heartbeat,
  migrateFairShare,
  nextWake,
  offer,
  pump,
  release,
  renew,
  snapshot,
  stalledSends,
  unsend,
  type Admission,
  type Offer,
  type Release,
  type Send,
} from "./fair-share";
import type { ScrapeMessage } from "./messages";

/** A scraping queue's producer binding (wrangler.toml `[[queues.producers]]`, SCRAPE_*). */
export type ScrapeQueueBinding = {
  [K in keyof Env]: Env[K] extends Queue<unknown> ? (K extends `SCRAPE_${string}` ? K : never) : never;
}[keyof Env];

/** A scraping queue as a publisher module names it: its producer binding and its name. */
export interface QueueRef {
  binding: ScrapeQueueBinding;
  name: string;
}

/** Messages per sendBatch call (the Queues limit). */
const SEND_BATCH_MAX = 100;
/** Pause before trying again when the queue refused a send. */
const SEND_FAILURE_BACKOFF_MS = 5_000;
/**
 * A message due this long without its run starting means the queue's consumers are all busy: with
 * max_batch_timeout 0 a free consumer takes a message within milliseconds.
 */
const STALL_MS = 1_000;

/** Which queue a gate serves and how many consumers that queue runs at once (wrangler.toml). */
export interface GateQueue {
  binding: ScrapeQueueBinding;
  name: string;
  concurrency: number;
  /** A run's hold lasts this long past its last page (then it is presumed dead). */
  runningTtlMs: number;
  /** A sent message not seen by then is presumed lost. */
  sentTtlMs: number;
}

/**
 * One object per scraping queue (by its name): the queue's fair share (./fair-share.ts). Tasks
 * wait here, not in the queue; the object sends a task's message when its account may run it, and
 * its alarm re-sends what a crash lost. All state is in SQLite, so a restart loses nothing.
 */
export class QueueGate extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // A constructor cannot await; the runtime holds every event until this settles (and resets the object if it throws).
    void ctx.blockConcurrencyWhile(async () => {
      migrateFairShare(ctx.storage.sql);
    });
  }

  /**
   * Tasks that want a run: they wait here. Every call answers the messages to send now (the caller
   * sends them with its own queue binding; see `sendTasks`); a caller that fails to send them
   * leaves them to the gate's expiry, which sends them again.
   */
  async offer(queue: GateQueue, offers: Offer[]): Promise<Send[]> {
    this.remember(queue);
    offer(this.ctx.storage.sql, offers, Date.now());
    return this.pumpAndArm(queue);
  }

  /** A message arrived: may its run start? A parked task may leave room for another account's. */
  async admit(
    queue: GateQueue,
    taskId: string,
    accountId: string,
    maxRunning: number,
    run: number | null,
  ): Promise<{ admission: Admission; send: Send[] }> {
    this.remember(queue);
    const admission = admit(this.ctx.storage.sql, taskId, accountId, maxRunning, run, queue, Date.now());
    return { admission, send: admission === "granted" ? [] : await this.pumpAndArm(queue) };
  }

  /** At a page boundary: renews the run's hold; `yield` asks it to hand over to a follow-up run. */
  async heartbeat(queue: GateQueue, taskId: string): Promise<{ yield: boolean }> {
    const answer = heartbeat(this.ctx.storage.sql, taskId, queue, Date.now());
    await this.arm();
    return answer;
  }

  /** A live run's timer heartbeat between pages: its hold lasts on. */
  async keepAlive(queue: GateQueue, taskId: string): Promise<void> {
    renew(this.ctx.storage.sql, taskId, queue, Date.now());
    await this.arm();
  }

  /**
   * The run is over. Answers what to send now, and how many earlier messages have waited over
   * STALL_MS for a consumer (then the caller does not keep running the gate's choices itself).
   */
  async release(queue: GateQueue, taskId: string, how: Release): Promise<{ send: Send[]; stalled: number }> {
    const now = Date.now();
    release(this.ctx.storage.sql, taskId, how, queue, now);
    const stalled = stalledSends(this.ctx.storage.sql, now, STALL_MS);
    return { send: await this.pumpAndArm(queue), stalled };
  }

  /** The task has ended: nothing of it waits here any more. */
  async forget(queue: GateQueue, taskId: string): Promise<Send[]> {
    forget(this.ctx.storage.sql, taskId);
    return this.pumpAndArm(queue);
  }

  /** Wakes the gate (the scheduled sweep does, after a restart): expiries are handled, waiting tasks sent. */
  async tick(queue: GateQueue): Promise<Send[]> {
    this.remember(queue);
    return this.pumpAndArm(queue);
  }

  /** When the gate next has something to do (an expiry, a delayed task), or null when idle. */
  async wakeAt(): Promise<number | null> {
    return nextWake(this.ctx.storage.sql, Date.now());
  }

  async counts(): Promise<{ account_id: string; state: string; n: number }[]> {
    expire(this.ctx.storage.sql, Date.now());
    return snapshot(this.ctx.storage.sql);
  }

  /** Expiries and delayed tasks: the alarm sends what is due with the object's own binding. */
  override async alarm(): Promise<void> {
    const queue = this.stored();
    if (!queue) return;
    const sends = await this.pumpAndArm(queue);
    try {
      await sendTasks(this.env, queue.binding, sends);
    } catch (err) {
      // Waiting again; tried after a pause. Never lost: the rows are still here.
      unsend(
        this.ctx.storage.sql,
        sends.map((s) => s.taskId),
        Date.now(),
      );
      log("error", "queue gate: send failed", {
        queue: queue.name,
        count: sends.length,
        error: errorText(err),
      });
      await this.ctx.storage.setAlarm(Date.now() + SEND_FAILURE_BACKOFF_MS);
    }
  }

  /** The queue settings last written to gate_meta by this instance: unchanged ones are not written again. */
  #remembered: string | null = null;

  /** Keeps the queue's settings for the alarm, which has no caller to pass them (a write only when they change). */
  private remember(queue: GateQueue): void {
    const value = JSON.stringify(queue);
    if (value === this.#remembered) return;
    this.ctx.storage.sql.exec(
      "INSERT INTO gate_meta (key, value) VALUES ('queue', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      value,
    );
    this.#remembered = value;
  }

  private stored(): GateQueue | null {
    const rows = this.ctx.storage.sql
      .exec<{ value: string }>("SELECT value FROM gate_meta WHERE key = 'queue'")
      .toArray();
    return rows.length ? (JSON.parse(rows[0].value) as GateQueue) : null;
  }

  private async pumpAndArm(queue: GateQueue): Promise<Send[]> {
    const sends = pump(this.ctx.storage.sql, queue, Date.now());
    await this.arm();
    return sends;
  }

  private async arm(): Promise<void> {
    const at = nextWake(this.ctx.storage.sql, Date.now());
    if (at === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.max(at, Date.now()));
  }
}

/** The queue message that starts what the gate sends. */
export function sendMessage(send: Send): ScrapeMessage {
  return send.run === null ? { task_id: send.taskId } : { task_id: send.taskId, run: send.run };
}

/** Sends the messages a gate answered, on the queue's producer binding. */
export async function sendTasks(
  env: Env,
  binding: ScrapeQueueBinding,
  sends: readonly Send[],
): Promise<void> {
  if (!sends.length) return;
  const queue = env[binding] as Queue<ScrapeMessage>;
  const messages: MessageSendRequest<ScrapeMessage>[] = sends.map((s) => ({
    body: sendMessage(s),
    contentType: "json",
  }));
  for (let i = 0; i < messages.length; i += SEND_BATCH_MAX)
    await queue.sendBatch(messages.slice(i, i + SEND_BATCH_MAX));
}

export function queueGate(env: Env, queue: QueueRef): DurableObjectStub<QueueGate> {
  return env.QUEUE_GATE.get(env.QUEUE_GATE.idFromName(queue.name));
}
