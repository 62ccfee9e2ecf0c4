/** The review monitor endpoints through the Worker's fetch handler: answers, validation, ownership. */
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { afterAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { MONITOR_LIMITS } from "../../src/app/monitors/store";
import { BASE, business, call, createAccount, loginCookies, postJson } from "../helpers/api";
import { largestSizes, monitorBody, storedSizes } from "../helpers/monitors";
import { meter } from "../helpers/platform-meter";

// Monitors are shared by every file of this runtime (vitest isolate: false): this file's must not be
// due when another file's test drives scheduled().
afterAll(async () => {
  await env.DB.prepare("UPDATE monitors SET next_due_at = NULL").run();
});

function createBody(apiKey: string, overrides: Record<string, unknown> = {}) {
  return {
    api_key: apiKey,
    foreign_key: "store-1",
    business: business(),
    publishers: { "example.com": { profile_key: "https://example.com/biz/blue-door" } },
    interval_hours: 24,
    ...overrides,
  };
}

async function create(apiKey: string, overrides: Record<string, unknown> = {}) {
  const res = await postJson("/monitors/create-monitor/", createBody(apiKey, overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.monitor_id as string;
}

describe("POST /monitors/create-monitor/", () => {
  it("answers 201 with the monitor, due at once, with full_walk_every 7 by default", async () => {
    const { apiKey } = await createAccount();
    const before = Date.now();
    const res = await postJson("/monitors/create-monitor/", createBody(apiKey));
    expect(res.status).toBe(201);
    expect(res.body.monitor_id).toMatch(/^mon_[0-9a-f-]{36}$/);
    expect(res.body.monitor).toMatchObject({
      monitor_id: res.body.monitor_id,
      foreign_key: "store-1",
      publishers: [{ publisher_key: "example.com", profile_key: "https://example.com/biz/blue-door" }],
      interval_hours: 24,
      full_walk_every: 7,
      status: "active",
      runs: 0,
      last_run_at: null,
    });
    expect(Date.parse(res.body.monitor.next_run_at)).toBeGreaterThanOrEqual(before - 1);
    const row = await env.DB.prepare("SELECT next_due_at FROM monitors WHERE id = ?")
      .bind(res.body.monitor_id)
      .first<{ next_due_at: number }>();
    expect(row!.next_due_at).toBeLessThanOrEqual(Date.now());
  });

  it("validates publishers with submit's rules and messages, nested the same way", async () => {
    const { apiKey } = await createAccount();
    const res = await postJson(
      "/monitors/create-monitor/",
      createBody(apiKey, {
        publishers: { "not a domain": {}, "yelp.com": { profile_key: "https://www.yelp.com/biz/x" } },
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: "Invalid payload",
      details: {
        publishers: {
          "not a domain": ["Enter a valid domain name."],
          "yelp.com": { persona: ["This field is required."] },
        },
      },
    });
  });

  it("takes since and max_reviews for each run's task, and sort only as newest (runs stop at the newest review they know)", async () => {
    const { apiKey } = await createAccount();
    const id = await create(apiKey, {
      publishers: {
        "example.com": {
          profile_key: "https://example.com/biz/a",
          since: "2026-01-01",
          max_reviews: 50,
          sort: "newest",
        },
      },
    });
    const row = await env.DB.prepare("SELECT publishers FROM monitor_details WHERE monitor_id = ?")
      .bind(id)
      .first<{ publishers: string }>();
    expect(JSON.parse(row!.publishers)).toEqual([
      expect.objectContaining({ since: Date.parse("2026-01-01"), max_reviews: 50 }),
    ]);
    const res = await postJson(
      "/monitors/create-monitor/",
      createBody(apiKey, {
        publishers: {
          "yelp.com": {
            profile_key: "https://www.yelp.com/biz/x",
            sort: "relevant",
            max_reviews: 0,
            persona: { additional_cookies: { login: loginCookies("yelp.com") } },
          },
        },
      }),
    );
    expect(res.body).toEqual({
      error: "Invalid payload",
      details: {
        publishers: {
          "yelp.com": {
            max_reviews: ["Ensure this value is greater than or equal to 1."],
            sort: [
              'A monitor walks newest first (each run stops at the newest review it knows): sort must be "newest".',
            ],
          },
        },
      },
    });
  });

  it("does not ask for last_review_hashes or first_page_only (the monitor keeps its own)", async () => {
    const { apiKey } = await createAccount();
    const id = await create(apiKey, {
      publishers: { "example.com": { profile_key: "https://example.com/biz/a" } },
    });
    expect(id).toMatch(/^mon_/);
  });

  it("requires interval_hours of at least 1 and at least the plan's minimum", async () => {
    const { apiKey } = await createAccount({ plan: "free" });
    const missing = await postJson("/monitors/create-monitor/", {
      ...createBody(apiKey),
      interval_hours: undefined,
    });
    expect(missing.body).toEqual({
      error: "Invalid payload",
      details: { interval_hours: ["This field is required."] },
    });
    const zero = await postJson("/monitors/create-monitor/", createBody(apiKey, { interval_hours: 0 }));
    expect(zero.body.details).toEqual({
      interval_hours: ["Ensure this value is greater than or equal to 1."],
    });
    // The free plan's minimum is 24 hours.
    const short = await postJson("/monitors/create-monitor/", createBody(apiKey, { interval_hours: 6 }));
    expect(short.status).toBe(400);
    expect(short.body).toEqual({
      error: "Invalid payload",
      details: { interval_hours: ["Ensure this value is greater than or equal to 24."] },
    });
    const pro = await createAccount({ plan: "pro" });
    await create(pro.apiKey, { interval_hours: 1 });
  });

  it("caps the monitors of an account by plan (free: 10), paused ones included", async () => {
    const { apiKey } = await createAccount({ plan: "free" });
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await create(apiKey));
    await postJson("/monitors/pause-monitor/", { api_key: apiKey, monitor_id: ids[0] });
    const over = await postJson("/monitors/create-monitor/", createBody(apiKey));
    expect(over.status).toBe(400);
    expect(over.body).toEqual({
      error: "Invalid payload",
      details: { non_field_errors: ["The free plan allows at most 10 monitors; delete one first."] },
    });
    await postJson("/monitors/delete-monitor/", { api_key: apiKey, monitor_id: ids[1] });
    await create(apiKey);
  });

  it("holds the plan's cap under concurrent creates (free: 40 at once make 10, not 14)", async () => {
    const { apiKey, accountId } = await createAccount({ plan: "free" });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        postJson("/monitors/create-monitor/", createBody(apiKey, { foreign_key: `s${i}` })),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(30);
    for (const answer of refused)
      expect(answer.body).toEqual({
        error: "Invalid payload",
        details: { non_field_errors: ["The free plan allows at most 10 monitors; delete one first."] },
      });
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM monitors WHERE account_id = ?")
      .bind(accountId)
      .first<number>("n");
    expect(stored).toBe(10);
  });

  it("bounds a monitor's stored size: the largest allowed is stored, a byte more is a 400 naming the field", async () => {
    const { apiKey } = await createAccount({ plan: "pro" });
    const sizes = await largestSizes(apiKey, "size.example");
    const largest = await postJson("/monitors/create-monitor/", monitorBody(apiKey, "size.example", sizes));
    expect(largest.status, JSON.stringify(largest.body).slice(0, 300)).toBe(201);
    const stored = await storedSizes(largest.body.monitor_id);
    expect(stored.business).toBe(MONITOR_LIMITS.businessBytes);
    expect(stored.publishers).toBeLessThanOrEqual(MONITOR_LIMITS.publishersBytes);
    expect(stored.publishers).toBeGreaterThan(MONITOR_LIMITS.publishersBytes - 25 * 8);

    const business = await postJson(
      "/monitors/create-monitor/",
      monitorBody(apiKey, "size.example", { ...sizes, businessExtra: sizes.businessExtra + 1 }),
    );
    expect(business.status).toBe(400);
    expect(business.body).toEqual({
      error: "Invalid payload",
      details: {
        business: [
          `Ensure this field has no more than ${MONITOR_LIMITS.businessBytes} bytes as stored JSON (it has ${MONITOR_LIMITS.businessBytes + 1}).`,
        ],
      },
    });
    const publishers = await postJson(
      "/monitors/create-monitor/",
      monitorBody(apiKey, "size.example", { ...sizes, cookieChars: sizes.cookieChars + 8 }),
    );
    expect(publishers.status).toBe(400);
    expect(publishers.body.details).toEqual({
      publishers: [
        expect.stringMatching(
          new RegExp(
            `^Ensure this field has no more than ${MONITOR_LIMITS.publishersBytes} bytes as stored JSON \\(it has \\d+\\)\\.$`,
          ),
        ),
      ],
    });
  });

  it("checks full_walk_every", async () => {
    const { apiKey } = await createAccount();
    const res = await postJson("/monitors/create-monitor/", createBody(apiKey, { full_walk_every: "often" }));
    expect(res.body).toEqual({
      error: "Invalid payload",
      details: { full_walk_every: ["A valid integer is required."] },
    });
  });

  it("answers 401 for an unknown key", async () => {
    const res = await postJson("/monitors/create-monitor/", createBody("rk_nope"));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "Invalid API key", details: { api_key: ["Invalid API key."] } });
  });
});

describe("list, pause, delete and changes", () => {
  it("lists the account's own monitors oldest first, a page at a time", async () => {
    const { apiKey } = await createAccount();
    const other = await createAccount();
    await create(other.apiKey);
    const ids = [
      await create(apiKey),
      await create(apiKey),
      await create(apiKey, { foreign_key: "store-2" }),
    ];
    const first = await postJson("/monitors/list-monitors/", { api_key: apiKey, limit: 2 });
    expect(first.status).toBe(200);
    const idsOf = (page: { monitors: { monitor_id: string }[] }) => page.monitors.map((m) => m.monitor_id);
    expect(idsOf(first.body)).toHaveLength(2);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await postJson("/monitors/list-monitors/", {
      api_key: apiKey,
      limit: 2,
      cursor: first.body.next_cursor,
    });
    expect(idsOf(second.body)).toHaveLength(1);
    expect(second.body.next_cursor).toBeNull();
    // Monitors made in the same millisecond are ordered by id; together the pages hold each one once.
    expect([...idsOf(first.body), ...idsOf(second.body)].sort()).toEqual([...ids].sort());
    const filtered = await postJson("/monitors/list-monitors/", { api_key: apiKey, foreign_key: "store-2" });
    expect(filtered.body.monitors.map((m: { monitor_id: string }) => m.monitor_id)).toEqual([ids[2]]);
    const bad = await postJson("/monitors/list-monitors/", { api_key: apiKey, cursor: "garbage" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "Invalid payload", details: { cursor: ["Invalid cursor."] } });
  });

  it("lists monitors without reading their cookies", async () => {
    const { apiKey } = await createAccount({ plan: "pro" });
    const secret = "c".repeat(1500);
    const res = await postJson("/monitors/create-monitor/", {
      ...monitorBody(apiKey, "list.example", { businessExtra: 0, cookieChars: 0 }),
      publishers: Object.fromEntries(
        Array.from({ length: 25 }, (_, i) => [
          `p${i}.list.example`,
          {
            profile_key: `https://p${i}.list.example/biz/x`,
            persona: {
              additional_cookies: {
                login: [{ name: "session", value: secret, domain: `p${i}.list.example` }],
              },
            },
          },
        ]),
      ),
    });
    expect(res.status).toBe(201);
    const m = meter(env);
    const ctx = createExecutionContext();
    const answer = await worker.fetch(
      new Request(`${BASE}/monitors/list-monitors/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ api_key: apiKey }),
      }),
      m.env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(answer.status).toBe(200);
    const body = await answer.json<{ monitors: { monitor_id: string }[] }>();
    expect(body.monitors.map((x) => x.monitor_id)).toEqual([res.body.monitor_id]);
    // The sealed cookies (25 × ~2 kB) are in no D1 result and no statement names them.
    expect(m.sql.join("\n")).not.toMatch(/cookies/);
    expect(m.resultBytes.reduce((a, b) => a + b, 0)).toBeLessThan(25 * 1500);
  });

  it("pauses (no next run) and resumes (due at once)", async () => {
    const { apiKey } = await createAccount();
    const id = await create(apiKey);
    const paused = await postJson("/monitors/pause-monitor/", { api_key: apiKey, monitor_id: id });
    expect(paused.status).toBe(200);
    expect(paused.body.monitor).toMatchObject({ status: "paused", next_run_at: null });
    const resumed = await postJson("/monitors/pause-monitor/", {
      api_key: apiKey,
      monitor_id: id,
      paused: false,
    });
    expect(resumed.body.monitor.status).toBe("active");
    expect(resumed.body.monitor.next_run_at).toEqual(expect.any(String));
  });

  it("deletes a monitor; another account's monitor is not found", async () => {
    const { apiKey } = await createAccount();
    const other = await createAccount();
    const id = await create(apiKey);
    const foreign = await postJson("/monitors/delete-monitor/", { api_key: other.apiKey, monitor_id: id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe("Monitor not found");
    const res = await postJson("/monitors/delete-monitor/", { api_key: apiKey, monitor_id: id });
    expect(res.body).toEqual({ status: "success", monitor_id: id });
    expect((await postJson("/monitors/delete-monitor/", { api_key: apiKey, monitor_id: id })).status).toBe(
      404,
    );
    expect((await postJson("/monitors/changes/", { api_key: apiKey, monitor_id: id })).status).toBe(404);
    expect((await postJson("/monitors/pause-monitor/", { api_key: apiKey, monitor_id: id })).status).toBe(
      404,
    );
  });

  it("lists no changes for a new monitor, with a cursor to continue from", async () => {
    const { apiKey } = await createAccount();
    const id = await create(apiKey);
    const res = await postJson("/monitors/changes/", { api_key: apiKey, monitor_id: id });
    expect(res.body).toEqual({ changes: [], next_cursor: "0", has_more: false });
    const bad = await postJson("/monitors/changes/", { api_key: apiKey, monitor_id: id, cursor: "-1" });
    expect(bad.body).toEqual({ error: "Invalid payload", details: { cursor: ["Invalid cursor."] } });
  });
});

describe("the OpenAPI document (also what /docs renders)", () => {
  it("documents the five monitor endpoints and the monitor notification", async () => {
    const document = await (
      await call("/openapi.json")
    ).json<{
      paths: Record<string, { post?: { tags?: string[]; responses: Record<string, unknown> } }>;
      webhooks: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    }>();
    for (const path of ["create-monitor", "list-monitors", "delete-monitor", "pause-monitor", "changes"]) {
      const operation = document.paths[`/monitors/${path}/`]?.post;
      expect(operation?.tags, path).toEqual(["Monitors"]);
      expect(Object.keys(operation!.responses)).toEqual(expect.arrayContaining(["400", "401"]));
    }
    expect(Object.keys(document.webhooks)).toEqual(expect.arrayContaining(["task-event", "monitor-event"]));
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        "MonitorPublisherConfiguration",
        "ReviewChange",
        "ReviewEvent",
        "MonitorRunCompletedEvent",
      ]),
    );
    // The monitor's publisher configuration is submit's without the hashes the monitor keeps itself.
    const config = document.components.schemas.MonitorPublisherConfiguration as {
      properties: Record<string, unknown>;
    };
    expect(Object.keys(config.properties).sort()).toEqual([
      "max_reviews",
      "persona",
      "profile_key",
      "since",
      "sort",
    ]);
  });
});
