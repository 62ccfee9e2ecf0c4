/**
 * Never silently incomplete (docs/architecture.md, "Product decisions"; issue 16 points 3 and 4): a completed task says in
 * `coverage` how complete its reviews are, and a failure after page 1 keeps what was read.
 * Fixture sites: partial.test (test/fixtures/sites.ts) and multipage.test.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createAccount, failed, postJson } from "../helpers/api";
import { QueueDriver, queuePerTest } from "../helpers/queue";
import { MULTIPAGE } from "../fixtures/reviews";
import { DEFAULT_PLAN_LIMITS } from "../../src/settings";
import {
  expectedReview,
  fixtureRequests,
  newestFirst,
  origins,
  receivedHooks,
  retrieve,
  slug,
  submitScrape,
  taskRow,
} from "./support";

const queue = queuePerTest();

async function scrape(kind: string, config: { first_page_only?: boolean } = {}) {
  const path = `/${kind}/${slug(kind)}`;
  const profile = `https://partial.test${path}`;
  const task = await submitScrape("partial.test", profile, config);
  const deliveries = await queue().drain();
  return { task, path, profile, deliveries, body: await retrieve(task, 1, 1000) };
}

/** The reviews of MULTIPAGE's first `n` as the service returns them, each with the URL of its page. */
function firstReviews(n: number, profile: string) {
  return newestFirst(
    MULTIPAGE.slice(0, n).map((r, i) =>
      expectedReview(r, Math.floor(i / 3) === 0 ? profile : `${profile}?page=${Math.floor(i / 3) + 1}`),
    ),
  );
}

describe("coverage of a completed task", () => {
  it("a walk to the last page with no stated total is complete", async () => {
    const path = `/biz/${slug("whole")}`;
    const task = await submitScrape("multipage.test", `https://multipage.test${path}`);
    await queue().drain();
    const body = await retrieve(task, 1, 1000);
    expect(body.coverage).toEqual({
      publisher_total: null,
      collected: 36,
      complete: true,
      stop_reason: null,
    });
  });

  it("a walk to the last page that collected clearly fewer than the publisher states is incomplete, and says so", async () => {
    const { body } = await scrape("counted");
    expect(body.reviews).toHaveLength(6);
    expect(body.coverage).toEqual({
      publisher_total: 40,
      collected: 6,
      complete: false,
      stop_reason:
        "fewer_than_stated: the walk reached the last page with 6 of the 40 reviews the publisher states",
    });
  });

  it("a small gap to the stated total (fewer than 5 short) is normal and complete", async () => {
    const { body } = await scrape("close");
    expect(body.coverage).toEqual({ publisher_total: 8, collected: 6, complete: true, stop_reason: null });
  });

  it("first_page_only is the client's choice: complete, not compared with the total", async () => {
    const { body } = await scrape("counted", { first_page_only: true });
    expect(body.coverage).toEqual({ publisher_total: 40, collected: 3, complete: true, stop_reason: null });
  });

  it("the plan's pages_per_task ending the walk with pages left is incomplete with reason page_budget", async () => {
    queue().restore();
    const limits = { ...DEFAULT_PLAN_LIMITS, pro: { ...DEFAULT_PLAN_LIMITS.pro, pages_per_task: 2 } };
    const driver = new QueueDriver({ settings: { PLAN_LIMITS: JSON.stringify(limits) } });
    const path = `/biz/${slug("budget")}`;
    const task = await submitScrape("multipage.test", `https://multipage.test${path}`);
    await driver.drain();
    driver.restore();
    const body = await retrieve(task, 1, 1000);
    expect(body.reviews).toHaveLength(6);
    expect(body.coverage).toEqual({
      publisher_total: null,
      collected: 6,
      complete: false,
      stop_reason: "page_budget: the plan's pages_per_task (2) ended the walk with pages left",
    });
  });
});

