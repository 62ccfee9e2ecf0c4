import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { failed } from "../helpers/api";
import { DEAD_LETTER_QUEUE, QueueDriver, queuePerTest } from "../helpers/queue";
import { MULTIPAGE } from "../fixtures/reviews";
import {
  expectedReview,
  fixtureRequests,
  retrieve,
  reviewRowCount,
  slug,
  storedFileKeys,
  storedPageFileKeys,
  submitScrape,
  taskRow,
} from "./support";

const queue = queuePerTest();

/** Submits a profile on the status fixture site, runs the queue dry and returns the task's answer. */
async function scrapeStatusPage(kind: string) {
  const path = `/${kind}/${slug(kind)}`;
  const task = await submitScrape("status.test", `https://status.test${path}`);
  const deliveries = await queue().drain();
  return { task, path, deliveries, body: await retrieve(task) };
}

describe("publisher failures", () => {
  it.each([
    ["gone", "profile_not_found"],
    ["removed", "profile_not_found"],
    ["private", "login_required"],
    ["forbidden", "blocked"],
    ["login-wall", "login_required"],
  ])("/%s fails at once with %s", async (kind, reason) => {
    const { task, path, deliveries, body } = await scrapeStatusPage(kind);
    expect(body).toEqual({
      task_id: task.taskId,
      foreign_key: "order-1",
      publisher_key: "status.test",
      response_message: failed(reason),
    });
    expect(deliveries.map((d) => d.outcome)).toEqual(["ack"]);
    expect(await fixtureRequests("status.test", path)).toEqual({ [path]: 1 });
    const row = await taskRow(task.taskId);
    expect(row).toMatchObject({ status: 500, reason, lease_token: null, finished_at: expect.any(Number) });
  });

  it("fails a profile whose 200 page is a sign-in form with login_required (after trying the browser)", async () => {
    const { path, body } = await scrapeStatusPage("sign-in");
    expect(body.response_message).toEqual(failed("login_required"));
    expect(await fixtureRequests("status.test", path)).toEqual({ [path]: 2 });
  });

  it("retries 429 with backoff that honours Retry-After, then fails with blocked", async () => {
    const { path, deliveries, body } = await scrapeStatusPage("busy");
    expect(deliveries.map((d) => [d.attempts, d.outcome, d.delaySeconds])).toEqual([
      [1, "retry", 30],
      [2, "retry", 45],
      [3, "retry", 135],
      [4, "ack", undefined],
    ]);
    expect(await fixtureRequests("status.test", path)).toEqual({ [path]: 4 });
    expect(body.response_message).toEqual(failed("blocked"));
  });

  it.each([
    ["down", "publisher_error"],
    ["unavailable", "blocked"],
  ])("retries /%s and fails with %s when it does not recover", async (kind, reason) => {
    const { path, deliveries, body } = await scrapeStatusPage(kind);
    expect(deliveries.map((d) => d.outcome)).toEqual(["retry", "retry", "retry", "ack"]);
    expect(deliveries.map((d) => d.delaySeconds)).toEqual([15, 45, 135, undefined]);
    expect(await fixtureRequests("status.test", path)).toEqual({ [path]: 4 });
    expect(body.response_message).toEqual(failed(reason));
  });

  it("recovers from a passing 503 on the next attempt", async () => {
    const { task, path, deliveries, body } = await scrapeStatusPage("flaky");
    expect(deliveries.map((d) => d.outcome)).toEqual(["retry", "ack"]);
    expect(await fixtureRequests("status.test", path)).toEqual({ [path]: 2 });
    const profile = `https://status.test${path}`;
    expect(body.reviews).toEqual(MULTIPAGE.slice(0, 2).map((r) => expectedReview(r, profile)));
    expect(await taskRow(task.taskId)).toMatchObject({ status: 200, reason: null });
  });

  it("with private networks off, still scrapes a site the operator mapped to loopback under PUBLISHER_ORIGINS", async () => {
    // This test's own driver, with other settings; afterEach restores its spies with the rest.
    queue().restore();
    const driver = new QueueDriver({ settings: { ALLOW_PRIVATE_NETWORK: "false" } });
    const path = `/biz/${slug("private")}`;
    // PUBLISHER_ORIGINS sends multipage.test to 127.0.0.1: an origin the operator chose, so trusted
    // (private hosts it does not name stay refused: test/e2e/ssrf.test.ts, test/e2e/browser-ssrf.test.ts).
    const task = await submitScrape("multipage.test", `https://multipage.test${path}`, {
      first_page_only: true,
    });
    await driver.drain();
    expect((await retrieve(task)).reviews).toHaveLength(3);
    expect(await fixtureRequests("multipage.test", path)).toEqual({ [path]: 1 });
  });
});

