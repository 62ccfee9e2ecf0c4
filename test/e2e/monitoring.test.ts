/**
 * Review monitoring end to end: monitors created through the API, runs started by the Worker's
 * scheduled() handler, tasks scraped from a loopback fixture site (monitored.test) through the real
 * queue consumer, and the changes received by a fixture webhook endpoint over real HTTP.
 */
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { business, createAccount, loginCookies, postJson } from "../helpers/api";
import { QueueDriver, queuePerTest } from "../helpers/queue";
import { DEFAULT_PLAN_LIMITS } from "../../src/settings";
import type { MonitoredReview } from "../fixtures/monitored-site";
import { md5Hash, origins, receivedHooks, slug } from "./support";

const queue = queuePerTest();

const tick = (overrides: Partial<Env> = {}) =>
  worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), { ...env, ...overrides });

// Monitors are shared by every file of this runtime (vitest isolate: false): none of this file's may
// still be due when another file's test drives scheduled().
afterAll(async () => {
  await env.DB.prepare("UPDATE monitors SET next_due_at = NULL").run();
});

/** Only these monitors may start at the next tick: others left due by earlier tests wait. */
async function onlyDue(ids: string[], dueAt = Date.now() - 1) {
  await env.DB.prepare(
    "UPDATE monitors SET next_due_at = CASE WHEN id IN (SELECT value FROM json_each(?1)) THEN ?2 ELSE NULL END",
  )
    .bind(JSON.stringify(ids), dueAt)
    .run();
}

async function setReviews(name: string, reviews: MonitoredReview[]) {
  const res = await fetch(`${origins["monitored.test"]}/__reviews/${name}`, {
    method: "PUT",
    body: JSON.stringify(reviews),
  });
  expect(res.status).toBe(204);
}

function review(name: string, n: number, day: number, extra: Partial<MonitoredReview> = {}): MonitoredReview {
  return {
    id: `https://monitored.test/reviews/${name}-${n}`,
    author: `Reviewer ${n}`,
    rating: 4,
    text: `Review number ${n}: good coffee and a friendly welcome.`,
    date: `2024-06-${String(day).padStart(2, "0")}`,
    ...extra,
  };
}

async function accountWithWebhook(name: string) {
  const account = await createAccount({ plan: "pro" });
  const res = await postJson("/webhooks/create-webhook/", {
    api_key: account.apiKey,
    webhook: `${origins["status.test"]}/__hook/${name}`,
  });
  expect(res.status).toBe(201);
  return account;
}

