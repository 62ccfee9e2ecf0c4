/**
 * Monitor runs bounded and fair (security review 2026-11, findings 1, 2, 5, 6): the cron tick through
 * the Worker's scheduled() handler with the platform's per-invocation bounds counted around the real
 * bindings (test/helpers/platform-meter.ts), monitors created through the API at the largest size the
 * limits allow, and failures injected into the real D1 and queue gate calls.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { CLAIM_LEASE_MS, startDueMonitors } from "../../src/app/monitors/schedule";
import { LIST_PAGE_BYTES } from "../../src/app/monitors/store";
import { SETTLE_STATEMENTS_PER_BATCH } from "../../src/app/monitors/settle";
import type { MonitoredReview } from "../fixtures/monitored-site";
import { addKey, BASE, business, createAccount, endUnfinishedTasks, postJson } from "../helpers/api";
import { logLines } from "../helpers/logs";
import { largestSizes, monitorBody } from "../helpers/monitors";
import { meter, PLATFORM } from "../helpers/platform-meter";
import { QueueDriver, queuePerTest } from "../helpers/queue";
import { origins, receivedHooks, slug } from "./support";

const queue = queuePerTest();

const tick = (e: Env = env) => worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), e);
const withVars = (e: Env, vars: Partial<Env>) =>
  Object.create(e, Object.fromEntries(Object.entries(vars).map(([k, value]) => [k, { value }]))) as Env;

// Monitors and tasks are shared by every file of this runtime (vitest isolate: false).
afterAll(async () => {
  await env.DB.prepare("UPDATE monitors SET next_due_at = NULL").run();
  await endUnfinishedTasks();
});

/** Only these monitors may start at the next tick, due at the given times. */
async function onlyDue(due: Record<string, number>) {
  await env.DB.prepare(
    `UPDATE monitors SET next_due_at = (SELECT value FROM json_each(?1) WHERE key = monitors.id)`,
  )
    .bind(JSON.stringify(due))
    .run();
}

async function monitorRow(id: string) {
  return (await env.DB.prepare(
    "SELECT runs, next_due_at, last_run_at, suspended_at, paused FROM monitors WHERE id = ?",
  )
    .bind(id)
    .first<{
      runs: number;
      next_due_at: number | null;
      last_run_at: number | null;
      suspended_at: number | null;
      paused: number;
    }>())!;
}

async function runsOf(id: string): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM monitor_runs WHERE monitor_id = ?")
    .bind(id)
    .first<number>("n"))!;
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

