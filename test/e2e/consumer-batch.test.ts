/**
 * A scraping consumer runs every message of its batch at once (src/app/queue/consumer.ts), and
 * wrangler.toml sizes each scraping queue's batches to the runs its gate lets fly (max_batch_size =
 * max_concurrency, max_batch_timeout = 0). Delivered through the Worker's real queue handler in
 * batches of the real max_batch_size (test/helpers/queue.ts, deliverBatch).
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAccount, failed, postJson, submitBody } from "../helpers/api";
import { CONSUMERS, GENERIC_QUEUE, QueueDriver } from "../helpers/queue";
import { MULTIPAGE } from "../fixtures/reviews";
import { RUNS_PER_INVOCATION } from "../../src/app/queue/consumer";
import { moduleQueue } from "../../src/publishers/queues";
import { GENERIC_MODULE } from "../../src/publishers/registry";
import { queueGate } from "../../src/queue/queue-gate";
import { expectedReview, fixtureRequests, retrieve, slug, submitScrape, taskRow } from "./support";

let queue: QueueDriver | undefined;
afterEach(() => {
  queue?.restore();
  vi.useRealTimers();
});

const SCRAPING = Object.values(CONSUMERS).filter(
  (c) => c.queue.startsWith("scrape-") && c.queue !== "scrape-dlq",
);

describe("scraping consumers walk their batch side by side", () => {
  it("every scraping queue takes a batch as large as its concurrency, delivered without waiting", () => {
    expect(SCRAPING.length).toBeGreaterThan(20);
    for (const consumer of SCRAPING) {
      expect({
        queue: consumer.queue,
        size: consumer.max_batch_size,
        timeout: consumer.max_batch_timeout,
      }).toEqual({
        queue: consumer.queue,
        size: consumer.max_concurrency,
        timeout: 0,
      });
    }
  });

  it("one invocation runs its batch's three tasks at the same time: pages that only answer together all arrive", async () => {
    queue = new QueueDriver();
    const { apiKey } = await createAccount();
    // Each page answers only once all three are in flight at once (5 s later it is a 503 instead).
    const key = slug("barrier");
    const publishers = Object.fromEntries(
      [1, 2, 3].map((i) => [
        `b${i}.slow.test`,
        {
          profile_key: `https://b${i}.slow.test/barrier/${key}/${slug(`t${i}`)}?n=3`,
          last_review_hashes: [],
          first_page_only: true,
        },
      ]),
    );
    const res = await postJson("/submit/request-reviews/", submitBody(apiKey, publishers));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const tasks = res.body.tasks as { publisher_key: string; tasks_id: string }[];
    expect(queue.dueCount()).toBe(3);

    expect(await queue.deliverBatch()).toBe(true);
    // One batch held all three messages, and each was acknowledged on the first attempt.
    expect(queue.deliveries.map((d) => [d.queue, d.attempts, d.outcome])).toEqual([
      [GENERIC_QUEUE, 1, "ack"],
      [GENERIC_QUEUE, 1, "ack"],
      [GENERIC_QUEUE, 1, "ack"],
    ]);
    for (const task of tasks) {
      const body = await retrieve({ apiKey, taskId: task.tasks_id, publisher: task.publisher_key });
      expect(body.task_status).toBe(200);
      expect(body.reviews.map((r: { author_name: string }) => r.author_name)).toEqual(
        MULTIPAGE.slice(0, 2).map((r) => r.author),
      );
    }
  });

  it("settles each message of a batch on its own: a retry, a failure, a malformed body and a success side by side", async () => {
    queue = new QueueDriver();
    const flaky = await submitScrape("status.test", `https://status.test/flaky/${slug("batch-flaky")}`);
    const gone = await submitScrape("status.test", `https://status.test/gone/${slug("batch-gone")}`);
    const goodPath = `/biz/${slug("batch-good")}`;
    const good = await submitScrape("multipage.test", `https://multipage.test${goodPath}`, {
      first_page_only: true,
    });
    await env.SCRAPE_GENERIC.send({ not: "a scrape message" });
    expect(queue.dueCount()).toBe(4);

    await queue.deliverBatch();
    const outcomes = queue.deliveries.map((d) => [
      (d.body as { task_id?: string }).task_id ?? "malformed",
      d.outcome,
      d.delaySeconds,
    ]);
    expect(outcomes).toEqual([
      [flaky.taskId, "retry", 15],
      [gone.taskId, "ack", undefined],
      [good.taskId, "ack", undefined],
      ["malformed", "ack", undefined],
    ]);
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    expect((await retrieve(good)).reviews).toEqual(
      MULTIPAGE.slice(0, 3).map((r) => expectedReview(r, `https://multipage.test${goodPath}`)),
    );
    expect((await retrieve(flaky)).response_message[0].task_status).toBe(101);

    // Only the retried message comes back; its task then completes.
    await queue.drain();
    expect(
      queue.deliveries.slice(4).map((d) => [(d.body as { task_id: string }).task_id, d.attempts, d.outcome]),
    ).toEqual([[flaky.taskId, 2, "ack"]]);
    expect(await taskRow(flaky.taskId)).toMatchObject({ status: 200, reason: null });
    expect(await fixtureRequests("multipage.test", goodPath)).toEqual({ [goodPath]: 1 });
  });

  it("a run that frees its slot runs the gate's next task itself: six tasks, four messages, one batch", async () => {
    queue = new QueueDriver();
    const { apiKey } = await createAccount();
    const paths = [1, 2, 3, 4, 5, 6].map((i) => `/biz/${slug(`chain-${i}`)}`);
    const tasks: Awaited<ReturnType<typeof submitScrape>>[] = [];
    for (const path of paths)
      tasks.push(
        await submitScrape(
          "multipage.test",
          `https://multipage.test${path}`,
          { first_page_only: true },
          {},
          apiKey,
        ),
      );
    // The generic queue has four slots: four messages went out, two tasks wait in the gate.
    expect(queue.sentTo.map((m) => (m.body as { task_id: string }).task_id)).toEqual(
      tasks.slice(0, 4).map((t) => t.taskId),
    );

    await queue.deliverBatch();
    expect(queue.deliveries.map((d) => d.outcome)).toEqual(["ack", "ack", "ack", "ack"]);
    // The two waiting tasks ran inside that batch, taken over by the runs that freed their slots.
    expect(queue.sentTo).toHaveLength(4);
    expect(queue.pending).toHaveLength(0);
    for (const task of tasks) expect(await taskRow(task.taskId)).toMatchObject({ status: 200, reason: null });
    for (const path of paths) expect(await fixtureRequests("multipage.test", path)).toEqual({ [path]: 1 });
  });

  it("a taken-over run that must retry goes out as a message that counts its attempt: 4 attempts in all, then blocked", async () => {
    queue = new QueueDriver();
    const { apiKey } = await createAccount();
    for (let i = 1; i <= 4; i++)
      await submitScrape(
        "multipage.test",
        `https://multipage.test/biz/${slug(`before-${i}`)}`,
        { first_page_only: true },
        {},
        apiKey,
      );
    const path = `/unavailable/${slug("chain-503")}`;
    const down = await submitScrape("status.test", `https://status.test${path}`, {}, {}, apiKey);
    expect(queue.sentTo).toHaveLength(4);

    await queue.deliverBatch();
    // Its first attempt ran inside the batch; its retry is a message carrying that attempt.
    expect(queue.sentTo.slice(4)).toEqual([
      { queue: GENERIC_QUEUE, body: { task_id: down.taskId, prior_attempts: 1 }, delaySeconds: 15 },
    ]);
    await queue.drain();
    expect(queue.deliveries.slice(4).map((d) => [d.attempts, d.outcome, d.delaySeconds])).toEqual([
      [1, "retry", 45],
      [2, "retry", 135],
      [3, "ack", undefined],
    ]);
    expect(await fixtureRequests("status.test", path)).toEqual({ [path]: 4 });
    expect((await retrieve(down)).response_message).toEqual(failed("blocked"));
  });

  it("while earlier messages wait for a consumer, a run sends the gate's next task as a message and its invocation ends", async () => {
    queue = new QueueDriver();
    const { apiKey } = await createAccount();
    const tasks: Awaited<ReturnType<typeof submitScrape>>[] = [];
    for (let i = 1; i <= 5; i++)
      tasks.push(
        await submitScrape(
          "multipage.test",
          `https://multipage.test/biz/${slug(`stall-${i}`)}`,
          { first_page_only: true },
          {},
          apiKey,
        ),
      );
    expect(queue.sentTo).toHaveLength(4);
    // Two seconds on, three of the four messages still wait: the queue's consumers are busy.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 2_000);
    await queue.deliverBatch(1);
    // The fifth task went out as a message instead of running in this invocation.
    expect(queue.sentTo.map((m) => (m.body as { task_id: string }).task_id)).toEqual(
      tasks.map((t) => t.taskId),
    );
    expect(await taskRow(tasks[4].taskId)).toMatchObject({ status: 100 });
    await queue.drain();
    for (const task of tasks) expect(await taskRow(task.taskId)).toMatchObject({ status: 200 });
  });

  it(`one invocation runs at most ${RUNS_PER_INVOCATION} runs, its batch's included; the rest go out as messages`, async () => {
    queue = new QueueDriver();
    const { apiKey } = await createAccount({ plan: "unlimited" });
    const total = RUNS_PER_INVOCATION + 8;
    const ids: string[] = [];
    // Submits of at most 25 publishers each.
    for (let from = 0; from < total; from += 20) {
      const publishers = Object.fromEntries(
        Array.from({ length: Math.min(20, total - from) }, (_, k) => [
          `r${from + k}.slow.test`,
          {
            profile_key: `https://r${from + k}.slow.test/biz/${slug(`budget-${from + k}`)}`,
            last_review_hashes: [],
            first_page_only: true,
          },
        ]),
      );
      const res = await postJson("/submit/request-reviews/", submitBody(apiKey, publishers));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.push(...(res.body.tasks as { tasks_id: string }[]).map((t) => t.tasks_id));
    }
    expect(queue.sentTo).toHaveLength(4);

    await queue.deliverBatch();
    expect(queue.deliveries).toHaveLength(4);
    let done = 0;
    for (const id of ids) if ((await taskRow(id))!.status === 200) done++;
    expect(done).toBe(RUNS_PER_INVOCATION);
    // The slots the last runs freed were sent as messages; they finish the rest.
    expect(queue.pending.length).toBeGreaterThan(0);
    await queue.drain();
    for (const id of ids) expect(await taskRow(id)).toMatchObject({ status: 200 });
  });

  it("a message for a task that no longer exists is acknowledged and its queue's gate forgets the task", async () => {
    queue = new QueueDriver();
    const { apiKey, accountId } = await createAccount();
    const gone = await submitScrape(
      "multipage.test",
      `https://multipage.test/biz/${slug("gone-task")}`,
      { first_page_only: true },
      {},
      apiKey,
    );
    const gate = queueGate(env, moduleQueue(GENERIC_MODULE.name));
    expect((await gate.counts()).filter((c) => c.account_id === accountId)).toEqual([
      { account_id: accountId, state: "sent", n: 1 },
    ]);
    await env.DB.prepare("DELETE FROM tasks WHERE id = ?").bind(gone.taskId).run();

    await queue.deliverBatch();
    expect(queue.deliveries.map((d) => d.outcome)).toEqual(["ack"]);
    expect((await gate.counts()).filter((c) => c.account_id === accountId)).toEqual([]);
  });
});
