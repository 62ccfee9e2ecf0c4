/**
 * What the account Durable Object and the task files keep or drop over time: the rate-limit window
 * across an eviction, the WEBHOOK_RETRY_SCHEDULE override, the delivery log's 30-day retention, and
 * removal of a task's files past one R2 listing page.
 */
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { accountStub, type AccountDurableObject } from "../../src/account/account-do";
import { enqueue, listDeliveries, recordAttempt } from "../../src/account/outbox";
import { deleteTaskFiles } from "../../src/storage/review-files";
import { emitTaskEvent } from "../../src/app/webhooks/events";
import { createAccount, post, submitBody } from "../helpers/api";
import { deliveries, insertTask, receiver, setWebhook } from "./fixtures";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const SUBMIT = "/submit/request-reviews/";

describe("rate limit across eviction", () => {
  it("keeps counting the window when the account's object is evicted between submits", async () => {
    const { apiKey, accountId } = await createAccount({ plan: "free" });
    const statuses: number[] = [];
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await post(SUBMIT, submitBody(apiKey));
      statuses.push(res.status);
      remaining.push(res.headers.get("x-ratelimit-remaining"));
      // A fresh instance after every third submit: only storage carries the count over.
      if (i % 3 === 2) await evictDurableObject(accountStub(env, accountId));
    }
    expect(statuses).toEqual([...Array(10).fill(201), 429, 429]);
    expect(remaining).toEqual(["9", "8", "7", "6", "5", "4", "3", "2", "1", "0", "0", "0"]);
  });
});

describe("WEBHOOK_RETRY_SCHEDULE", () => {
  it("replaces the documented gaps between attempts, and the number of attempts", async () => {
    const { accountId, apiKey } = await createAccount();
    const hook = receiver(server, [503]);
    await setWebhook(apiKey, hook.url);
    const { taskId } = await insertTask(accountId, { status: 101 });
    const stub = accountStub(env, accountId);
    // The object as deployed with WEBHOOK_RETRY_SCHEDULE = "5, 15,45" (spaces allowed).
    await runInDurableObject(stub, (instance: AccountDurableObject) => {
      (instance as unknown as { env: Env }).env = { ...env, WEBHOOK_RETRY_SCHEDULE: "5, 15,45" };
    });

    await emitTaskEvent(env, taskId, "task.in_progress");
    await vi.waitFor(async () => expect((await deliveries(accountId))[0]?.attempts).toBe(1), {
      timeout: 5_000,
      interval: 10,
    });
    const gaps: number[] = [];
    for (;;) {
      const [record] = await deliveries(accountId);
      if (record.state !== "pending") break;
      gaps.push((record.next_attempt_at! - record.last_attempt_at!) / 1000);
      expect(await runDurableObjectAlarm(stub)).toBe(true);
    }
    expect(gaps).toEqual([5, 15, 45]);
    expect(await deliveries(accountId)).toEqual([
      expect.objectContaining({ state: "failed", attempts: 4, next_attempt_at: null }),
    ]);
    expect(hook.received).toHaveLength(4);
  });
});

describe("delivery log retention", () => {
  it("drops delivered and given-up events 30 days after they finished, never pending ones", async () => {
    const stub = accountStub(env, `retention-${crypto.randomUUID()}`);
    const t0 = 1_800_000_000_000;
    const THIRTY_DAYS = 30 * 24 * 3600 * 1000;
    const ids = await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      const add = (id: string, now: number) =>
        enqueue(sql, { id, taskId: `task-${id}`, event: "task.completed", body: "{}" }, now);
      add("delivered", t0);
      add("given-up", t0);
      add("pending", t0);
      recordAttempt(sql, "delivered", { ok: true, statusCode: 200 }, t0);
      recordAttempt(sql, "given-up", { ok: false, statusCode: 500, error: "HTTP 500", retryAt: null }, t0);
      const listed = () => listDeliveries(sql, 100).map((d) => d.id);
      // Enqueueing is what prunes: exactly 30 days after finishing, they are still kept…
      add("day-30", t0 + THIRTY_DAYS);
      const atThirtyDays = listed();
      // …one millisecond later they are gone; the pending event stays whatever its age.
      add("day-30-plus", t0 + THIRTY_DAYS + 1);
      return { atThirtyDays, after: listed() };
    });
    expect(ids.atThirtyDays).toEqual(["day-30", "pending", "given-up", "delivered"]);
    expect(ids.after).toEqual(["day-30-plus", "day-30", "pending"]);
  });
});

describe("task files", () => {
  it("are all deleted, past the 1,000 keys one R2 listing returns", async () => {
    const taskId = crypto.randomUUID();
    const other = crypto.randomUUID();
    const keys = Array.from({ length: 1_001 }, (_, i) => `tasks/${taskId}/pages/${i + 1}.jsonl`);
    for (let i = 0; i < keys.length; i += 100)
      await Promise.all(keys.slice(i, i + 100).map((key) => env.REVIEW_FILES.put(key, "{}\n")));
    await env.REVIEW_FILES.put(`tasks/${other}/pages/1.jsonl`, "{}\n");
    expect((await env.REVIEW_FILES.list({ prefix: `tasks/${taskId}/` })).truncated).toBe(true);

    await deleteTaskFiles(env, taskId);
    expect((await env.REVIEW_FILES.list({ prefix: `tasks/${taskId}/` })).objects).toEqual([]);
    // Another task's files are not touched.
    expect((await env.REVIEW_FILES.list({ prefix: `tasks/${other}/` })).objects.map((o) => o.key)).toEqual([
      `tasks/${other}/pages/1.jsonl`,
    ]);
  });
});
