import { createHmac } from "node:crypto";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { accountStub } from "../../src/account/account-do";
import type { DeliveryRecord } from "../../src/account/outbox";
import { emitTaskEvent } from "../../src/app/webhooks/events";
import { createAccount, postJson } from "../helpers/api";
import { deliveries, insertTask, receiver, setWebhook, type Received } from "./fixtures";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** Waits for the alarm the outbox armed by itself to make the given number of attempts. */
async function attemptsReach(accountId: string, eventId: string, attempts: number): Promise<DeliveryRecord> {
  return vi.waitFor(
    async () => {
      const record = (await deliveries(accountId)).find((d) => d.id === eventId);
      expect(record?.attempts).toBe(attempts);
      return record!;
    },
    { timeout: 5_000, interval: 10 },
  );
}

async function only(accountId: string): Promise<DeliveryRecord> {
  const list = await deliveries(accountId);
  expect(list).toHaveLength(1);
  return list[0];
}

/**
 * Checks both signatures independently of the Worker's Web Crypto code: X-Webhook-Signature with
 * node:crypto, the Standard Webhooks headers with the standardwebhooks library receivers use.
 */
function expectSigned(request: Received, secret: string) {
  const id = request.headers.get("x-webhook-id")!;
  const timestamp = request.headers.get("x-webhook-timestamp")!;
  expect(timestamp).toMatch(/^\d{10}$/);
  expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
  const hex = createHmac("sha256", secret).update(`${timestamp}.${request.body}`).digest("hex");
  expect(request.headers.get("x-webhook-signature")).toBe(`sha256=${hex}`);
  expect(request.headers.get("webhook-id")).toBe(id);
  expect(request.headers.get("webhook-timestamp")).toBe(timestamp);
  const standard = new Webhook(secret).verify(request.body, Object.fromEntries(request.headers));
  expect(standard).toEqual(JSON.parse(request.body));
}