/** `count` copies of a monitor (its details included), written straight to D1 as many creates would. */
async function cloneMonitor(sourceId: string, count: number): Promise<void> {
  const stamp = crypto.randomUUID().slice(0, 8);
  await env.DB.batch([
    env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?3)
       INSERT INTO monitors (id, account_id, foreign_key, interval_hours, full_walk_every, next_due_at, base_url,
         created_at, updated_at, details_bytes)
       SELECT 'mon_' || ?2 || '-' || i, account_id, foreign_key, interval_hours, full_walk_every, NULL, base_url,
         created_at + i, updated_at, details_bytes
       FROM monitors, n WHERE id = ?1`,
    ).bind(sourceId, stamp, count),
    env.DB.prepare(
      `INSERT INTO monitor_details (monitor_id, business, publishers, cookies)
       SELECT m.id, d.business, d.publishers, d.cookies FROM monitors m, monitor_details d
       WHERE d.monitor_id = ?1 AND substr(m.id, 1, 13) = 'mon_' || ?2 || '-'`,
    ).bind(sourceId, stamp),
  ]);
}

describe("a tick beside an account at the limits", () => {
  it("starts a small account's monitor in the first tick beside 450 of the largest monitors another account may hold, within the invocation's query, subrequest and result bounds", async () => {
    const big = await createAccount({ plan: "pro" });
    const small = await createAccount({ plan: "free" });
    const host = `${slug("big")}.monitored.test`;
    const sizes = await largestSizes(big.apiKey, host);
    const first = await postJson("/monitors/create-monitor/", monitorBody(big.apiKey, host, sizes));
    expect(first.status).toBe(201);
    await cloneMonitor(first.body.monitor_id, 449);
    const bigIds = (
      await env.DB.prepare("SELECT id FROM monitors WHERE account_id = ?")
        .bind(big.accountId)
        .all<{ id: string }>()
    ).results.map((r) => r.id);
    expect(bigIds).toHaveLength(450);
    const smallId = await createMonitor(small.apiKey, slug("small"), { interval_hours: 24 });
    // The large account's monitors have waited an hour; the small one is just due.
    const now = Date.now();
    await onlyDue({ ...Object.fromEntries(bigIds.map((id) => [id, now - 3_600_000])), [smallId]: now - 1 });

    // A tick of 10: the small account gets its share although 450 older monitors wait.
    const fair = meter(env);
    await tick(withVars(fair.env, { MONITORS_PER_TICK: "10" }));
    expect(await runsOf(smallId)).toBe(1);
    expect((await monitorRow(smallId)).runs).toBe(1);

    // A full tick: the budget of the invocation holds, and no D1 answer grows with the monitors' size.
    const full = meter(env);
    await tick(full.env);
    expect(full.d1).toBeLessThanOrEqual(PLATFORM.d1Queries);
    expect(full.subrequests).toBeLessThanOrEqual(PLATFORM.subrequests);
    const claims = full.sql
      .map((sql, i) => [sql, full.resultBytes[i]] as const)
      .filter(([sql]) => /row_number\(\)/.test(sql));
    expect(claims).toHaveLength(1);
    // Ids and four small fields per claimed monitor, not 80 kB of details each.
    expect(claims[0][1]).toBeLessThan(450 * 200);
    // One group's details (6 of the largest monitors) is the largest answer: far under D1's 50 MB.
    expect(full.largestResult).toBeLessThan(1024 * 1024);
    expect(full.largestResult).toBeLessThan(PLATFORM.d1ResultBytes / 50);

    // Nothing claimed was lost: each large monitor either ran once or waits for the plan's task
    // budget (a minute) or for the next tick; none is left holding a claim.
    const rows = (
      await env.DB.prepare(
        "SELECT runs, next_due_at FROM monitors WHERE id IN (SELECT value FROM json_each(?))",
      )
        .bind(JSON.stringify(bigIds))
        .all<{ runs: number; next_due_at: number }>()
    ).results;
    const ran = rows.filter((r) => r.runs === 1);
    // pro: 1,500 tasks a minute, 25 tasks a run (a second minute only if this machine took that long).
    expect(ran.length).toBeGreaterThanOrEqual(60);
    expect(ran.length).toBeLessThanOrEqual(120);
    expect(rows.every((r) => r.runs <= 1)).toBe(true);
    expect(rows.filter((r) => r.runs === 0).every((r) => r.next_due_at <= Date.now() + 61_000)).toBe(true);

    // list-monitors pages by bytes: limit 1000 answers a page of at most LIST_PAGE_BYTES of details.
    const list = meter(env);
    const ctx = createExecutionContext();
    const answer = await worker.fetch(
      new Request(`${BASE}/monitors/list-monitors/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ api_key: big.apiKey, limit: 1000 }),
      }),
      list.env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const page = await answer.json<{ monitors: unknown[]; next_cursor: string | null }>();
    expect(page.monitors.length).toBeGreaterThan(10);
    expect(page.monitors.length).toBeLessThan(450);
    expect(page.next_cursor).toEqual(expect.any(String));
    expect(list.largestResult).toBeLessThan(LIST_PAGE_BYTES + 100_000);
    let listed = page.monitors.length;
    let cursor = page.next_cursor;
    while (cursor) {
      const next = await postJson("/monitors/list-monitors/", { api_key: big.apiKey, limit: 1000, cursor });
      listed += next.body.monitors.length;
      cursor = next.body.next_cursor;
    }
    expect(listed).toBe(450);
  });

  it("gives back, due at once and with a log line, what does not fit the tick's share of the limits", async () => {
    const { apiKey } = await createAccount({ plan: "unlimited" });
    const name = slug("budget");
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await createMonitor(apiKey, name));
    const now = Date.now();
    await onlyDue(Object.fromEntries(ids.map((id, i) => [id, now - 1000 + i])));
    const logs = vi.spyOn(console, "warn");
    const m = meter(env);
    // 20 D1 queries: all 12 are claimed, one group of 6 fits, the other 6 are given back.
    const started = await startDueMonitors(m.env, now, { d1: 20, subrequests: 200 });
    expect(started).toBe(6);
    expect(m.d1).toBeLessThanOrEqual(20);
    const rows = await Promise.all(ids.map(monitorRow));
    expect(rows.filter((r) => r.runs === 1)).toHaveLength(6);
    const waiting = rows.filter((r) => r.runs === 0);
    expect(waiting).toHaveLength(6);
    expect(waiting.every((r) => r.next_due_at !== null && r.next_due_at <= now)).toBe(true);
    expect(logLines(logs).find((l) => /reached its share/.test(l.message))).toMatchObject({ released: 6 });
  });
});

