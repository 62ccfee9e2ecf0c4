/** At-least-once delivery, crashes and lost messages: the task still ends with each review once. */
import { createScheduledController, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { endUnfinishedTasks } from "../helpers/api";
import { QueueDriver, queuePerTest } from "../helpers/queue";
import { DEFAULT_PLAN_LIMITS } from "../../src/settings";
import { LEASE_MS } from "../../src/app/scrape/lease";
import { RUNNING_TTL_MS } from "../../src/queue/fair-share";
import { queueGate } from "../../src/queue/queue-gate";
import { moduleQueue } from "../../src/publishers/queues";
import { MULTIPAGE, paged } from "../fixtures/reviews";
import {
  expectedReview,
  fixtureRequests,
  newestFirst,
  retrieve,
  reviewRowCount,
  slug,
  submitScrape,
  taskRow,
} from "./support";

const queue = queuePerTest();

/** Each of the 12 pages requested once, except those listed with their count. */
function pageCounts(path: string, except: Record<number, number> = {}) {
  return Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [i === 0 ? path : `${path}?page=${i + 1}`, except[i + 1] ?? 1]),
  );
}

async function expectAllReviewsOnce(task: Awaited<ReturnType<typeof submitScrape>>, profile: string) {
  const expected = newestFirst(
    paged(MULTIPAGE).flatMap((reviews, i) =>
      reviews.map((r) => expectedReview(r, i === 0 ? profile : `${profile}?page=${i + 1}`)),
    ),
  );
  const body = await retrieve(task, 1, 100);
  expect(body.reviews).toEqual(expected);
  expect(body.pagination.total_reviews).toBe(36);
  expect(await reviewRowCount(task.taskId)).toBe(36);
  expect(body.business.reviews_urls).toHaveLength(12);
}

/** Makes R2 puts of one page file behave differently, leaving the others alone. */
function onPagePut(page: number, behave: () => Promise<never>) {
  const put = env.REVIEW_FILES.put.bind(env.REVIEW_FILES);
  let calls = 0;
  vi.spyOn(env.REVIEW_FILES, "put").mockImplementation((key, ...rest) => {
    if (key.includes(`/pages/${page}-`) && calls++ === 0) return behave();
    return put(key, ...rest);
  });
}

describe("at-least-once delivery", () => {
  it("does each run once when every message arrives twice", async () => {
    const path = `/biz/${slug("twice")}`;
    const profile = `https://multipage.test${path}`;
    const task = await submitScrape("multipage.test", profile);
    while (queue().pending.length) {
      queue().duplicatePending();
      await queue().deliverNext();
      await queue().deliverNext();
    }
    expect(queue().deliveries).toHaveLength(6);
    expect(queue().deliveries.every((d) => d.outcome === "ack")).toBe(true);
    expect(await fixtureRequests("multipage.test", path)).toEqual(pageCounts(path));
    await expectAllReviewsOnce(task, profile);
  });

  it("lets only one of two concurrent copies work; the other is dropped as a duplicate while the run is alive", async () => {
    const path = `/biz/${slug("together")}`;
    const profile = `https://multipage.test${path}`;
    const task = await submitScrape("multipage.test", profile, { first_page_only: true });
    queue().duplicatePending();
    await Promise.all([queue().deliverNext(), queue().deliverNext()]);
    // The queue's gate holds the first copy's run; the second is acknowledged without working (the
    // gate itself sends the task again should that run die).
    expect(queue().deliveries.map((d) => d.outcome)).toEqual(["ack", "ack"]);
    expect(await queue().drain()).toEqual([]);
    expect(await fixtureRequests("multipage.test", path)).toEqual({ [path]: 1 });
    expect((await retrieve(task)).reviews).toHaveLength(3);
  });
});

