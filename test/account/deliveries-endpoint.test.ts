import { env } from "cloudflare:workers";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { emitTaskEvent } from "../../src/app/webhooks/events";
import { call, createAccount, postJson } from "../helpers/api";
import { insertTask, receiver, setWebhook } from "./fixtures";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const PATH = "/webhooks/deliveries/";

describe("POST /webhooks/deliveries/", () => {
  it("lists the account's deliveries, newest first, filtered by task and limited", async () => {
    const { accountId, apiKey } = await createAccount();
    const hook = receiver(server, (event) => (event.event === "task.failed" ? 500 : 200));
    await setWebhook(apiKey, hook.url);
    const ok = await insertTask(accountId, { status: 200 });
    const bad = await insertTask(accountId, { status: 500, reason: "blocked" });
    await emitTaskEvent(env, ok.taskId, "task.in_progress");
    await emitTaskEvent(env, ok.taskId, "task.completed");
    await emitTaskEvent(env, bad.taskId, "task.failed");
    await vi.waitFor(() => expect(hook.received).toHaveLength(3), { timeout: 5_000, interval: 10 });

    const all = await postJson(PATH, { api_key: apiKey });
    expect(all.status).toBe(200);
    expect(all.body.deliveries.map((d: any) => d.id)).toEqual([
      `evt_${bad.taskId}_failed`,
      `evt_${ok.taskId}_completed`,
      `evt_${ok.taskId}_in_progress`,
    ]);
    const [failed, completed] = all.body.deliveries;
    expect(completed).toEqual({
      id: `evt_${ok.taskId}_completed`,
      task_id: ok.taskId,
      event: "task.completed",
      state: "delivered",
      attempts: 1,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
      last_attempt_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      created_at: expect.stringMatching(/Z$/),
    });
    expect(failed).toMatchObject({
      state: "pending",
      attempts: 1,
      last_status_code: 500,
      last_error: "HTTP 500",
    });
    expect(Date.parse(failed.next_attempt_at) - Date.parse(failed.last_attempt_at)).toBe(10_000);

    const one = await postJson(PATH.slice(0, -1), { api_key: apiKey, task_id: ok.taskId, limit: "1" });
    expect(one.status).toBe(200);
    expect(one.body.deliveries.map((d: any) => d.event)).toEqual(["task.completed"]);

    const stranger = await createAccount();
    expect((await postJson(PATH, { api_key: stranger.apiKey })).body).toEqual({ deliveries: [] });
  });

  it("validates in the documented order and shapes", async () => {
    const { apiKey } = await createAccount();
    expect(await postJson(PATH, { api_key: "rk_unknown", limit: 0 })).toMatchObject({
      status: 401,
      body: { error: "Invalid API key", details: { api_key: ["API key is invalid or expired."] } },
    });
    expect(await postJson(PATH, { limit: 500 })).toMatchObject({
      status: 400,
      body: {
        error: "Invalid payload",
        details: {
          api_key: ["This field is required."],
          limit: ["Ensure this value is less than or equal to 100."],
        },
      },
    });
    expect(await postJson(PATH, { api_key: apiKey, limit: 0, task_id: 7 })).toMatchObject({
      status: 400,
      body: {
        error: "Invalid payload",
        details: {
          limit: ["Ensure this value is greater than or equal to 1."],
          task_id: ["Not a valid string."],
        },
      },
    });
    const notJson = await call(PATH, { method: "POST", body: "{" });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as any).details.non_field_errors[0]).toMatch(/^JSON parse error - /);
    const get = await call(PATH, { method: "GET" });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });

  it("is described in the OpenAPI document, with the notification under webhooks", async () => {
    const doc = (await (await call("/openapi.json")).json()) as any;
    const operation = doc.paths["/webhooks/deliveries/"].post;
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "400", "401"]));
    expect(JSON.stringify(operation.requestBody)).toContain("WebhookDeliveriesRequest");
    const hook = doc.webhooks["task-event"].post;
    expect(JSON.stringify(hook.requestBody)).toContain("TaskEvent");
    expect(Object.keys(doc.components.schemas.TaskEvent.properties)).toEqual(
      expect.arrayContaining([
        "task_id",
        "publisher_key",
        "foreign_key",
        "profile_key",
        "task_status",
        "reviews_urls",
        "event",
        "request_id",
        "batch_id",
        "reviews_count",
        "reason",
      ]),
    );
  });
});