describe("a start that fails", () => {
  it("is logged and retried when its claim runs out, even when every later D1 call fails (no run skipped)", async () => {
    const { apiKey } = await createAccount({ plan: "pro" });
    const id = await createMonitor(apiKey, slug("d1-fails"));
    const now = Date.now();
    await onlyDue({ [id]: now - 1 });
    const logs = vi.spyOn(console, "error");
    const m = meter(env);
    // From the call after the claim on, D1 answers nothing (down, or the invocation out of its limit).
    m.failD1After = /row_number\(\)/;
    await tick(m.env);
    const claimed = await monitorRow(id);
    expect(claimed.runs).toBe(0);
    expect(claimed.next_due_at! - now).toBeGreaterThanOrEqual(CLAIM_LEASE_MS - 1000);
    expect(claimed.next_due_at! - now).toBeLessThan(CLAIM_LEASE_MS + 60_000);
    expect(queue().pending).toHaveLength(0);
    expect(logLines(logs).filter((l) => l.monitor_id === id)).toEqual([
      expect.objectContaining({
        level: "error",
        message: expect.stringMatching(/could not start; it is retried/),
      }),
    ]);
    // The claim runs out: the next tick starts the run, as run 1.
    await onlyDue({ [id]: claimed.next_due_at! - CLAIM_LEASE_MS });
    await tick();
    expect(await monitorRow(id)).toMatchObject({ runs: 1 });
    expect(await runsOf(id)).toBe(1);
    expect(queue().pending).toHaveLength(1);
  });

  it("whose tasks could not be queued is undone and due again in minutes, with a log line", async () => {
    const { apiKey, accountId } = await createAccount({ plan: "pro" });
    const id = await createMonitor(apiKey, slug("gate-fails"));
    const now = Date.now();
    await onlyDue({ [id]: now - 1 });
    const logs = vi.spyOn(console, "error");
    const failingGate = new Proxy(env.QUEUE_GATE, {
      get(target, prop) {
        if (prop === "get")
          return () => ({
            offer: () => Promise.reject(new Error("queue gate unavailable (injected by the test)")),
          });
        const value = Reflect.get(target, prop) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    await tick(withVars(env, { QUEUE_GATE: failingGate }));
    const row = await monitorRow(id);
    expect(row.runs).toBe(0);
    expect(row.next_due_at! - now).toBeGreaterThan(4 * 60_000);
    expect(row.next_due_at! - now).toBeLessThan(6 * 60_000);
    expect(await runsOf(id)).toBe(0);
    const tasks = await env.DB.prepare("SELECT count(*) AS n FROM tasks WHERE account_id = ?")
      .bind(accountId)
      .first<number>("n");
    expect(tasks).toBe(0);
    expect(
      logLines(logs)
        .filter((l) => l.monitor_id === id)
        .map((l) => l.message),
    ).toEqual([expect.stringMatching(/could not start; it is retried/)]);
    await onlyDue({ [id]: Date.now() - 1 });
    await tick();
    expect(await monitorRow(id)).toMatchObject({ runs: 1 });
  });
});

describe("intervals and lifetimes", () => {
  it("keeps the schedule across pause and resume: a free 24-hour monitor does not run again at the next tick", async () => {
    const { apiKey } = await createAccount({ plan: "free" });
    const id = await createMonitor(apiKey, slug("resume"), { interval_hours: 24 });
    await onlyDue({ [id]: Date.now() - 1 });
    await tick();
    expect((await monitorRow(id)).runs).toBe(1);
    for (let round = 0; round < 2; round++) {
      await postJson("/monitors/pause-monitor/", { api_key: apiKey, monitor_id: id });
      const resumed = await postJson("/monitors/pause-monitor/", {
        api_key: apiKey,
        monitor_id: id,
        paused: false,
      });
      expect(resumed.body.monitor.status).toBe("active");
      const row = await monitorRow(id);
      expect(Date.parse(resumed.body.monitor.next_run_at)).toBe(row.last_run_at! + 24 * 3_600_000);
      await tick();
    }
    expect((await monitorRow(id)).runs).toBe(1);
    expect(await runsOf(id)).toBe(1);
    expect(queue().pending).toHaveLength(1);
  });

  it("suspends the monitors of an account whose keys were all revoked, and resumes them when it has a key again", async () => {
    const account = await createAccount({ plan: "pro" });
    const name = slug("revoked");
    const id = await createMonitor(account.apiKey, name);
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE account_id = ?")
      .bind(Date.now(), account.accountId)
      .run();
    await onlyDue({ [id]: Date.now() - 1 });
    await tick();
    // No task, so no fetch with its cookies and no webhook: the monitor is suspended.
    expect(queue().pending).toHaveLength(0);
    expect(await runsOf(id)).toBe(0);
    expect(await monitorRow(id)).toMatchObject({
      runs: 0,
      next_due_at: null,
      suspended_at: expect.any(Number),
    });
    await tick();
    expect(queue().pending).toHaveLength(0);

    // An expired key is no key either.
    await addKey(account.accountId, { expiresAt: Date.now() - 1000 });
    await tick();
    expect(queue().pending).toHaveLength(0);

    await addKey(account.accountId);
    await tick();
    expect(await monitorRow(id)).toMatchObject({ runs: 1, suspended_at: null });
    expect(queue().pending).toHaveLength(1);
  });
});

describe("settling a run", () => {
  const review = (name: string, n: number, day: number): MonitoredReview => ({
    id: `https://monitored.test/reviews/${name}-${n}`,
    author: `Reviewer ${n}`,
    rating: 4,
    text: `Review number ${n}: good coffee and a friendly welcome.`,
    date: new Date(Date.UTC(2025, 0, 1) + day * 86_400_000).toISOString().slice(0, 10),
  });
  async function setReviews(name: string, reviews: MonitoredReview[]) {
    const res = await fetch(`${origins["monitored.test"]}/__reviews/${name}`, {
      method: "PUT",
      body: JSON.stringify(reviews),
    });
    expect(res.status).toBe(204);
  }
  const monitorEvents = async (name: string) =>
    (await receivedHooks(name))
      .map((hook) => JSON.parse(hook.body) as { event: string; changes?: { seq: number }[] })
      .filter((body) => !body.event.startsWith("task."));
  const runState = async (id: string, run: number) =>
    (await env.DB.prepare("SELECT task_id, state FROM monitor_runs WHERE monitor_id = ? AND run = ?")
      .bind(id, run)
      .first<{ task_id: string; state: string }>())!;

  it("writes 300 changes in transactions of at most 16 statements; a settle cut off between them is finished by the cron, each event once", async () => {
    const name = slug("settle-cut");
    const { apiKey } = await createAccount({ plan: "pro" });
    const hook = await postJson("/webhooks/create-webhook/", {
      api_key: apiKey,
      webhook: `${origins["status.test"]}/__hook/${name}`,
    });
    expect(hook.status).toBe(201);
    await setReviews(name, [review(name, 0, 0)]);
    const id = await createMonitor(apiKey, name, { full_walk_every: 1 });
    await onlyDue({ [id]: Date.now() - 1 });
    await tick();
    await queue().drain(100);
    await vi.waitFor(async () => expect((await runState(id, 1)).state).toBe("settled"), { timeout: 10_000 });

    // 300 new reviews (17 inserts of 18 changes); the run's settle fails at its first write of the review state.
    const many = Array.from({ length: 300 }, (_, i) => review(name, 1000 + i, 400 - i));
    await setReviews(name, [...many, review(name, 0, 0)]);
    queue().restore();
    const m = meter(env);
    m.failD1When = /INSERT INTO monitor_reviews/;
    const cut = new QueueDriver({ env: m.env });
    await onlyDue({ [id]: Date.now() - 1 });
    await tick(m.env);
    vi.spyOn(console, "error").mockImplementation(() => {});
    await cut.drain(500);
    cut.restore();
    const run2 = await runState(id, 2);
    expect(run2.state).toBe("settling");
    const logged = await env.DB.prepare("SELECT count(*) AS n FROM monitor_changes WHERE task_id = ?")
      .bind(run2.task_id)
      .first<number>("n");
    expect(logged).toBe(300);
    const changeBatches = m.sql.filter((sql) => sql.startsWith("INSERT INTO monitor_changes"));
    expect(changeBatches.length).toBeGreaterThanOrEqual(2);
    for (const batch of m.sql)
      expect(batch.split(" ; ").length).toBeLessThanOrEqual(SETTLE_STATEMENTS_PER_BATCH);

    // Every delivery failed, so the cron finishes it once the task ended ten minutes ago: the same
    // 300 changes, once each.
    await env.DB.prepare("UPDATE tasks SET finished_at = finished_at - 600001 WHERE id = ?")
      .bind(run2.task_id)
      .run();
    const warnings = vi.spyOn(console, "warn");
    await tick();
    expect(
      logLines(warnings)
        .filter((l) => l.task_id === run2.task_id)
        .map((l) => l.message),
    ).toEqual(["monitor run was not settled when its task ended; settling it now"]);
    expect((await runState(id, 2)).state).toBe("settled");
    await vi.waitFor(
      async () => expect((await monitorEvents(name)).map((e) => e.event)).toContain("monitor.run_completed"),
      { timeout: 10_000 },
    );
    await vi.waitFor(
      async () =>
        expect((await monitorEvents(name)).map((e) => [e.event, e.changes?.length ?? 0])).toEqual([
          ["monitor.run_completed", 0],
          ["review.created", 100],
          ["review.created", 100],
          ["review.created", 100],
          ["monitor.run_completed", 0],
        ]),
      { timeout: 10_000 },
    );
    const seqs = (await monitorEvents(name)).flatMap((e) => (e.changes ?? []).map((c) => c.seq));
    expect(seqs).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    const state = await env.DB.prepare("SELECT count(*) AS n FROM monitor_reviews WHERE monitor_id = ?")
      .bind(id)
      .first<number>("n");
    expect(state).toBe(301);
  });
});
