import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { decryptText } from "../../src/core/crypto/aes";
import { CONSUMERS, PRODUCERS, QueueDriver } from "../helpers/queue";
import {
  business,
  createAccount,
  loginCookies,
  postJson,
  publisherConfig,
  submitBody,
  submitOk,
  taskRows,
} from "../helpers/api";

const SUBMIT = "/submit/request-reviews/";
const COOKIE_VALUE = "fb-session-7f3a9c0d1e2b";

let apiKey: string;
let accountId: string;

beforeAll(async () => {
  ({ apiKey, accountId } = await createAccount({ plan: "unlimited" }));
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function requestRows(foreignKey: string) {
  const { results } = await env.DB.prepare("SELECT * FROM requests WHERE account_id = ? AND foreign_key = ?")
    .bind(accountId, foreignKey)
    .all<{ id: string; lazy: number; business: string; foreign_key: string }>();
  return results;
}

describe("submit: what a request writes", () => {
  it("one request row, one queued task per publisher in order, one queue message per task", async () => {
    const queue = new QueueDriver();
    const hashes = ["0cc175b9c0f1b6a831c399e269772661", "92eb5ffee6ae2fec3ad71c777531578f"];
    const body = submitBody(
      apiKey,
      {
        "WWW.Yelp.COM": publisherConfig("yelp.com", {
          profile_key: "blue-door-cafe-san-francisco",
          persona: { additional_cookies: { login: loginCookies("yelp.com", COOKIE_VALUE) } },
        }),
        "example.com": publisherConfig("example.com", { last_review_hashes: hashes, first_page_only: true }),
        "trustpilot.com": publisherConfig("trustpilot.com", { profile_key: "bluedoorcafe.com" }),
      },
      { foreign_key: "effects-1", lazy: true },
    );
    const res = await postJson(SUBMIT, body);
    expect(res.status).toBe(201);

    const tasks = await taskRows(res.body.request_id);
    expect(res.body).toEqual({
      status: "success",
      tasks_id: tasks[0].id,
      request_id: res.body.request_id,
      foreign_key: "effects-1",
      publisher_key: "yelp.com",
      tasks: tasks.map((t) => ({ publisher_key: t.publisher_key, tasks_id: t.id })),
    });
    expect(tasks.map((t) => t.publisher_key)).toEqual(["yelp.com", "example.com", "trustpilot.com"]);

    const requests = await requestRows("effects-1");
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ id: res.body.request_id, lazy: 1 });
    expect(JSON.parse(requests[0].business)).toEqual(business());

    expect(tasks.map((t) => [t.status, t.account_id, t.foreign_key, t.position])).toEqual([
      [100, accountId, "effects-1", 0],
      [100, accountId, "effects-1", 1],
      [100, accountId, "effects-1", 2],
    ]);
    expect(tasks.map((t) => JSON.parse(t.options))).toEqual([
      { last_review_hashes: [], first_page_only: false, lazy: true },
      { last_review_hashes: hashes, first_page_only: true, lazy: true },
      { last_review_hashes: [], first_page_only: false, lazy: true },
    ]);
    expect(tasks.map((t) => t.profile_url)).toEqual([
      "https://www.yelp.com/biz/blue-door-cafe-san-francisco",
      "https://www.example.com/biz/blue-door",
      "https://www.trustpilot.com/review/bluedoorcafe.com",
    ]);

    // Cookies are stored only encrypted, and only on the task that was given them.
    const [yelp, example] = tasks;
    expect(yelp.cookies_enc).toBeTruthy();
    expect(yelp.cookies_enc).not.toContain(COOKIE_VALUE);
    expect(yelp.cookies_enc).not.toContain(btoa(COOKIE_VALUE).slice(0, 12));
    expect(JSON.parse(await decryptText(env.ENCRYPTION_KEY, yelp.cookies_enc!))).toEqual(
      loginCookies("yelp.com", COOKIE_VALUE),
    );
    expect(example.cookies_enc).toBeNull();

    // One message per task, none delayed, each on a queue a consumer in wrangler.toml serves.
    expect(queue.sentTo.map((m) => m.body)).toEqual(tasks.map((t) => ({ task_id: t.id })));
    expect(queue.sentTo.every((m) => m.delaySeconds === undefined && m.queue in CONSUMERS)).toBe(true);
    queue.restore();
  });

  it("lazy defaults to false, unknown fields are ignored and not stored, textual booleans are stored as booleans", async () => {
    const body = submitBody(
      apiKey,
      { "example.com": publisherConfig("example.com", { first_page_only: "yes", colour: "blue" }) },
      {
        foreign_key: "effects-2",
        priority: "high",
      },
    ) as Record<string, any>;
    body.extra = { nested: true };
    body.data.business.owner = "someone";
    body.data.business.address.floor = 3;
    const created = await postJson(SUBMIT, body);
    expect(created.status).toBe(201);
    const [request] = await requestRows("effects-2");
    expect(request.lazy).toBe(0);
    expect(JSON.parse(request.business)).toEqual(business());
    const [task] = await taskRows(created.body.request_id);
    expect(JSON.parse(task.options)).toEqual({ last_review_hashes: [], first_page_only: true, lazy: false });
  });

  it("the canonical publisher key is accepted by retrieve, as is the key as first written", async () => {
    const created = await submitOk(
      apiKey,
      { "WWW.Yelp.COM": publisherConfig("yelp.com") },
      { foreign_key: "effects-3" },
    );
    expect(created.publisher_key).toBe("yelp.com");
    for (const publisher_key of ["yelp.com", "WWW.Yelp.COM"]) {
      const res = await postJson("/retrieve-task/", {
        api_key: apiKey,
        foreign_key: "effects-3",
        publisher_key,
        task_id: created.tasks_id,
      });
      expect(res.status).toBe(200);
      expect(res.body.publisher_key).toBe("yelp.com");
    }
  });

  it("a queue failure answers the documented 500 and leaves no request or task behind", async () => {
    for (const binding of Object.keys(PRODUCERS))
      vi.spyOn(env[binding as keyof Env] as Queue, "sendBatch").mockRejectedValue(
        new Error("queue unavailable"),
      );
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const body = submitBody(
      apiKey,
      {
        "facebook.com": publisherConfig("facebook.com", {
          persona: { additional_cookies: { login: loginCookies("facebook.com", COOKIE_VALUE) } },
        }),
      },
      {
        foreign_key: "effects-4",
      },
    );
    const res = await postJson(SUBMIT, body);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 500,
      body: { error: "Internal server error" },
    });
    expect(await requestRows("effects-4")).toEqual([]);
    const { results } = await env.DB.prepare("SELECT id FROM tasks WHERE account_id = ? AND foreign_key = ?")
      .bind(accountId, "effects-4")
      .all();
    expect(results).toEqual([]);
    // The failure is logged, without the key or the cookies of the request.
    const lines = logged.mock.calls.map((args) => args.join(" ")).join("\n");
    expect(lines).toContain("queue unavailable");
    expect(lines).not.toContain(apiKey);
    expect(lines).not.toContain(COOKIE_VALUE);
  });
});
