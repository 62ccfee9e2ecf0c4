/**
 * Drives the scraping queues by hand in tests: captures what the Worker sends to every scraping
 * queue (send and sendBatch on each SCRAPE_* producer) and delivers it to the Worker's real queue()
 * handler under the queue's real name: one message per batch (`deliverNext`, `drain`), as the
 * platform does when one message is due, or as many as are due up to the queue's max_batch_size
 * (`deliverBatch`). The consumer settings are the ones in wrangler.toml (vitest.config.ts passes
 * them in): max_batch_size, max_retries, retry_delay and dead_letter_queue.
 *
 * Delays are honoured as the platform does: a message sent or retried with a delay is not delivered
 * before its time. When nothing is due, the driver moves the clock (vi.setSystemTime, which the
 * Worker's code in this isolate sees as Date.now()) to the next message's time, so leases expire and
 * time budgets run out exactly as they would.
 */
import {
  createExecutionContext,
  createMessageBatch,
  getQueueResult,
  runInDurableObject,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, vi } from "vitest";
import worker from "../../src/index";
import type { ScrapeQueueBinding } from "../../src/queue/queue-gate";
import { gateQueue } from "../../src/queue/concurrency";
import { queueGate } from "../../src/queue/queue-gate";
import { moduleQueue } from "../../src/publishers/queues";
import { ALL_MODULES } from "../../src/publishers/registry";

/**
 * Empties every queue's gate (src/queue/queue-gate.ts): tasks an earlier test left waiting there
 * (their queue messages discarded with that test's driver) would otherwise take the queue's share
 * from the next test's tasks. test/setup runs it before every test.
 */
export async function resetQueueGates(): Promise<void> {
  await Promise.all(
    ALL_MODULES.map((module) =>
      runInDurableObject(queueGate(env, moduleQueue(module.name)), async (_gate, state) => {
        state.storage.sql.exec("DELETE FROM gate_tasks");
        await state.storage.deleteAlarm();
      }),
    ),
  );
}

interface ConsumerSettings {
  queue: string;
  max_batch_size?: number;
  max_batch_timeout?: number;
  max_concurrency?: number;
  max_retries?: number;
  retry_delay?: number;
  dead_letter_queue?: string;
}

export const CONSUMERS: Record<string, ConsumerSettings> = Object.fromEntries(
  (JSON.parse(env.TEST_QUEUE_CONSUMERS) as ConsumerSettings[]).map((c) => [c.queue, c]),
);
/** Producer binding → queue name, for every SCRAPE_* producer in wrangler.toml. */
export const PRODUCERS: Record<string, string> = Object.fromEntries(
  (JSON.parse(env.TEST_QUEUE_PRODUCERS) as { binding: string; queue: string }[]).map((p) => [
    p.binding,
    p.queue,
  ]),
);
export const GENERIC_QUEUE = PRODUCERS.SCRAPE_GENERIC;
export const DEAD_LETTER_QUEUE = CONSUMERS[GENERIC_QUEUE].dead_letter_queue!;
/** Platform defaults where wrangler.toml sets nothing. */
const DEFAULT_MAX_RETRIES = 3;
const DEFAULT_RETRY_DELAY = 0;

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
  /** Milliseconds since the epoch before which the message is not delivered. */
  availableAt: number;
}

type Settings = Partial<
  Pick<
    Env,
    | "ALLOW_PRIVATE_NETWORK"
    | "PUBLISHER_ORIGINS"
    | "PAGES_PER_RUN"
    | "BROWSER_SESSIONS_MAX"
    | "MAX_PAGE_BYTES"
    | "PLAN_LIMITS"
    | "FETCH_ROUTES"
    | "BRIGHTDATA_ZONE"
    | "PROVIDER_ORIGINS"
    | "RUN_LEASE_SECONDS"
  >
> & {
  /** Provider keys (Worker secrets, src/core/fetch-routes.ts). */
  ZYTE_API_KEY?: string;
  BRIGHTDATA_API_KEY?: string;
  SCRAPFLY_API_KEY?: string;
};

export class QueueDriver {
  readonly deliveries: Delivery[] = [];
  /** Every body the Worker sent to any scraping queue, in order. */
  readonly sent: unknown[] = [];
  /** Every message the Worker sent, with its queue and delay. */
  readonly sentTo: { queue: string; body: unknown; delaySeconds?: number }[] = [];
  #pending: Pending[] = [];
  #crash: (() => Promise<unknown>) | null = null;
  #env: Env;
  #spies: { mockRestore(): void }[] = [];
  #clockMoved = false;