describe("webhook delivery", () => {
  it("retries a receiver that fails twice, with the same event id, until it is delivered", async () => {
    const { accountId, apiKey } = await createAccount();
    const hook = receiver(server, [500, 503, 200]);
    const secret = await setWebhook(apiKey, hook.url);
    const { taskId } = await insertTask(accountId, { status: 101 });
    const stub = accountStub(env, accountId);

    await emitTaskEvent(env, taskId, "task.in_progress");
    const first = await attemptsReach(accountId, `evt_${taskId}_in_progress`, 1);
    expect(first).toMatchObject({ state: "pending", last_status_code: 500, last_error: "HTTP 500" });
    expect(first.next_attempt_at! - first.last_attempt_at!).toBe(10_000);

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const second = await only(accountId);
    expect(second).toMatchObject({ state: "pending", attempts: 2, last_status_code: 503 });
    expect(second.next_attempt_at! - second.last_attempt_at!).toBe(60_000);

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await only(accountId)).toMatchObject({
      state: "delivered",
      attempts: 3,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
    });
    expect(await runDurableObjectAlarm(stub)).toBe(false);

    expect(hook.received).toHaveLength(3);
    for (const request of hook.received) {
      expect(request.headers.get("x-webhook-id")).toBe(`evt_${taskId}_in_progress`);
      expect(request.headers.get("content-type")).toBe("application/json");
      expect(request.headers.get("user-agent")).toBe("ReviewCollector-Webhook/1.0");
      expect(request.body).toBe(hook.received[0].body);
      expectSigned(request, secret);
    }
  });

  it("sends the documented body for each transition", async () => {
    const { accountId, apiKey } = await createAccount();
    const hook = receiver(server, [204]);
    await setWebhook(apiKey, hook.url);
    const running = await insertTask(accountId, { status: 101, reviewsFound: 3 });
    const done = await insertTask(accountId, {
      status: 200,
      reviewsFound: 42,
      files: ["tasks/t1/page-1.jsonl", "tasks/t1/page-2.jsonl"],
      profileUrl: "https://example.com/biz/blue-door-cafe",
    });
    const failed = await insertTask(accountId, { status: 500, reason: "blocked" });

    await emitTaskEvent(env, running.taskId, "task.in_progress");
    await emitTaskEvent(env, done.taskId, "task.completed");
    await emitTaskEvent(env, failed.taskId, "task.failed");
    await vi.waitFor(
      async () => expect((await deliveries(accountId)).every((d) => d.state === "delivered")).toBe(true),
      { timeout: 5_000, interval: 10 },
    );

    const bodies = new Map(
      hook.received.map((r) => [JSON.parse(r.body).task_id as string, JSON.parse(r.body)]),
    );
    const common = { publisher_key: "example.com", foreign_key: "order-7" };
    expect(bodies.get(running.taskId)).toEqual({
      ...common,
      task_id: running.taskId,
      profile_key: "https://example.com/biz/blue-door",
      task_status: 101,
      reviews_urls: [],
      event: "task.in_progress",
      request_id: running.requestId,
      batch_id: running.requestId,
      reviews_count: 3,
    });
    const completed = bodies.get(done.taskId);
    expect(completed).toMatchObject({
      ...common,
      profile_key: "https://example.com/biz/blue-door-cafe",
      task_status: 200,
      event: "task.completed",
      request_id: done.requestId,
      batch_id: done.requestId,
      reviews_count: 42,
    });
    expect(completed).not.toHaveProperty("reason");
    expect(completed.reviews_urls).toHaveLength(2);
    expect(completed.reviews_urls[0]).toMatch(
      /^https:\/\/api\.test\/files\/tasks\/t1\/page-1\.jsonl\?expires=\d+&signature=[\w-]+$/,
    );
    expect(bodies.get(failed.taskId)).toMatchObject({
      ...common,
      task_status: 500,
      event: "task.failed",
      reviews_urls: [],
      reason: "blocked",
      reviews_count: 0,
    });
  });

  it("queues an event once however often its transition is emitted", async () => {
    const { accountId, apiKey } = await createAccount();
    const hook = receiver(server, [200]);
    await setWebhook(apiKey, hook.url);
    const { taskId } = await insertTask(accountId, { status: 200 });

    await Promise.all([
      emitTaskEvent(env, taskId, "task.completed"),
      emitTaskEvent(env, taskId, "task.completed"),
    ]);
    await attemptsReach(accountId, `evt_${taskId}_completed`, 1);
    await emitTaskEvent(env, taskId, "task.completed"); // a queue message redelivered after delivery

    const list = await deliveries(accountId);
    expect(list.map((d) => [d.id, d.state])).toEqual([[`evt_${taskId}_completed`, "delivered"]]);
    expect(await runDurableObjectAlarm(accountStub(env, accountId))).toBe(false);
    expect(hook.received).toHaveLength(1);
  });

  it("queues nothing for an account without a webhook", async () => {
    const { accountId } = await createAccount();
    const { taskId } = await insertTask(accountId, { status: 101 });
    await emitTaskEvent(env, taskId, "task.in_progress");
    expect(await deliveries(accountId)).toEqual([]);
    expect(await runDurableObjectAlarm(accountStub(env, accountId))).toBe(false);
  });

  it("loses nothing when the object is evicted between attempts, and re-arms its alarm from storage", async () => {
    const { accountId, apiKey } = await createAccount();
    const hook = receiver(server, [500, 502, 200]);
    const secret = await setWebhook(apiKey, hook.url);
    const { taskId } = await insertTask(accountId, { status: 500, reason: "timeout" });
    const stub = accountStub(env, accountId);

    await emitTaskEvent(env, taskId, "task.failed");
    await attemptsReach(accountId, `evt_${taskId}_failed`, 1);
    await evictDurableObject(stub);
    expect(await only(accountId)).toMatchObject({ state: "pending", attempts: 1 });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await only(accountId)).toMatchObject({ state: "pending", attempts: 2, last_status_code: 502 });

    // Even an alarm lost with the old instance comes back: a new instance arms it from the outbox.
    await runInDurableObject(stub, (_instance, state) => state.storage.deleteAlarm());
    await evictDurableObject(stub);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await only(accountId)).toMatchObject({ state: "delivered", attempts: 3 });
    expect(new Set(hook.received.map((r) => r.headers.get("x-webhook-id")))).toEqual(
      new Set([`evt_${taskId}_failed`]),
    );
    hook.received.forEach((r) => expectSigned(r, secret));
  });

  it("sends a task's events in order, holding later ones while an earlier one is retried", async () => {
    const { accountId, apiKey } = await createAccount();
    const [slow, other] = [
      await insertTask(accountId, { status: 200, files: [] }),
      await insertTask(accountId, { status: 101 }),
    ];
    let slowFailures = 0;
    const hook = receiver(server, (body) =>
      body.task_id === slow.taskId && body.event === "task.in_progress" && slowFailures++ < 1 ? 500 : 200,
    );
    await setWebhook(apiKey, hook.url);
    const stub = accountStub(env, accountId);
    const events = () =>
      hook.received.map(
        (r) => `${JSON.parse(r.body).task_id === slow.taskId ? "slow" : "other"} ${JSON.parse(r.body).event}`,
      );

    await emitTaskEvent(env, slow.taskId, "task.in_progress");
    await attemptsReach(accountId, `evt_${slow.taskId}_in_progress`, 1);
    await emitTaskEvent(env, slow.taskId, "task.completed");
    await emitTaskEvent(env, other.taskId, "task.in_progress");
    // Another task is not held up by the failing one.
    await attemptsReach(accountId, `evt_${other.taskId}_in_progress`, 1);
    expect(events()).toEqual(["slow task.in_progress", "other task.in_progress"]);
    expect((await deliveries(accountId, 10, slow.taskId)).map((d) => [d.event, d.state, d.attempts])).toEqual(
      [
        ["task.completed", "pending", 0],
        ["task.in_progress", "pending", 1],
      ],
    );

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(events()).toEqual([
      "slow task.in_progress",
      "other task.in_progress",
      "slow task.in_progress",
      "slow task.completed",
    ]);
    expect((await deliveries(accountId)).every((d) => d.state === "delivered")).toBe(true);
  });

  it("gives up after the documented schedule and keeps the event in the log", async () => {
    const { accountId, apiKey } = await createAccount();
    const hook = receiver(server, [500]);
    await setWebhook(apiKey, hook.url);
    const { taskId } = await insertTask(accountId, { status: 101 });
    const stub = accountStub(env, accountId);

    await emitTaskEvent(env, taskId, "task.in_progress");
    await attemptsReach(accountId, `evt_${taskId}_in_progress`, 1);
    const gaps: number[] = [];
    for (;;) {
      const record = await only(accountId);
      if (record.state !== "pending") break;
      gaps.push((record.next_attempt_at! - record.last_attempt_at!) / 1000);
      expect(await runDurableObjectAlarm(stub)).toBe(true);
    }
    // The documented schedule, written out: 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h.
    expect(gaps).toEqual([10, 60, 300, 1800, 7200, 21600, 43200, 86400]);
    expect(await only(accountId)).toMatchObject({
      state: "failed",
      attempts: 9,
      last_status_code: 500,
      next_attempt_at: null,
    });
    expect(hook.received).toHaveLength(9);
    expect(await runDurableObjectAlarm(stub)).toBe(false);
  });

  it("treats a redirect as a failure and does not follow it", async () => {
    const { accountId, apiKey } = await createAccount();
    const elsewhere: string[] = [];
    server.use(
      http.post(
        "https://elsewhere.example/hook",
        async ({ request }) => (
          elsewhere.push(await request.text()),
          new HttpResponse(null, { status: 200 })
        ),
      ),
    );
    const hook = receiver(server, [307], { Location: "https://elsewhere.example/hook" });
    await setWebhook(apiKey, hook.url);
    const { taskId } = await insertTask(accountId, { status: 101 });

    await emitTaskEvent(env, taskId, "task.in_progress");
    const record = await attemptsReach(accountId, `evt_${taskId}_in_progress`, 1);
    expect(record).toMatchObject({
      state: "pending",
      last_status_code: 307,
      last_error: "Redirect (HTTP 307) not followed",
    });
    expect(elsewhere).toEqual([]);
  });

  it("records a connection failure without a status code", async () => {
    const { accountId, apiKey } = await createAccount();
    const url = "https://down.receiver.example/hook";
    server.use(http.post(url, () => HttpResponse.error()));
    await setWebhook(apiKey, url);
    const { taskId } = await insertTask(accountId, { status: 101 });

    await emitTaskEvent(env, taskId, "task.in_progress");
    const record = await attemptsReach(accountId, `evt_${taskId}_in_progress`, 1);
    expect(record.state).toBe("pending");
    expect(record.last_status_code).toBeNull();
    expect(record.last_error).toMatch(/^Connection failed/);
  });

  it("signs pending retries with the current secret and URL after the webhook changes", async () => {
    const { accountId, apiKey } = await createAccount();
    const before = receiver(server, [500]);
    await setWebhook(apiKey, before.url);
    const { taskId } = await insertTask(accountId, { status: 101 });
    await emitTaskEvent(env, taskId, "task.in_progress");
    await attemptsReach(accountId, `evt_${taskId}_in_progress`, 1);

    const after = receiver(server, [200]);
    const rotated = await postJson("/webhooks/create-webhook/", {
      api_key: apiKey,
      webhook: after.url,
      rotate_secret: true,
    });
    expect(await runDurableObjectAlarm(accountStub(env, accountId))).toBe(true);
    expect(await only(accountId)).toMatchObject({ state: "delivered", attempts: 2 });
    expect(after.received).toHaveLength(1);
    expectSigned(after.received[0], rotated.body.secret);
  });
});