describe("time budget", () => {
  it("fails a task whose budget runs out between runs with timeout and keeps nothing it scraped", async () => {
    const path = `/biz/${slug("budget")}`;
    const task = await submitScrape("multipage.test", `https://multipage.test${path}`);
    await queue().deliverNext();
    expect(await taskRow(task.taskId)).toMatchObject({ status: 101, pages_scraped: 5, reviews_found: 15 });
    expect(await storedPageFileKeys(task.taskId)).toHaveLength(5);
    const progress = await retrieve(task);
    expect(progress.response_message).toEqual([
      {
        status: "in_progress",
        message: "Task is currently being processed",
        task_status: 101,
        progress: { pages_scraped: 5, reviews_found: 15, requests: { direct: 5, browser: 0, provider: 0 } },
      },
    ]);

    // Five minutes of the task's own work have gone by (its last write was just now, so no
    // waiting between runs is credited back).
    await env.DB.prepare("UPDATE tasks SET deadline_at = ?, updated_at = ? WHERE id = ?")
      .bind(Date.now() - 1, Date.now(), task.taskId)
      .run();
    await queue().drain();

    expect((await retrieve(task)).response_message).toEqual(failed("timeout"));
    expect(await reviewRowCount(task.taskId)).toBe(0);
    expect(await storedFileKeys(task.taskId)).toEqual([]);
    expect(await taskRow(task.taskId)).toMatchObject({
      status: 500,
      reason: "timeout",
      files: "[]",
      reviews_found: 0,
      cookies_enc: null,
    });
    expect(Object.keys(await fixtureRequests("multipage.test", path))).toHaveLength(5);
  });

  it("counts the budget from the first start: lazy tasks get 60 minutes, others 5", async () => {
    const quick = await submitScrape("multipage.test", `https://multipage.test/biz/${slug("quick")}`, {
      first_page_only: true,
    });
    const lazy = await submitScrape(
      "multipage.test",
      `https://multipage.test/biz/${slug("lazy")}`,
      { first_page_only: true },
      { lazy: true },
    );
    await queue().drain();
    for (const [task, minutes] of [
      [quick, 5],
      [lazy, 60],
    ] as const) {
      const row = (await taskRow(task.taskId))!;
      expect(row.status).toBe(200);
      expect((row.deadline_at as number) - (row.started_at as number)).toBe(minutes * 60_000);
    }
  });
});

describe("dead letters", () => {
  it("fails a task whose message exhausted its retries with the last reason it recorded", async () => {
    const path = `/unavailable/${slug("dlq")}`;
    const task = await submitScrape("status.test", `https://status.test${path}`);
    await queue().deliverNext();
    expect(await taskRow(task.taskId)).toMatchObject({ status: 101, reason: "blocked" });
    queue().moveToDeadLetters();
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed("blocked"));
  });

  it("fails a task that never started with internal", async () => {
    const task = await submitScrape("multipage.test", `https://multipage.test/biz/${slug("never")}`);
    queue().moveToDeadLetters();
    const deliveries = await queue().drain();
    expect(deliveries).toEqual([expect.objectContaining({ queue: DEAD_LETTER_QUEUE, outcome: "ack" })]);
    expect((await retrieve(task)).response_message).toEqual(failed("internal"));
  });
});