  /**
   * `settings` overrides the Worker's plain settings (vars) for the deliveries of this driver; `env`
   * replaces the whole env they get (a test's metered or failing bindings around the real ones).
   */
  constructor(options: { settings?: Settings; env?: Env } = {}) {
    this.#env = options.env ?? (options.settings ? { ...env, ...options.settings } : env);
    for (const [binding, queue] of Object.entries(PRODUCERS)) {
      const producer = env[binding as keyof Env] as Queue<unknown>;
      this.#spies.push(
        vi.spyOn(producer, "send").mockImplementation(async (body, opts) => {
          this.#enqueue(queue, body, opts?.delaySeconds);
          return { metadata: { metrics: { backlogCount: this.#pending.length, backlogBytes: 0 } } };
        }),
        vi.spyOn(producer, "sendBatch").mockImplementation(async (messages, opts) => {
          for (const message of messages)
            this.#enqueue(queue, message.body, message.delaySeconds ?? opts?.delaySeconds);
          return { metadata: { metrics: { backlogCount: this.#pending.length, backlogBytes: 0 } } };
        }),
      );
    }
  }

  #enqueue(queue: string, body: unknown, delaySeconds?: number): void {
    this.sent.push(body);
    this.sentTo.push({ queue, body, ...(delaySeconds ? { delaySeconds } : {}) });
    this.#pending.push({
      id: crypto.randomUUID(),
      queue,
      body,
      attempts: 1,
      availableAt: Date.now() + (delaySeconds ?? 0) * 1000,
    });
  }

  get pending(): readonly Pending[] {
    return this.#pending;
  }

  /** Messages a consumer could receive right now (their delay, if any, is over). */
  dueCount(): number {
    return this.#pending.filter((p) => p.availableAt <= Date.now()).length;
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

  /** Loses every pending message, as a queue outage or a dropped send would. */
  discardPending(): void {
    this.#pending = [];
  }

  /** Sends every pending scraping message to its dead-letter queue, as if its retries had run out. */
  moveToDeadLetters(): void {
    this.#pending = this.#pending.map((item) => {
      const dlq = CONSUMERS[item.queue]?.dead_letter_queue;
      return dlq ? { ...item, queue: dlq, attempts: 1 } : item;
    });
  }

  /** The earliest message due now, or, when none is, the clock moved to the earliest one. */
  #takeNext(): Pending | undefined {
    if (!this.#pending.length) return undefined;
    let index = 0;
    for (let i = 1; i < this.#pending.length; i++)
      if (this.#pending[i].availableAt < this.#pending[index].availableAt) index = i;
    const item = this.#pending[index];
    // FIFO among messages already due.
    const dueIndex = this.#pending.findIndex((p) => p.availableAt <= Date.now());
    if (dueIndex >= 0) return this.#pending.splice(dueIndex, 1)[0];
    vi.setSystemTime(item.availableAt);
    this.#clockMoved = true;
    return this.#pending.splice(index, 1)[0];
  }

  /**
   * With nothing in any queue, asks the queues' gates (src/queue/queue-gate.ts) for what they hold
   * back: the clock moves to the earliest gate's next wake (a delayed task, a presumed-lost message
   * or run) and what the gates then send is queued, as their alarms would on the platform.
   */
  async #wakeGates(): Promise<void> {
    const gates = Object.entries(PRODUCERS).map(([binding, name]) => {
      const ref = { binding: binding as ScrapeQueueBinding, name };
      return { ref, stub: queueGate(env, ref) };
    });
    const wakes = (await Promise.all(gates.map((g) => g.stub.wakeAt()))).filter(
      (at): at is number => at !== null,
    );
    if (!wakes.length) return;
    const at = Math.min(...wakes);
    if (at > Date.now()) {
      vi.setSystemTime(at);
      this.#clockMoved = true;
    }
    for (const { ref, stub } of gates) {
      for (const send of await stub.tick(gateQueue(ref, this.#env)))
        this.#enqueue(
          ref.name,
          send.run === null ? { task_id: send.taskId } : { task_id: send.taskId, run: send.run },
        );
    }
  }

  /** Delivers the oldest due message (moving the clock if needed); returns false when there is none. */
  async deliverNext(): Promise<boolean> {
    return this.deliverBatch(1);
  }

  /**
   * Delivers the oldest due message together with the other messages of its queue due now, up to
   * `size` (by default the queue's max_batch_size in wrangler.toml), as one batch to one invocation
   * of the Worker's queue handler; each message is then settled on its own (ack, retry with its
   * delay, dead letter). Returns false when nothing is pending.
   */
  async deliverBatch(size?: number): Promise<boolean> {
    if (!this.#pending.length) await this.#wakeGates();
    const first = this.#takeNext();
    if (!first) return false;
    const consumer = CONSUMERS[first.queue];
    const limit = size ?? consumer?.max_batch_size ?? 1;
    const items = [first];
    for (let i = 0; i < this.#pending.length && items.length < limit;) {
      const p = this.#pending[i];
      if (p.queue === first.queue && p.availableAt <= Date.now()) items.push(...this.#pending.splice(i, 1));
      else i++;
    }
    const batch = createMessageBatch(
      first.queue,
      items.map((item) => ({ id: item.id, timestamp: new Date(), attempts: item.attempts, body: item.body })),
    );
    // The test harness records that a message was retried but not its delay: watch the calls.
    const retries = batch.messages.map((message) => vi.spyOn(message, "retry"));
    const ctx = createExecutionContext();
    const crash = this.#crash;
    this.#crash = null;
    // A Worker that dies takes its timers with it (a run's heartbeat): those the doomed invocation
    // starts are stopped at the crash, or the abandoned handler would keep its run looking alive.
    const timers: ReturnType<typeof setInterval>[] = [];
    const setIntervalBefore = globalThis.setInterval;
    if (crash)
      globalThis.setInterval = ((...args: Parameters<typeof setInterval>) => {
        const timer = setIntervalBefore(...args);
        timers.push(timer);
        return timer;
      }) as typeof setInterval;
    const handled = worker.queue(batch, this.#env, ctx).then(
      () => "done" as const,
      () => "threw" as const,
    );
    const ending = await (crash ? Promise.race([handled, crash().then(() => "crash" as const)]) : handled);
    globalThis.setInterval = setIntervalBefore;
    if (ending === "crash") for (const timer of timers) clearInterval(timer);
    const retryDelay = consumer?.retry_delay ?? DEFAULT_RETRY_DELAY;
    const result = ending === "crash" ? null : await getQueueResult(batch, ctx);
    if (!result) {
      // The whole invocation died: every message of the batch comes back, in its order, first in line.
      for (const item of items)
        this.deliveries.push({
          queue: item.queue,
          body: item.body,
          attempts: item.attempts,
          outcome: "crash",
        });
      this.#pending.unshift(
        ...items.map((item) => ({
          ...item,
          attempts: item.attempts + 1,
          availableAt: Date.now() + retryDelay * 1000,
        })),
      );
      return true;
    }
    items.forEach((item, i) => {
      const record = (outcome: Delivery["outcome"], delaySeconds?: number) =>
        this.deliveries.push({
          queue: item.queue,
          body: item.body,
          attempts: item.attempts,
          outcome,
          delaySeconds,
        });
      const retried =
        ending === "threw" ||
        result.retryBatch.retry ||
        result.retryMessages.some((m) => m.msgId === item.id);
      const acked = result.ackAll || result.explicitAcks.includes(item.id);
      if (retried && !acked) {
        const delaySeconds = retries[i].mock.calls[0]?.[0]?.delaySeconds;
        record("retry", delaySeconds);
        const availableAt = Date.now() + (delaySeconds ?? retryDelay) * 1000;
        const maxRetries = consumer?.max_retries ?? DEFAULT_MAX_RETRIES;
        if (item.attempts <= maxRetries || !consumer?.dead_letter_queue)
          this.#pending.push({ ...item, attempts: item.attempts + 1, availableAt });
        else
          this.#pending.push({
            id: crypto.randomUUID(),
            queue: consumer.dead_letter_queue,
            body: item.body,
            attempts: 1,
            availableAt: Date.now(),
          });
      } else {
        record("ack");
      }
    });
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
    if (this.#clockMoved) vi.useRealTimers();
  }
}

/**
 * A fresh QueueDriver for every test of the enclosing file or describe block, restored after it
 * together with every spy and fake clock the test made. Call the returned function for the current driver.
 */
export function queuePerTest(): () => QueueDriver {
  let queue: QueueDriver | undefined;
  beforeEach(() => {
    queue = new QueueDriver();
  });
  afterEach(() => {
    queue?.restore();
    vi.restoreAllMocks();
    vi.useRealTimers();
  });
  return () => {
    if (!queue) throw new Error("queuePerTest: no test is running");
    return queue;
  };
}
