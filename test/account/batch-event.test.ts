/** batch.completed is delivered like every other event: signed afresh on each attempt, retried, logged. */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { verifyWebhook } from "../../client/verify-webhook";
import { accountStub } from "../../src/account/account-do";
import { emitTaskEvent } from "../../src/app/webhooks/events";
import { business, createAccount, JOB, postJson } from "../helpers/api";
import { queuePerTest } from "../helpers/queue";
import { deliveries, receiver, setWebhook } from "./fixtures";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());
queuePerTest();

describe("batch.completed delivery", () => {
  it("is retried after a refusal with the same id and body, signed afresh, and logged under the batch id", async () => {
    const { apiKey, accountId } = await createAccount();
    // The receiver refuses the batch event once; task events are taken at once.
    const hook = receiver(server, (body) =>
      body.event === "batch.completed" &&
      hook.received.filter((r) => r.body.includes('"batch.completed"')).length === 1
        ? 503
        : 200,
    );
    const secret = await setWebhook(apiKey, hook.url);
    const res = await postJson("/submit/batch/", {
      job: JOB,
      api_key: apiKey,
      requests: [
        {
          foreign_key: "loc-1",
          business: business(),
          publishers: {
            "example.com": {
              profile_key: "https://example.com/biz/1",
              last_review_hashes: [],
              first_page_only: true,
            },
          },
        },
      ],
    });
    expect(res.status).toBe(201);
    const batchId = res.body.batch_id as string;
    const taskId = res.body.results[0].tasks_id as string;
    // The task fails as the pipeline fails it (status first, then its event), ending the batch.
    await env.DB.prepare(
      "UPDATE tasks SET status = 500, reason = 'blocked', finished_at = ?, updated_at = ? WHERE id = ?",
    )
      .bind(Date.now(), Date.now(), taskId)
      .run();
    await emitTaskEvent(env, taskId, "task.failed");

    const batchLog = async () => (await deliveries(accountId, 100, batchId))[0];
    await vi.waitFor(async () => expect((await batchLog())?.attempts).toBe(1), {
      timeout: 5_000,
      interval: 10,
    });
    expect(await batchLog()).toMatchObject({
      event: "batch.completed",
      state: "pending",
      last_status_code: 503,
    });
    // The retry, when its time comes (the alarm), is delivered.
    vi.setSystemTime((await batchLog()).next_attempt_at! + 1);
    expect(await runDurableObjectAlarm(accountStub(env, accountId))).toBe(true);
    vi.useRealTimers();
    expect(await batchLog()).toMatchObject({ state: "delivered", attempts: 2 });

    const attempts = hook.received.filter((r) => r.body.includes('"batch.completed"'));
    expect(attempts).toHaveLength(2);
    expect(attempts[1].body).toBe(attempts[0].body);
    expect(attempts[1].headers.get("x-webhook-id")).toBe(`evt_batch_${batchId}_completed`);
    expect(attempts[0].headers.get("x-webhook-id")).toBe(attempts[1].headers.get("x-webhook-id"));
    for (const attempt of attempts)
      expect(
        await verifyWebhook({ secret, headers: attempt.headers, body: attempt.body, now: Date.now() }),
      ).toMatchObject({
        ok: true,
      });
    expect(JSON.parse(attempts[0].body)).toMatchObject({
      batch_id: batchId,
      tasks: 1,
      completed: 0,
      failed: 1,
    });
  });
});
