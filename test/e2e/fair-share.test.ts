/**
 * Fair share of a scraping queue (docs/architecture.md, "Product decisions"; src/queue/fair-share.ts): no account holds
 * more than ⌈consumer concurrency ÷ accounts with waiting or running tasks⌉ of the queue; alone, an
 * account uses all of it; a newcomer's first task starts at the next page boundary of the running
 * ones, whatever the size of the backlog in front of it.
 *
 * Driven like the platform: up to the queue's max_concurrency deliveries in flight at once through
 * the Worker's real queue handler (test/helpers/queue.ts), pages answered by a slow fixture site.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { createAccount, postJson, submitBody } from "../helpers/api";
import { CONSUMERS, GENERIC_QUEUE, QueueDriver, resetQueueGates } from "../helpers/queue";
import { DEFAULT_PLAN_LIMITS } from "../../src/settings";
import { moduleQueue } from "../../src/publishers/queues";
import { GENERIC_MODULE } from "../../src/publishers/registry";
import { QUEUE_CONCURRENCY } from "../../src/queue/concurrency";
import { fairShare } from "../../src/queue/fair-share";
import { queueGate } from "../../src/queue/queue-gate";
import { slug, taskRow } from "./support";

const CONCURRENCY = (CONSUMERS[GENERIC_QUEUE] as { max_concurrency?: number }).max_concurrency ?? 1;
/** Each page of the backlog's tasks answers after this long; each task has PAGES of them. */
const PAGE_MS = 150;
const PAGES = 4;
const LIMITS = JSON.stringify({
  ...DEFAULT_PLAN_LIMITS,
  pro: { ...DEFAULT_PLAN_LIMITS.pro, pages_per_task: PAGES },
});

let queue: QueueDriver | undefined;
afterEach(() => queue?.restore());