async function createMonitor(apiKey: string, name: string, overrides: Record<string, unknown> = {}) {
  const res = await postJson("/monitors/create-monitor/", {
    api_key: apiKey,
    foreign_key: `store-${name}`,
    business: business(),
    publishers: { "monitored.test": { profile_key: `https://monitored.test/biz/${name}` } },
    interval_hours: 1,
    ...overrides,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.monitor_id as string;
}

interface Hook {
  id: string;
  body: Record<string, any>;
}

/** The monitor events the fixture receiver got (the runs' tasks also send their task.* events there). */
async function hooks(name: string): Promise<Hook[]> {
  return (await receivedHooks(name))
    .map((hook) => ({ id: hook.headers["x-webhook-id"], body: JSON.parse(hook.body) }))
    .filter((hook) => !String(hook.body.event).startsWith("task."));
}

const runsCompleted = (events: Hook[]) =>
  events.filter((e) => e.body.event === "monitor.run_completed").length;

/**
 * One monitor run: the tick starts it, the queue runs its task to the end, and the run's events
 * arrive (it always ends with monitor.run_completed). Returns the events this run sent.
 */
async function runOnce(
  monitorId: string,
  name: string,
  maxDeliveries = 100,
  driver: QueueDriver = queue(),
): Promise<Hook[]> {
  const before = await hooks(name);
  await onlyDue([monitorId]);
  await tick();
  expect(driver.pending.length, "the tick queued the run's task").toBe(1);
  await driver.drain(maxDeliveries);
  await vi.waitFor(async () => expect(runsCompleted(await hooks(name))).toBe(runsCompleted(before) + 1), {
    timeout: 10_000,
    interval: 50,
  });
  const events = (await hooks(name)).slice(before.length);
  expect(events[events.length - 1].body.event, "the run's last event").toBe("monitor.run_completed");
  return events;
}

const reviewEvents = (events: Hook[]) => events.filter((e) => e.body.event !== "monitor.run_completed");

describe("review monitoring", () => {
  it("announces an added, edited, replied-to, re-rated and deleted review exactly once each, and nothing on an unchanged site", async () => {
    const name = slug("monitor");
    const { apiKey } = await accountWithWebhook(name);
    // Five reviews, newest first, over two pages.
    const r = [1, 2, 3, 4, 5].map((n) => review(name, n, 30 - n));
    await setReviews(name, r);
    const monitorId = await createMonitor(apiKey, name, { full_walk_every: 6 });

    // Run 1, the baseline (a full walk): what is there is recorded, not announced.
    const run1 = await runOnce(monitorId, name);
    expect(run1).toHaveLength(1);
    expect(run1[0].body).toMatchObject({
      event: "monitor.run_completed",
      monitor_id: monitorId,
      foreign_key: `store-${name}`,
      publisher_key: "monitored.test",
      run: 1,
      full_walk: true,
      complete: true,
      baseline: true,
      reviews_seen: 5,
      counts: { created: 0, updated: 0, deleted: 0 },
    });
    // The run's task is an ordinary task: retrieve-task returns what it collected.
    const retrieved = await postJson("/retrieve-task/", {
      api_key: apiKey,
      foreign_key: `store-${name}`,
      publisher_key: "monitored.test",
      task_id: run1[0].body.task_id,
    });
    expect(retrieved.status).toBe(200);
    expect(retrieved.body.reviews.map((rv: { review_id: string }) => rv.review_id)).toEqual(
      r.map((rv) => rv.id),
    );

    // Run 2 (incremental), nothing changed: no review events, zero counts.
    const run2 = await runOnce(monitorId, name);
    expect(run2.map((e) => e.body)).toEqual([
      expect.objectContaining({
        event: "monitor.run_completed",
        run: 2,
        full_walk: false,
        counts: { created: 0, updated: 0, deleted: 0 },
      }),
    ]);

    // Run 3: a new review at the top.
    const r0 = review(name, 0, 30);
    await setReviews(name, [r0, ...r]);
    const run3 = reviewEvents(await runOnce(monitorId, name));
    expect(run3).toHaveLength(1);
    expect(run3[0].body).toMatchObject({ event: "review.created", monitor_id: monitorId, run: 3 });
    expect(run3[0].body.changes).toHaveLength(1);
    expect(run3[0].body.changes[0]).toMatchObject({
      event: "review.created",
      review_id: r0.id,
      review: { review_id: r0.id, text: r0.text, rating: 4, review_hash: md5Hash([r0.text, r0.author]) },
    });
    expect(run3[0].body.changes[0].before).toBeUndefined();

    // Run 4: review 1's text is edited.
    const edited = { ...r[0], text: "Edited: the coffee has become even better since my first visit." };
    await setReviews(name, [r0, edited, ...r.slice(1)]);
    const run4 = reviewEvents(await runOnce(monitorId, name));
    expect(run4.map((e) => e.body.event)).toEqual(["review.updated"]);
    expect(run4[0].body.changes).toEqual([
      expect.objectContaining({
        event: "review.updated",
        review_id: r[0].id,
        before: { rating: 4, text: r[0].text, owner_reply: null },
        after: { rating: 4, text: edited.text, owner_reply: null },
      }),
    ]);

    // Run 5: the owner replies to review 2.
    const replied = { ...r[1], reply: "Thank you, see you again soon!" };
    await setReviews(name, [r0, edited, replied, ...r.slice(2)]);
    const run5 = reviewEvents(await runOnce(monitorId, name));
    expect(run5.map((e) => e.body.event)).toEqual(["review.updated"]);
    expect(run5[0].body.changes).toHaveLength(1);
    expect(run5[0].body.changes[0]).toMatchObject({
      review_id: r[1].id,
      before: { owner_reply: null, text: r[1].text },
      after: { owner_reply: { text: replied.reply, posted_at: null }, text: r[1].text },
      review: { owner_reply: { text: replied.reply } },
    });

    // Run 6 (incremental): review 4 disappears and review 5's rating changes. An incremental run
    // stops at the first known review and cannot tell a deletion from a review it did not reach;
    // a rating is not part of review_hash, so the re-rated review also looks known.
    const rerated = { ...r[4], rating: 1 };
    await setReviews(name, [r0, edited, replied, r[2], rerated]);
    const run6 = await runOnce(monitorId, name);
    expect(reviewEvents(run6)).toEqual([]);
    expect(run6[0].body).toMatchObject({
      run: 6,
      full_walk: false,
      counts: { created: 0, updated: 0, deleted: 0 },
    });

    // Run 7, a full walk that reached the last page: the re-rating and the deletion, in that order.
    const run7 = await runOnce(monitorId, name);
    expect(run7.map((e) => e.body.event)).toEqual([
      "review.updated",
      "review.deleted",
      "monitor.run_completed",
    ]);
    expect(run7[0].body.changes).toEqual([
      expect.objectContaining({
        review_id: r[4].id,
        before: expect.objectContaining({ rating: 4 }),
        after: expect.objectContaining({ rating: 1 }),
      }),
    ]);
    expect(run7[1].body.changes).toEqual([
      expect.objectContaining({
        event: "review.deleted",
        review_id: r[3].id,
        review: expect.objectContaining({ text: r[3].text }),
      }),
    ]);
    expect(run7[2].body).toMatchObject({
      run: 7,
      full_walk: true,
      complete: true,
      baseline: false,
      counts: { created: 0, updated: 1, deleted: 1 },
    });

    // Run 8: nothing changed, nothing announced.
    expect(reviewEvents(await runOnce(monitorId, name))).toEqual([]);

    // Every event once, each with its own stable id; the changes are numbered in detection order.
    const all = await hooks(name);
    expect(new Set(all.map((h) => h.id)).size).toBe(all.length);
    const seqs = reviewEvents(all).flatMap((e) => e.body.changes.map((c: { seq: number }) => c.seq));
    expect(seqs).toEqual([1, 2, 3, 4, 5]);

    // A client that missed the webhooks catches up from the changes endpoint: the same five changes.
    const page1 = await postJson("/monitors/changes/", { api_key: apiKey, monitor_id: monitorId, limit: 3 });
    expect(page1.body.changes.map((c: { event: string }) => c.event)).toEqual([
      "review.created",
      "review.updated",
      "review.updated",
    ]);
    expect(page1.body).toMatchObject({ next_cursor: "3", has_more: true });
    const page2 = await postJson("/monitors/changes/", {
      api_key: apiKey,
      monitor_id: monitorId,
      cursor: page1.body.next_cursor,
    });
    expect(
      page2.body.changes.map((c: { event: string; review_id: string }) => [c.event, c.review_id]),
    ).toEqual([
      ["review.updated", r[4].id],
      ["review.deleted", r[3].id],
    ]);
    expect(page2.body).toMatchObject({ next_cursor: "5", has_more: false });
    expect(reviewEvents(all).flatMap((e) => e.body.changes)).toEqual([
      ...page1.body.changes,
      ...page2.body.changes,
    ]);

    // The account's delivery log lists the monitor's events under the monitor id.
    const log = await postJson("/webhooks/deliveries/", { api_key: apiKey, task_id: monitorId, limit: 100 });
    expect(log.body.deliveries).toHaveLength(all.length);
    expect(log.body.deliveries.every((d: { state: string }) => d.state === "delivered")).toBe(true);
  });

  it("sends a run's events once when the task's completion is handled twice", async () => {
    const name = slug("monitor-dup");
    const { apiKey } = await accountWithWebhook(name);
    await setReviews(name, [review(name, 1, 20)]);
    const monitorId = await createMonitor(apiKey, name);
    await runOnce(monitorId, name);
    await setReviews(name, [review(name, 2, 21), review(name, 1, 20)]);
    await onlyDue([monitorId]);
    await tick();
    // Every message twice, as an at-least-once queue may deliver it.
    while (queue().pending.length) {
      queue().duplicatePending();
      await queue().drain();
    }
    await vi.waitFor(
      async () =>
        expect((await hooks(name)).map((h) => h.body.event)).toEqual([
          "monitor.run_completed",
          "review.created",
          "monitor.run_completed",
        ]),
      {
        timeout: 10_000,
        interval: 50,
      },
    );
  });

  it("infers no deletion from a full walk the plan's page budget cut short", async () => {
    const name = slug("monitor-cut");
    const { apiKey } = await accountWithWebhook(name);
    // Ten reviews over four pages.
    const r = Array.from({ length: 10 }, (_, i) => review(name, i + 1, 28 - i));
    await setReviews(name, r);
    const monitorId = await createMonitor(apiKey, name, { full_walk_every: 1 });
    await runOnce(monitorId, name);
    // Review 2 is deleted; the next walk may read only two of the three pages left.
    await setReviews(name, [r[0], ...r.slice(2)]);
    queue().restore();
    const limits = { ...DEFAULT_PLAN_LIMITS, pro: { ...DEFAULT_PLAN_LIMITS.pro, pages_per_task: 2 } };
    const budgeted = new QueueDriver({ settings: { PLAN_LIMITS: JSON.stringify(limits) } });
    const cut = await runOnce(monitorId, name, 100, budgeted);
    budgeted.restore();
    expect(cut.map((e) => e.body)).toEqual([
      expect.objectContaining({
        event: "monitor.run_completed",
        full_walk: true,
        complete: false,
        reviews_seen: 6,
        counts: { created: 0, updated: 0, deleted: 0 },
      }),
    ]);
    // A walk that reaches the last page sees the deletion, once.
    const whole = await runOnce(monitorId, name, 100, new QueueDriver());
    expect(
      reviewEvents(whole).map((e) =>
        e.body.changes.map((c: { event: string; review_id: string }) => [c.event, c.review_id]),
      ),
    ).toEqual([[["review.deleted", r[1].id]]]);
  });

  it("numbers the changes of a monitor's publishers in one sequence, and sends each run's events in that order", async () => {
    const name = slug("monitor-two");
    const { apiKey } = await accountWithWebhook(name);
    await setReviews(name, [review(name, 1, 20)]);
    const monitorId = await createMonitor(apiKey, name, {
      publishers: {
        "monitored.test": { profile_key: `https://monitored.test/biz/${name}` },
        "east.monitored.test": { profile_key: `https://east.monitored.test/biz/${name}` },
      },
    });
    const tickAndDrain = async (runsBefore: number) => {
      await onlyDue([monitorId]);
      await tick();
      expect(queue().pending).toHaveLength(2);
      await queue().drain();
      await vi.waitFor(async () => expect(runsCompleted(await hooks(name))).toBe(runsBefore + 2), {
        timeout: 10_000,
        interval: 50,
      });
    };
    await tickAndDrain(0);
    await setReviews(name, [review(name, 2, 21), review(name, 1, 20)]);
    await tickAndDrain(2);
    const events = (await hooks(name)).slice(2);
    // Each publisher's run: its review.created, then its monitor.run_completed; seq 1 then 2.
    expect(events.map((e) => [e.body.event, e.body.publisher_key])).toEqual([
      ["review.created", expect.any(String)],
      ["monitor.run_completed", events[0].body.publisher_key],
      ["review.created", expect.any(String)],
      ["monitor.run_completed", events[2].body.publisher_key],
    ]);
    expect(new Set([events[0].body.publisher_key, events[2].body.publisher_key])).toEqual(
      new Set(["monitored.test", "east.monitored.test"]),
    );
    expect([events[0].body.changes[0].seq, events[2].body.changes[0].seq]).toEqual([1, 2]);
    const runs = await env.DB.prepare("SELECT events_queued FROM monitor_runs WHERE monitor_id = ?")
      .bind(monitorId)
      .all<{ events_queued: number }>();
    expect(runs.results.map((r) => r.events_queued)).toEqual([1, 1, 1, 1]);
  });

  it("splits more than 100 changes into events of at most 100", async () => {
    const name = slug("monitor-many");
    const { apiKey } = await accountWithWebhook(name);
    await setReviews(name, [review(name, 0, 1)]);
    const monitorId = await createMonitor(apiKey, name, { full_walk_every: 1 });
    await runOnce(monitorId, name);
    // 205 new reviews, newest first, above the known one.
    const many = Array.from({ length: 205 }, (_, i) => ({
      ...review(name, 1000 + i, 2),
      date: new Date(Date.UTC(2025, 0, 1) + (205 - i) * 86_400_000).toISOString().slice(0, 10),
    }));
    await setReviews(name, [...many, review(name, 0, 1)]);
    const events = reviewEvents(await runOnce(monitorId, name, 500));
    expect(events.map((e) => e.body.changes.length)).toEqual([100, 100, 5]);
    expect(events.every((e) => e.body.event === "review.created")).toBe(true);
    // Oldest first: the order the reviews were written.
    const ids = events.flatMap((e) => e.body.changes.map((c: { review_id: string }) => c.review_id));
    expect(ids).toEqual([...many].reverse().map((m) => m.id));
  });
});

describe("the cron path", () => {
  it("spreads a burst of due monitors over several ticks, MONITORS_PER_TICK at a time", async () => {
    const name = slug("burst");
    const { apiKey } = await createAccount({ plan: "unlimited" });
    await setReviews(name, [review(name, 1, 20)]);
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await createMonitor(apiKey, name));
    await onlyDue(ids);
    const started = async () =>
      (await env.DB.prepare(
        "SELECT count(*) AS n FROM monitors WHERE runs > 0 AND id IN (SELECT value FROM json_each(?))",
      )
        .bind(JSON.stringify(ids))
        .first<number>("n"))!;
    await tick({ MONITORS_PER_TICK: "10" });
    // The runs' tasks: how many of them the queue gate lets through at once is fair share's business.
    const tasksCreated = async () =>
      (await env.DB.prepare(
        "SELECT count(*) AS n FROM monitor_runs WHERE monitor_id IN (SELECT value FROM json_each(?))",
      )
        .bind(JSON.stringify(ids))
        .first<number>("n"))!;
    expect(await started()).toBe(10);
    expect(await tasksCreated()).toBe(10);
    await tick({ MONITORS_PER_TICK: "10" });
    await tick({ MONITORS_PER_TICK: "10" });
    expect(await started()).toBe(25);
    await tick({ MONITORS_PER_TICK: "10" });
    // Each started once: the next run is an interval away.
    expect(await tasksCreated()).toBe(25);
  });

  it("counts a run's tasks against the plan's tasks_per_minute and defers what does not fit", async () => {
    const name = slug("budget");
    const { apiKey } = await createAccount({ plan: "pro" });
    const ids = [
      await createMonitor(apiKey, name),
      await createMonitor(apiKey, name),
      await createMonitor(apiKey, name),
    ];
    await onlyDue(ids);
    const limits = JSON.parse(env.PLAN_LIMITS);
    await tick({ PLAN_LIMITS: JSON.stringify({ ...limits, pro: { ...limits.pro, tasks_per_minute: 2 } }) });
    expect(queue().pending).toHaveLength(2);
    const { results } = await env.DB.prepare(
      "SELECT runs, next_due_at FROM monitors WHERE id IN (SELECT value FROM json_each(?))",
    )
      .bind(JSON.stringify(ids))
      .all<{ runs: number; next_due_at: number }>();
    const deferred = results.filter((row) => row.runs === 0);
    expect(deferred).toHaveLength(1);
    // Due again once the budget's minute frees, not an interval later.
    expect(deferred[0].next_due_at - Date.now()).toBeLessThanOrEqual(61_000);
  });

  it("starts no run of a paused monitor, and the next one after it is resumed", async () => {
    const name = slug("paused");
    const { apiKey } = await createAccount({ plan: "pro" });
    const monitorId = await createMonitor(apiKey, name);
    await onlyDue([monitorId]);
    expect(
      (await postJson("/monitors/pause-monitor/", { api_key: apiKey, monitor_id: monitorId })).status,
    ).toBe(200);
    await tick();
    expect(queue().pending).toHaveLength(0);
    await postJson("/monitors/pause-monitor/", { api_key: apiKey, monitor_id: monitorId, paused: false });
    await tick();
    expect(queue().pending).toHaveLength(1);
  });

  it("marks the run of a failed task failed and announces nothing for it", async () => {
    const name = slug("monitor-fail");
    const { apiKey } = await accountWithWebhook(name);
    const res = await postJson("/monitors/create-monitor/", {
      api_key: apiKey,
      foreign_key: `store-${name}`,
      business: business(),
      publishers: { "status.test": { profile_key: `https://status.test/gone/${name}` } },
      interval_hours: 1,
    });
    const monitorId = res.body.monitor_id as string;
    await onlyDue([monitorId]);
    await tick();
    await queue().drain();
    await vi.waitFor(
      async () =>
        expect((await receivedHooks(name)).map((h) => JSON.parse(h.body).event)).toContain("task.failed"),
      {
        timeout: 10_000,
        interval: 50,
      },
    );
    const run = await env.DB.prepare("SELECT state FROM monitor_runs WHERE monitor_id = ?")
      .bind(monitorId)
      .first<{ state: string }>();
    expect(run).toEqual({ state: "failed" });
    expect(await hooks(name)).toEqual([]);
  });

  it("keeps a monitor's login cookies encrypted and hands them to each run's task", async () => {
    const { apiKey } = await createAccount({ plan: "pro" });
    const secret = `cookie-${crypto.randomUUID()}`;
    const res = await postJson("/monitors/create-monitor/", {
      api_key: apiKey,
      foreign_key: "store-cookies",
      business: business(),
      publishers: {
        "yelp.com": {
          profile_key: "https://www.yelp.com/biz/blue-door",
          persona: { additional_cookies: { login: loginCookies("yelp.com", secret) } },
        },
      },
      interval_hours: 1,
    });
    expect(res.status).toBe(201);
    const stored = await env.DB.prepare(
      "SELECT publishers, cookies FROM monitor_details WHERE monitor_id = ?",
    )
      .bind(res.body.monitor_id)
      .first<{ publishers: string; cookies: string }>();
    expect(JSON.parse(stored!.cookies)).toEqual({ "yelp.com": expect.any(String) });
    expect(stored!.publishers + stored!.cookies).not.toContain(secret);
    expect(JSON.stringify(res.body)).not.toContain(secret);
    await onlyDue([res.body.monitor_id]);
    await tick();
    const taskId = (await env.DB.prepare("SELECT task_id FROM monitor_runs WHERE monitor_id = ?")
      .bind(res.body.monitor_id)
      .first<{ task_id: string }>())!.task_id;
    const task = await env.DB.prepare("SELECT cookies_enc FROM tasks WHERE id = ?")
      .bind(taskId)
      .first<{ cookies_enc: string | null }>();
    expect(task!.cookies_enc).toEqual(expect.any(String));
    expect(task!.cookies_enc).not.toContain(secret);
  });
});
