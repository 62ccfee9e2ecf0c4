/**
 * Drives the scrape queue by hand in tests: captures what the Worker sends to SCRAPE_QUEUE (send
 * and sendBatch) and delivers it, one message per batch as wrangler.toml configures, to the
 * Worker's real queue() handler. Acks drop a message; retries deliver it again with attempts + 1
 * (delays are recorded, not waited); after max_retries a message goes to the dead-letter queue,
 * whose delivery runs the same handler.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import worker from "../../src/index";

export const SCRAPE_QUEUE = "scrape-tasks";
export const DEAD_LETTER_QUEUE = "scrape-tasks-dlq";
/** max_retries of the scrape queue consumer in wrangler.toml. */
export const MAX_RETRIES = 5;

export interface Delivery {
  queue: string;
  body: unknown;
  attempts: number;
  outcome: "ack" | "retry" | "crash";
  delaySeconds?: number;
}

interface Pending {
  id: string;
  queue: string;
  body: unknown;
  attempts: number;
}

export class QueueDriver {
  readonly deliveries: Delivery[] = [];
  /** Every body the Worker sent to the scrape queue, in order. */
  readonly sent: unknown[] = [];
  #pending: Pending[] = [];
  #crash: (() => Promise<unknown>) | null = null;
  #env: Env;

  /** `settings` overrides the Worker's plain settings (vars) for the deliveries of this driver. */
  constructor(options: { settings?: Partial<Pick<Env, "ALLOW_PRIVATE_NETWORK" | "PUBLISHER_ORIGINS" | "PAGES_PER_RUN">> } = {}) {
    this.#env = options.settings ? { ...env, ...options.settings } : env;
  }
  #spies = [
    vi.spyOn(env.SCRAPE_QUEUE, "send").mockImplementation(async (body) => {
      this.#enqueue(body);
      return { metadata: { metrics: { backlogCount: this.#pending.length, backlogBytes: 0 } } };
    }),
    vi.spyOn(env.SCRAPE_QUEUE, "sendBatch").mockImplementation(async (messages) => {
      for (const message of messages) this.#enqueue(message.body);
      return { metadata: { metrics: { backlogCount: this.#pending.length, backlogBytes: 0 } } };
    }),
  ];

  #enqueue(body: unknown, attempts = 1, queue = SCRAPE_QUEUE): void {
    this.sent.push(body);
    this.#pending.push({ id: crypto.randomUUID(), queue, body, attempts });
  }

  get pending(): readonly Pending[] {
    return this.#pending;
  }

  /**
   * The next delivery dies the way a Worker does when its isolate goes away: once `crashPoint`
   * resolves, the handler is abandoned mid-run (no cleanup, no ack) and the message comes back,
   * as the queue would redeliver it.
   */
  crashNextDeliveryWhen(crashPoint: () => Promise<unknown>): void {
    this.#crash = crashPoint;
  }

  /** Delivers every pending message twice from now on, as an at-least-once queue may. */
  duplicatePending(): void {
    this.#pending = this.#pending.flatMap((item) => [item, { ...item, id: crypto.randomUUID() }]);
  }

  /** Sends every pending scrape message to the dead-letter queue, as if its retries had run out. */
  moveToDeadLetters(): void {
    this.#pending = this.#pending.map((item) => (item.queue === SCRAPE_QUEUE ? { ...item, queue: DEAD_LETTER_QUEUE, attempts: 1 } : item));
  }

  /** Delivers the oldest pending message; returns false when there is none. */
  async deliverNext(): Promise<boolean> {
    const item = this.#pending.shift();
    if (!item) return false;
    const batch = createMessageBatch(item.queue, [{ id: item.id, timestamp: new Date(), attempts: item.attempts, body: item.body }]);
    // The test harness records that a message was retried but not its delay: watch the call.
    const retry = vi.spyOn(batch.messages[0], "retry");
    const ctx = createExecutionContext();
    const handled = worker.queue(batch, this.#env, ctx).then(
      () => "done" as const,
      () => "threw" as const,
    );
    const crash = this.#crash;
    this.#crash = null;
    const ending = await (crash ? Promise.race([handled, crash().then(() => "crash" as const)]) : handled);
    const record = (outcome: Delivery["outcome"], delaySeconds?: number) =>
      this.deliveries.push({ queue: item.queue, body: item.body, attempts: item.attempts, outcome, delaySeconds });
    if (ending === "crash") {
      record("crash");
      this.#pending.unshift({ ...item, attempts: item.attempts + 1 });
      return true;
    }
    const result = await getQueueResult(batch, ctx);
    const retried = ending === "threw" || result.retryBatch.retry || result.retryMessages.some((m) => m.msgId === item.id);
    const acked = result.ackAll || result.explicitAcks.includes(item.id);
    if (retried && !acked) {
      const delaySeconds = retry.mock.calls[0]?.[0]?.delaySeconds;
      record("retry", delaySeconds);
      if (item.queue === DEAD_LETTER_QUEUE || item.attempts <= MAX_RETRIES) this.#pending.push({ ...item, attempts: item.attempts + 1 });
      else this.#pending.push({ id: crypto.randomUUID(), queue: DEAD_LETTER_QUEUE, body: item.body, attempts: 1 });
    } else {
      record("ack");
    }
    return true;
  }

  /** Delivers until nothing is pending. */
  async drain(maxDeliveries = 100): Promise<Delivery[]> {
    const start = this.deliveries.length;
    for (let i = 0; await this.deliverNext(); i++) {
      if (i >= maxDeliveries) throw new Error(`Queue not idle after ${maxDeliveries} deliveries`);
    }
    return this.deliveries.slice(start);
  }

  restore(): void {
    for (const spy of this.#spies) spy.mockRestore();
  }
}
