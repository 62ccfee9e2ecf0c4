/** One account cannot stall the others: running caps per account, page budgets, task counts per plan. */
import { afterEach, describe, expect, it } from "vitest";
import { createAccount, postJson, submitBody } from "../helpers/api";
import { CONSUMERS, GENERIC_QUEUE, QueueDriver } from "../helpers/queue";
import { DEFAULT_PLAN_LIMITS } from "../../src/settings";
import { retrieve, slug, submitScrape, taskRow } from "./support";
import { env } from "cloudflare:workers";
import { moduleQueue } from "../../src/publishers/queues";
import { GENERIC_MODULE } from "../../src/publishers/registry";
import { queueGate } from "../../src/queue/queue-gate";

let queue: QueueDriver;
afterEach(() => queue.restore());

/** Statuses of a list of tasks, by status code. */
async function statusCounts(taskIds: string[]): Promise<Record<number, number>> {
  const counts: Record<number, number> = {};
  for (const id of taskIds) {
    const status = (await taskRow(id))!.status as number;
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}

describe("fair scheduling", () => {
  it("runs another account's task while one account's 25 slow tasks wait for its 2 running slots", async () => {
    queue = new QueueDriver();
    const a = await createAccount({ plan: "free" });
    const publishers = Object.fromEntries(
      Array.from({ length: 25 }, (_, i) => [
        `p${i + 1}.slow.test`,
        {
          profile_key: `https://p${i + 1}.slow.test/biz/${slug("a")}?ms=1500`,
          last_review_hashes: [],
          first_page_only: true,
        },
      ]),
    );
    const submitted = await postJson(
      "/submit/request-reviews/",
      submitBody(a.apiKey, publishers, { foreign_key: "order-1" }),
    );
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    const aTasks: string[] = submitted.body.tasks.map((t: { tasks_id: string }) => t.tasks_id);
    // B's one task is queued behind all 25 of A's on the same (generic) queue.
    const b = await submitScrape("multipage.test", `https://multipage.test/biz/${slug("b")}`, {
      first_page_only: true,
    });

    // Consumers as wrangler.toml configures the generic queue: up to max_concurrency at once.
    const concurrency = (CONSUMERS[GENERIC_QUEUE] as { max_concurrency?: number }).max_concurrency ?? 1;
    expect(concurrency).toBeGreaterThan(1);
    const inFlight = new Set<Promise<boolean>>();
    let bDone = false;
    let aWhenBDone: Record<number, number> = {};
    for (let rounds = 0; rounds < 500 && !bDone; rounds++) {
      while (inFlight.size < concurrency && queue.dueCount() > 0) {
        const delivery: Promise<boolean> = queue.deliverNext().finally(() => inFlight.delete(delivery));
        inFlight.add(delivery);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
      if ((await taskRow(b.taskId))!.status === 200) {
        bDone = true;
        aWhenBDone = await statusCounts(aTasks);
      }
    }
    expect(bDone).toBe(true);
    // While B ran to completion, A had at most its plan's 2 tasks running and none finished; the
    // rest waited as queued tasks in the queue's gate instead of holding a consumer or a retry.
    expect(DEFAULT_PLAN_LIMITS.free.concurrent_tasks).toBe(2);
    expect(aWhenBDone[200] ?? 0).toBe(0);
    expect(aWhenBDone[101] ?? 0).toBeLessThanOrEqual(2);
    expect(aWhenBDone[100]).toBeGreaterThanOrEqual(23);
    const aSent = queue.sentTo.filter((m) => aTasks.includes((m.body as { task_id: string }).task_id));
    expect(aSent.length).toBeLessThanOrEqual(2 + concurrency);
    expect(queue.deliveries.every((d) => d.outcome === "ack")).toBe(true);
    expect((await retrieve(b)).reviews).toHaveLength(3);
    await Promise.all(inFlight);
  });
});

describe("plan budgets", () => {
  it("ends the walk of an endless next-link site at the plan's pages_per_task and completes with those pages", async () => {
    const limits = { ...DEFAULT_PLAN_LIMITS, basic: { ...DEFAULT_PLAN_LIMITS.basic, pages_per_task: 7 } };
    queue = new QueueDriver({ settings: { PLAN_LIMITS: JSON.stringify(limits) } });
    const { apiKey } = await createAccount({ plan: "basic" });
    const task = await submitScrape(
      "slow.test",
      `https://slow.test/endless/${slug("endless")}`,
      {},
      {},
      apiKey,
    );
    await queue.drain();
    const body = await retrieve(task, 1, 100);
    expect(body.task_status).toBe(200);
    expect(body.pagination.total_reviews).toBe(21);
    expect(body.business.reviews_urls).toHaveLength(7);
  });

  it("counts every task of a submit against the plan's tasks per minute, with X-Tasks-* headers", async () => {
    queue = new QueueDriver();
    const { apiKey } = await createAccount({ plan: "free" });
    const limit = DEFAULT_PLAN_LIMITS.free.tasks_per_minute!;
    const publishers = (n: number, from: number) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [
          `p${from + i}.slow.test`,
          {
            profile_key: `https://p${from + i}.slow.test/biz/x`,
            last_review_hashes: [],
            first_page_only: true,
          },
        ]),
      );
    const first = await postJson("/submit/request-reviews/", submitBody(apiKey, publishers(25, 1)));
    expect(first.status).toBe(201);
    expect([first.headers.get("X-Tasks-Limit"), first.headers.get("X-Tasks-Remaining")]).toEqual([
      String(limit),
      String(limit - 25),
    ]);
    const second = await postJson(
      "/submit/request-reviews/",
      submitBody(apiKey, publishers(limit - 25 + 1, 30)),
    );
    expect(second.status).toBe(429);
    expect(second.body).toEqual({
      error: "Too Many Requests",
      details: {
        rate_limit: [
          `free plan allows ${limit} tasks per minute. Retry after ${second.headers.get("Retry-After")} seconds.`,
        ],
      },
    });
    expect(second.headers.get("X-Tasks-Remaining")).toBe(String(limit - 25));
    // Refused whole: nothing of the second submit was queued (the first's 25 wait in the queue's gate).
    const held = (await queueGate(env, moduleQueue(GENERIC_MODULE.name)).counts()).reduce(
      (n, c) => n + c.n,
      0,
    );
    expect(held).toBe(25);
  });
});