describe("crashes mid-run", () => {
  it("resumes from the last stored page after a run fails midway", async () => {
    const path = `/biz/${slug("resume")}`;
    const profile = `https://multipage.test${path}`;
    const task = await submitScrape("multipage.test", profile);
    // Page 7 (the second page of run 2) cannot be stored the first time.
    onPagePut(7, async () => {
      throw new Error("R2 unavailable");
    });
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.body, d.outcome])).toEqual([
      [{ task_id: task.taskId }, "ack"],
      [{ task_id: task.taskId, run: 2 }, "retry"],
      [{ task_id: task.taskId, run: 2 }, "ack"],
      [{ task_id: task.taskId, run: 3 }, "ack"],
    ]);
    expect(await fixtureRequests("multipage.test", path)).toEqual(pageCounts(path, { 7: 2 }));
    await expectAllReviewsOnce(task, profile);
  });

  /** Starts a lazy 12-page task whose Worker dies while storing page 3 (the put never returns). */
  async function crashWhileStoringPage3(name: string) {
    const path = `/biz/${slug(name)}`;
    const profile = `https://multipage.test${path}`;
    const task = await submitScrape("multipage.test", profile, {}, { lazy: true });
    let reachedPage3!: () => void;
    const crashed = new Promise<void>((resolve) => (reachedPage3 = resolve));
    onPagePut(3, () => {
      reachedPage3();
      return new Promise<never>(() => {});
    });
    queue().crashNextDeliveryWhen(() => crashed);
    await queue().deliverNext();
    return { path, profile, task };
  }

  it("resumes a run whose Worker died once the queue's gate presumes it dead, without duplicates", async () => {
    const { path, profile, task } = await crashWhileStoringPage3("crash");
    const crashedAt = Date.now();
    await queue().drain();

    // The dead run's hold in the gate expires within seconds (no heartbeat for RUNNING_TTL_MS) and
    // the gate sends the task out again; the crashed message, redelivered (attempt 2), steps aside
    // for that copy. The task itself is still leased to the dead run: the copy retries when the
    // lease ends (delays are honoured, so the clock moves), resumes run 1 from page 3, and run 2
    // finishes.
    expect(queue().deliveries.map((d) => [d.body, d.outcome, d.attempts])).toEqual([
      [{ task_id: task.taskId }, "crash", 1],
      [{ task_id: task.taskId }, "ack", 2],
      [{ task_id: task.taskId }, "retry", 1],
      [{ task_id: task.taskId }, "ack", 2],
      [{ task_id: task.taskId, run: 2 }, "ack", 1],
    ]);
    expect(Date.now() - crashedAt).toBeGreaterThanOrEqual(LEASE_MS);
    expect(Date.now() - crashedAt).toBeLessThanOrEqual(LEASE_MS + 60_000);
    expect(await fixtureRequests("multipage.test", path)).toEqual(pageCounts(path, { 3: 2 }));
    await expectAllReviewsOnce(task, profile);
    // The wait for the dead run did not count against the task's time budget.
    const row = (await taskRow(task.taskId))!;
    expect(Number(row.deadline_at) - Number(row.started_at)).toBeGreaterThanOrEqual(60 * 60_000 + LEASE_MS);
  });

  it("frees a dead run's slots within seconds: the account's next task starts long before the dead run's lease ends", async () => {
    // One running task per account, so the dead run's slot is all that stands in the way.
    queue().restore();
    const capped = new QueueDriver({
      settings: {
        PLAN_LIMITS: JSON.stringify({
          ...DEFAULT_PLAN_LIMITS,
          pro: { ...DEFAULT_PLAN_LIMITS.pro, concurrent_tasks: 1 },
        }),
      },
    });
    try {
      const path = `/biz/${slug("dead-slot")}`;
      const profile = `https://multipage.test${path}`;
      const dead = await submitScrape("multipage.test", profile, {}, { lazy: true });
      let reachedPage3!: () => void;
      const crashed = new Promise<void>((resolve) => (reachedPage3 = resolve));
      onPagePut(3, () => {
        reachedPage3();
        return new Promise<never>(() => {});
      });
      capped.crashNextDeliveryWhen(() => crashed);
      await capped.deliverNext();
      const crashedAt = Date.now();
      const next = await submitScrape(
        "multipage.test",
        `https://multipage.test/biz/${slug("next")}`,
        { first_page_only: true },
        {},
        dead.apiKey,
      );
      await capped.drain();
      // The next task started once the dead run's holds (gate and account) expired without a
      // heartbeat: seconds, where they used to last the lease and more (150 s in the gate, 10 min
      // in the account).
      const startedAfter = Number((await taskRow(next.taskId))!.started_at) - crashedAt;
      expect(startedAfter).toBeLessThanOrEqual(RUNNING_TTL_MS + 5_000);
      expect(startedAfter).toBeLessThan(LEASE_MS);
      expect((await taskRow(next.taskId))!.status).toBe(200);
      // The dead run's own task resumed after its lease, every review once.
      await expectAllReviewsOnce(dead, profile);
    } finally {
      capped.restore();
    }
  });

  it("keeps a live run's hold in its gate while a slow page loads: its heartbeat renews it between pages", async () => {
    // A 4 s lease makes the hold 5 s and the heartbeat about every 1.7 s; the page takes 7 s.
    queue().restore();
    const short = new QueueDriver({ settings: { RUN_LEASE_SECONDS: "4" } });
    try {
      const task = await submitScrape("slow.test", `https://slow.test/biz/${slug("beat")}?ms=7000`, {
        first_page_only: true,
      });
      const delivered = short.deliverNext();
      const startedAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const [hold] = await runInDurableObject(queueGate(env, moduleQueue("generic")), (_gate, state) =>
        state.storage.sql
          .exec<{ state: string; until: number }>(
            "SELECT state, until FROM gate_tasks WHERE task_id = ?",
            task.taskId,
          )
          .toArray(),
      );
      // Without the heartbeat the hold would have ended 5 s after the run started, mid-page.
      expect(hold).toMatchObject({ state: "running" });
      expect(hold.until).toBeGreaterThan(startedAt + 5_000);
      expect(hold.until).toBeGreaterThan(Date.now());
      await delivered;
    } finally {
      short.restore();
    }
  });

  it("re-queues, via the sweeper, a task whose message was lost with its dead Worker", async () => {
    await endUnfinishedTasks();
    const { path, profile, task } = await crashWhileStoringPage3("lost");
    queue().discardPending();
    expect(await taskRow(task.taskId)).toMatchObject({ status: 101, pages_scraped: 2, runs: 1 });

    // When retries run out instead of the message being lost, the dead letter fails the task after
    // the lease: test/security/crash-safety.test.ts.
    // Eleven minutes later the lease has long expired and the task sat idle: the sweeper re-queues it.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 11 * 60_000 });
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), env);
    // The scheduled run wakes every queue's gate (after a restart nothing else might): the dead
    // run's hold has expired, so the gate sends the task again; the sweeper's own offer is a no-op.
    expect(queue().pending.map((m) => m.body)).toEqual([{ task_id: task.taskId }]);
    await queue().drain();

    expect(await fixtureRequests("multipage.test", path)).toEqual(pageCounts(path, { 3: 2 }));
    await expectAllReviewsOnce(task, profile);
  });
});