describe("a failure after page 1 never discards what was read", () => {
  it("a permanent failure (blocked) on page 3 completes with the two pages read and coverage naming the reason", async () => {
    const { task, path, profile, deliveries, body } = await scrape("blocked");
    expect(deliveries.map((d) => d.outcome)).toEqual(["ack"]);
    expect(await fixtureRequests("partial.test", path)).toEqual({
      [path]: 1,
      [`${path}?page=2`]: 1,
      [`${path}?page=3`]: 1,
    });
    expect(body.task_status).toBe(200);
    expect(body.reviews).toEqual(firstReviews(6, profile));
    expect(body.pagination).toMatchObject({ total_reviews: 6 });
    expect(body.coverage).toEqual({
      publisher_total: null,
      collected: 6,
      complete: false,
      stop_reason: expect.stringMatching(/^blocked: .+/),
    });
    expect(await taskRow(task.taskId)).toMatchObject({
      status: 200,
      reason: null,
      cursor: null,
      cookies_enc: null,
      lease_token: null,
    });
  });

  it("a transient failure (503) on page 2 that outlasts its retries completes with page 1 and coverage naming the reason", async () => {
    const { path, profile, deliveries, body } = await scrape("down");
    expect(deliveries.map((d) => d.outcome)).toEqual(["retry", "retry", "retry", "ack"]);
    expect(await fixtureRequests("partial.test", path)).toEqual({ [path]: 1, [`${path}?page=2`]: 4 });
    expect(body.reviews).toEqual(firstReviews(3, profile));
    expect(body.coverage).toMatchObject({
      collected: 3,
      complete: false,
      stop_reason: expect.stringMatching(/^blocked: .+/),
    });
  });

  it("a failure on page 1 still fails the task (nothing was read)", async () => {
    const task = await submitScrape("status.test", `https://status.test/forbidden/${slug("first")}`);
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed("blocked"));
  });

  it("a missing next page (404) ends the walk with the pages read and coverage profile_not_found", async () => {
    const path = `/biz/${slug("dangling")}`;
    const task = await submitScrape("dangling.test", `https://dangling.test${path}`);
    await queue().drain();
    const body = await retrieve(task, 1, 1000);
    expect(body.reviews).toHaveLength(6);
    expect(body.coverage).toMatchObject({
      collected: 6,
      complete: false,
      stop_reason: expect.stringMatching(/^profile_not_found: page 3: /),
    });
  });

  it("the task.completed webhook carries the same coverage", async () => {
    const name = slug("hook-partial");
    const { apiKey } = await createAccount();
    const res = await postJson("/webhooks/create-webhook/", {
      api_key: apiKey,
      webhook: `${origins["status.test"]}/__hook/${name}`,
    });
    expect(res.status).toBe(201);
    const task = await submitScrape("partial.test", `https://partial.test/blocked/${name}`, {}, {}, apiKey);
    await queue().drain();
    await vi.waitFor(async () => expect(await receivedHooks(name)).toHaveLength(2), {
      timeout: 10_000,
      interval: 50,
    });
    const completed = (await receivedHooks(name))
      .map((hook) => JSON.parse(hook.body))
      .find((b) => b.event === "task.completed");
    const body = await retrieve(task);
    expect(completed).toMatchObject({ task_id: task.taskId, task_status: 200, reviews_count: 6 });
    expect(completed.coverage).toEqual(body.coverage);
    expect(completed.coverage.complete).toBe(false);
  });
});

describe("a finished task keeps no cursor", () => {
  it("completion clears the cursor stored mid-walk", async () => {
    const path = `/biz/${slug("cursor")}`;
    const task = await submitScrape("multipage.test", `https://multipage.test${path}`);
    await queue().deliverNext();
    // Mid-walk the cursor is stored; once the task completes it is gone with the cookies.
    expect(await taskRow(task.taskId)).toMatchObject({
      status: 101,
      cursor: expect.stringContaining("page=6"),
    });
    await queue().drain();
    expect(await taskRow(task.taskId)).toMatchObject({ status: 200, cursor: null, cookies_enc: null });
  });

  it("failure clears the cursor", async () => {
    const path = `/biz/${slug("cursor-fail")}`;
    const task = await submitScrape("multipage.test", `https://multipage.test${path}`);
    await queue().deliverNext();
    expect((await taskRow(task.taskId))!.cursor).not.toBeNull();
    await env.DB.prepare("UPDATE tasks SET deadline_at = ? WHERE id = ?")
      .bind(Date.now() - 1, task.taskId)
      .run();
    await queue().drain();
    expect(await taskRow(task.taskId)).toMatchObject({
      status: 500,
      reason: "timeout",
      cursor: null,
      cookies_enc: null,
    });
  });
});
