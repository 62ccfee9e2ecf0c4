import { createExecutionContext, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { accountStub } from "../../src/account/account-do";
import { consume } from "../../src/account/rate-limiter";
import { createApp } from "../../src/http/app";
import worker from "../../src/index";
import { BASE, addKey, createAccount, post, postJson, submitBody } from "../helpers/api";

const SUBMIT = "/submit/request-reviews/";
const RATE_HEADERS = ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"];

async function submitMany(apiKey: string, n: number) {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const res = await post(SUBMIT, submitBody(apiKey));
      return { status: res.status, headers: res.headers, body: (await res.json()) as any };
    }),
  );
}

describe("submit rate limit", () => {
  it("accepts exactly the plan's limit of 30 parallel submits and answers the rest 429", async () => {
    const { apiKey } = await createAccount({ plan: "free" });
    const answers = await submitMany(apiKey, 30);

    const accepted = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted).toHaveLength(10);
    expect(refused).toHaveLength(20);
    for (const a of answers) {
      expect(a.headers.get("x-ratelimit-limit")).toBe("10");
      for (const name of RATE_HEADERS) expect(a.headers.get(name)).toMatch(/^\d+$/);
    }
    expect(accepted.map((a) => Number(a.headers.get("x-ratelimit-remaining"))).sort((x, y) => x - y)).toEqual(
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
    for (const a of refused) {
      const retryAfter = Number(a.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(a.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(a.headers.get("x-ratelimit-reset")).toBe(String(retryAfter));
      expect(a.body).toEqual({
        error: "Too Many Requests",
        details: {
          rate_limit: [`free plan allows 10 requests per minute. Retry after ${retryAfter} seconds.`],
        },
      });
    }
  });

  it("takes each plan's limit from the PLANS setting", async () => {
    for (const [plan, limit] of [
      ["basic", "60"],
      ["pro", "600"],
      ["no-such-plan", "10"],
    ]) {
      const { apiKey } = await createAccount({ plan });
      const res = await post(SUBMIT, submitBody(apiKey));
      expect(res.status).toBe(201);
      expect(res.headers.get("x-ratelimit-limit")).toBe(limit);
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(Number(limit) - 1));
    }
  });

  it("applies a plan defined only in configuration", async () => {
    const app = createApp();
    const configured = { ...env, PLANS: '{"trial":2,"free":10}' } as Env;
    const { apiKey } = await createAccount({ plan: "trial" });
    const send = () =>
      app.fetch(
        new Request(`${BASE}${SUBMIT}`, { method: "POST", body: JSON.stringify(submitBody(apiKey)) }),
        configured,
        createExecutionContext(),
      );
    expect((await send()).status).toBe(201);
    expect((await send()).status).toBe(201);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as any).details.rate_limit[0]).toMatch(
      /^trial plan allows 2 requests per minute\. Retry after \d+ seconds\.$/,
    );
  });

  it.each([
    ["not JSON", "{free: 10}", "PLANS: must be JSON"],
    ["a negative limit", '{"free":-1}', "PLANS: free: Too small"],
    ["a list", "[10]", "PLANS: value: Invalid input"],
  ])("answers 500 without a stack and names the setting when PLANS is %s", async (_name, plans, problem) => {
    const { apiKey } = await createAccount({ plan: "free" });
    const misconfigured = { ...env, PLANS: plans } as Env;
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await worker.fetch(
        new Request(`${BASE}${SUBMIT}`, { method: "POST", body: JSON.stringify(submitBody(apiKey)) }),
        misconfigured,
        createExecutionContext(),
      );
      expect({ status: res.status, body: await res.json() }).toEqual({
        status: 500,
        body: { error: "Internal server error" },
      });
      const lines = logged.mock.calls.map((args) => args.join(" ")).join("\n");
      expect(lines).toContain(problem);
      expect(lines).not.toContain(apiKey);
    } finally {
      logged.mockRestore();
    }
  });

  it("does not limit the unlimited plan", async () => {
    const { apiKey } = await createAccount({ plan: "unlimited" });
    const answers = await submitMany(apiKey, 15);
    expect(answers.map((a) => a.status)).toEqual(Array(15).fill(201));
    expect(answers.every((a) => a.headers.get("x-ratelimit-limit") === null)).toBe(true);
  });

  it("limits only submit, counts submits that fail validation, and not unauthenticated ones", async () => {
    const { apiKey, accountId } = await createAccount({ plan: "free" });
    const invalid = await postJson(SUBMIT, { ...submitBody(apiKey), job: "nope" });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("x-ratelimit-remaining")).toBe("9");
    // Keys of this very account that no longer work: were they counted, its budget would shrink.
    const revoked = await addKey(accountId, { revoked: true });
    const expired = await addKey(accountId, { expiresAt: Date.now() - 1000 });
    for (const key of [revoked.apiKey, expired.apiKey, revoked.apiKey, expired.apiKey]) {
      const unauthorized = await postJson(SUBMIT, submitBody(key));
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get("x-ratelimit-limit")).toBeNull();
    }

    const answers = await submitMany(apiKey, 10);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(9);
    expect((await post(SUBMIT, submitBody(apiKey))).status).toBe(429);

    const task = answers.find((a) => a.status === 201)!.body.tasks_id;
    const retrieve = await postJson("/retrieve-task/", {
      api_key: apiKey,
      foreign_key: "order-1",
      publisher_key: "example.com",
      task_id: task,
    });
    expect(retrieve.status).toBe(200);
    expect(retrieve.headers.get("x-ratelimit-limit")).toBeNull();
    expect(
      (await postJson("/webhooks/create-webhook/", { api_key: apiKey, webhook: "https://hooks.example/x" }))
        .status,
    ).toBe(201);
    expect((await postJson("/webhooks/deliveries/", { api_key: apiKey })).status).toBe(200);
  });

  it("answers a limited submit 429 even when its body is invalid, and counts no tasks for an invalid body", async () => {
    const { apiKey } = await createAccount({ plan: "free" });
    const invalid = await postJson(SUBMIT, { ...submitBody(apiKey), job: "nope" });
    expect(invalid.status).toBe(400);
    // An invalid body asks for no tasks: the task budget is neither counted nor reported.
    expect(invalid.headers.get("x-tasks-remaining")).toBeNull();
    const valid = await postJson(SUBMIT, submitBody(apiKey));
    expect(valid.status).toBe(201);
    expect(valid.headers.get("x-tasks-remaining")).toBe(
      String(Number(valid.headers.get("x-tasks-limit")) - 1),
    );
    await submitMany(apiKey, 8);
    // The rate limit comes before validation (docs/architecture.md, "Product decisions", order of checks).
    const limitedInvalid = await postJson(SUBMIT, { ...submitBody(apiKey), job: "nope" });
    expect(limitedInvalid.status).toBe(429);
    expect(limitedInvalid.body.details).toEqual({
      rate_limit: [
        expect.stringMatching(/^free plan allows 10 requests per minute\. Retry after \d+ seconds\.$/),
      ],
    });
  });

  it("frees a slot when the oldest submit leaves the one-minute window", async () => {
    const stub = accountStub(env, `window-${crypto.randomUUID()}`);
    const t0 = 1_800_000_000_000;
    const decisions = await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      const first = Array.from({ length: 3 }, (_, i) => consume(sql, 3, t0 + i * 1000));
      return {
        first,
        refused: consume(sql, 3, t0 + 30_000),
        stillRefused: consume(sql, 3, t0 + 60_000 - 1),
        // Retry-After is honest: waiting exactly that long is enough.
        freed: consume(sql, 3, t0 + 30_000 + 30 * 1000),
      };
    });
    expect(decisions.first.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
    expect(decisions.refused).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 30 });
    expect(decisions.stillRefused).toMatchObject({ allowed: false, resetSeconds: 1 });
    expect(decisions.freed).toMatchObject({ allowed: true, remaining: 0 });
  });
});