/** `count` slow multi-page tasks for the account, in submits of 25 publishers. */
async function backlog(apiKey: string, count: number, name: string): Promise<string[]> {
  const ids: string[] = [];
  for (let from = 0; from < count; from += 25) {
    const publishers = Object.fromEntries(
      Array.from({ length: Math.min(25, count - from) }, (_, i) => [
        `p${from + i}.slow.test`,
        {
          profile_key: `https://p${from + i}.slow.test/endless/${slug(name)}?ms=${PAGE_MS}`,
          last_review_hashes: [],
          first_page_only: false,
        },
      ]),
    );
    const res = await postJson(
      "/submit/request-reviews/",
      submitBody(apiKey, publishers, { foreign_key: `${name}-${from}` }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ids.push(...res.body.tasks.map((t: { tasks_id: string }) => t.tasks_id));
  }
  return ids;
}

/** One quick one-page task of the account. */
async function oneTask(apiKey: string, name: string): Promise<string> {
  const publishers = {
    "multipage.test": {
      profile_key: `https://multipage.test/biz/${slug(name)}`,
      last_review_hashes: [],
      first_page_only: true,
    },
  };
  const res = await postJson(
    "/submit/request-reviews/",
    submitBody(apiKey, publishers, { foreign_key: name }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.tasks_id;
}

/** Runs held per account in the generic queue's gate. */
async function running(): Promise<Record<string, number>> {
  return (await gateState()).running;
}

/**
 * One snapshot of the generic queue's gate: runs held per account, and the accounts with any task
 * there (waiting, sent or running): the divisor of the share at that moment.
 */
async function gateState(): Promise<{ running: Record<string, number>; active: Set<string> }> {
  const counts = await queueGate(env, moduleQueue(GENERIC_MODULE.name)).counts();
  return {
    running: Object.fromEntries(counts.filter((c) => c.state === "running").map((c) => [c.account_id, c.n])),
    active: new Set(counts.map((c) => c.account_id)),
  };
}

/**
 * Keeps up to CONCURRENCY deliveries in flight (as the platform's consumers would) until `step`
 * returns true; `step` runs every 20 ms. Returns the message bodies in the order deliveries started.
 */
async function drive(
  step: () => Promise<boolean>,
  maxMs = 60_000,
  started: { task_id: string }[] = [],
): Promise<{ task_id: string }[]> {
  const inFlight = new Set<Promise<boolean>>();
  const end = Date.now() + maxMs;
  while (Date.now() < end) {
    while (inFlight.size < CONCURRENCY && queue!.dueCount() > 0) {
      const next = queue!.pending.find((p) => p.availableAt <= Date.now());
      if (next) started.push(next.body as { task_id: string });
      const delivery: Promise<boolean> = queue!.deliverNext().finally(() => inFlight.delete(delivery));
      inFlight.add(delivery);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (await step()) break;
  }
  await Promise.all(inFlight);
  return started;
}

describe("fair share of a publisher queue", () => {
  it("QUEUE_CONCURRENCY in the code matches every consumer's max_concurrency in wrangler.toml", () => {
    const fromToml = Object.fromEntries(
      Object.values(CONSUMERS)
        .filter((c) => c.queue.startsWith("scrape-") && c.queue !== "scrape-dlq")
        .map((c) => [c.queue, (c as { max_concurrency?: number }).max_concurrency ?? 1]),
    );
    expect(QUEUE_CONCURRENCY).toEqual(fromToml);
  });

  it("the share is ⌈concurrency ÷ accounts⌉", () => {
    expect([1, 2, 3, 4, 5].map((n) => fairShare(4, n))).toEqual([4, 2, 2, 1, 1]);
    expect(fairShare(1, 3)).toBe(1);
  });

  it("one account alone gets the whole queue: all of its consumers at once", async () => {
    queue = new QueueDriver({ settings: { PLAN_LIMITS: LIMITS } });
    expect(CONCURRENCY).toBe(4);
    const a = await createAccount({ plan: "pro" });
    expect(DEFAULT_PLAN_LIMITS.pro.concurrent_tasks).toBeGreaterThan(CONCURRENCY);
    await backlog(a.apiKey, 12, "alone");
    let most = 0;
    await drive(async () => {
      most = Math.max(most, (await running())[a.accountId] ?? 0);
      return most >= CONCURRENCY;
    }, 20_000);
    expect(most).toBe(CONCURRENCY);
  });

  it("two accounts: a newcomer's task starts within a page behind a backlog, and each then holds at most ⌈4 ÷ 2⌉ = 2", async () => {
    queue = new QueueDriver({ settings: { PLAN_LIMITS: LIMITS } });
    const a = await createAccount({ plan: "pro" });
    const b = await createAccount({ plan: "pro" });
    const aTasks = await backlog(a.apiKey, 40, "two-a");
    let bTask: string | null = null;
    let bSubmittedAt = 0;
    let bStartedAt = 0;
    let aMostWhileShared = 0;
    let bMost = 0;
    let aUnfinished = 0;
    let pendingAtEnd = 0;
    await drive(async () => {
      const { running: held, active } = await gateState();
      if (!bTask) {
        // B arrives once A holds the whole queue.
        if ((held[a.accountId] ?? 0) === CONCURRENCY) {
          bTask = await oneTask(b.apiKey, "two-b");
          bSubmittedAt = Date.now();
        }
        return false;
      }
      if (!bStartedAt && (await taskRow(bTask))!.status !== 100) bStartedAt = Date.now();
      // Shares are checked once A's runs reached a page boundary after B arrived, and while B still
      // has its task in the gate (once it is gone, A may take the whole queue again).
      if (Date.now() - bSubmittedAt > PAGE_MS * 3 && active.has(b.accountId))
        aMostWhileShared = Math.max(aMostWhileShared, held[a.accountId] ?? 0);
      bMost = Math.max(bMost, held[b.accountId] ?? 0);
      if ((await taskRow(bTask))!.status !== 200) return false;
      // When B's task is done, A's backlog is still mostly waiting, in the gate and not in the queue.
      for (const id of aTasks) if ((await taskRow(id))!.status !== 200) aUnfinished++;
      pendingAtEnd = queue!.pending.length;
      return true;
    });
    expect(bTask).not.toBeNull();
    expect((await taskRow(bTask!))!.status).toBe(200);
    // Within a couple of pages of A's runs, not after A's backlog (40 tasks × 4 pages ÷ 4 consumers).
    expect(bStartedAt - bSubmittedAt).toBeLessThan(PAGE_MS * 10);
    expect(aMostWhileShared).toBeLessThanOrEqual(fairShare(CONCURRENCY, 2));
    expect(bMost).toBeLessThanOrEqual(fairShare(CONCURRENCY, 2));
    expect(aUnfinished).toBeGreaterThan(30);
    expect(pendingAtEnd).toBeLessThanOrEqual(CONCURRENCY);
    // No retry was spent on waiting: every delivery was acknowledged.
    expect(queue.deliveries.every((d) => d.outcome === "ack")).toBe(true);
  });

  it("three accounts: each holds at most ⌈4 ÷ 3⌉ = 2, and both newcomers start behind the backlog", async () => {
    queue = new QueueDriver({ settings: { PLAN_LIMITS: LIMITS } });
    const a = await createAccount({ plan: "pro" });
    const b = await createAccount({ plan: "pro" });
    const c = await createAccount({ plan: "pro" });
    await backlog(a.apiKey, 30, "three-a");
    let others: string[] = [];
    let since = 0;
    const most: Record<string, number> = {};
    await drive(async () => {
      const { running: held, active } = await gateState();
      if (!others.length) {
        if ((held[a.accountId] ?? 0) === CONCURRENCY) {
          others = [...(await backlog(b.apiKey, 3, "three-b")), ...(await backlog(c.apiKey, 3, "three-c"))];
          since = Date.now();
        }
        return false;
      }
      // Checked while all three accounts have tasks in the gate (the share is ⌈4 ÷ 3⌉ only then).
      if (Date.now() - since > PAGE_MS * 3 && active.size === 3)
        for (const [account, n] of Object.entries(held)) most[account] = Math.max(most[account] ?? 0, n);
      const statuses = await Promise.all(others.map(async (id) => (await taskRow(id))!.status));
      return statuses.every((s) => s === 200);
    });
    const share = fairShare(CONCURRENCY, 3);
    expect(share).toBe(2);
    for (const account of [a, b, c]) expect(most[account.accountId] ?? 0).toBeLessThanOrEqual(share);
    expect(most[b.accountId]).toBeGreaterThan(0);
    expect(most[c.accountId]).toBeGreaterThan(0);
  });

  it("a newcomer's wait does not grow with the backlog: it is delivered after the same few messages behind 8 or 80 tasks", async () => {
    const positions: number[] = [];
    for (const size of [8, 80]) {
      queue = new QueueDriver({ settings: { PLAN_LIMITS: LIMITS } });
      const a = await createAccount({ plan: "pro" });
      const b = await createAccount({ plan: "pro" });
      await backlog(a.apiKey, size, `grow-a-${size}`);
      let bTask: string | null = null;
      let startedAtSubmit = 0;
      const started: { task_id: string }[] = [];
      await drive(
        async () => {
          if (!bTask) {
            if (((await running())[a.accountId] ?? 0) === CONCURRENCY) {
              bTask = await oneTask(b.apiKey, `grow-b-${size}`);
              startedAtSubmit = started.length;
            }
            return false;
          }
          return (await taskRow(bTask))!.status !== 100;
        },
        20_000,
        started,
      );
      const index = started.findIndex((m) => m.task_id === bTask);
      expect(index).toBeGreaterThanOrEqual(0);
      positions.push(index - startedAtSubmit);
      queue.restore();
      queue = undefined;
      await resetQueueGates();
    }
    // Deliveries started between B's submit and B's own: a handful either way (each of A's runs
    // hands over at its next page), not a number that scales with A's backlog.
    expect(Math.max(...positions)).toBeLessThanOrEqual(2 * CONCURRENCY);
  }, 90_000);
});
