/**
 * Issue 9 guarantees: the key cache's revocation bound, D1 sessions (bookmarks), one D1 round trip
 * per retrieve and per submit (measured through the bench's counting bindings around the real D1
 * and queue), and signed file URL lists that stay valid and stable.
 */
import { completeWithReviews } from "../helpers/task-store";
import { env } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import {
  QUEUE_SENDS_HEADER,
  R2_READS_HEADER,
  ROUND_TRIPS_HEADER,
  withRoundTripCount,
} from "../../src/bench/round-trips";
import { verifyFileUrl } from "../../src/storage/signed-url";
import { BASE, call, createAccount, post, publisherConfig, submitBody } from "../helpers/api";
import { sha256Hex } from "../../src/core/crypto/encoding";
import { keyCacheTtlMs } from "../../src/app/auth/api-keys";

const RETRIEVE = "/retrieve-task/";
const SUBMIT = "/submit/request-reviews/";
const TTL_MS = Number(env.API_KEY_CACHE_TTL) * 1000;

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A retrieve of a task that does not exist: 404 with a valid key, 401 without. */
async function statusWith(apiKey: string): Promise<number> {
  const res = await post(RETRIEVE, {
    api_key: apiKey,
    foreign_key: "none",
    publisher_key: "example.com",
    task_id: "no-such-task",
  });
  return res.status;
}

function at(ms: number) {
  vi.useFakeTimers({ toFake: ["Date"], now: ms });
}

async function submitted(apiKey: string, foreignKey = "speed-1", publishers?: Record<string, unknown>) {
  const res = await post(SUBMIT, submitBody(apiKey, publishers, { foreign_key: foreignKey }));
  expect(res.status).toBe(201);
  const body = await res.json<{
    tasks_id: string;
    publisher_key: string;
    request_id: string;
    tasks: { tasks_id: string }[];
  }>();
  return { ...body, bookmark: res.headers.get("X-D1-Bookmark") };
}

/** Marks a submitted task completed with `count` reviews in newest-first positions, as completion leaves it. */
async function complete(taskId: string, count: number, files: string[]) {
  const reviews = Array.from({ length: count }, (_, i) => ({
    review_id: `r${String(i).padStart(4, "0")}`,
    author_name: `A ${i}`,
    author_id: null,
    rating: 5,
    text: `"quoted" text ${i}`,
    url: "https://example.com/r",
    posted_at: 1_700_000_000_000 - i,
    review_hash: "0".repeat(32),
    language: "en",
    source_date: "",
    scraped_at: 1,
  }));
  await completeWithReviews(taskId, reviews, files);
}

describe("API key cache", () => {
  it("a revoked key keeps working from the cache for less than 10 s (API_KEY_CACHE_TTL), then answers 401", async () => {
    expect(TTL_MS).toBe(10_000); // docs/architecture.md: a revoked key stops everywhere within 10 s
    const { apiKey, keyId } = await createAccount();
    const start = Date.now();
    at(start);
    expect(await statusWith(apiKey)).toBe(404); // verified by D1 and cached now
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?").bind(start, keyId).run();
    at(start + TTL_MS / 2 - 1);
    expect(await statusWith(apiKey)).toBe(404); // inside the first half: answered from the cache, no re-read
    at(start + TTL_MS);
    expect(await statusWith(apiKey)).toBe(401); // bound reached: D1 asked again, revocation seen
    at(start + TTL_MS + 1000);
    expect(await statusWith(apiKey)).toBe(401); // and a refused key is not cached as valid
  });

  it("past half the TTL a cached key is re-read in the background: a revocation is seen before the TTL", async () => {
    const { apiKey, keyId } = await createAccount();
    const start = Date.now();
    at(start);
    expect(await statusWith(apiKey)).toBe(404);
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?").bind(start, keyId).run();
    at(start + TTL_MS / 2);
    // Answered from the cache at once; the re-read runs after the answer (waitUntil).
    expect(await statusWith(apiKey)).toBe(404);
    let status = 404;
    for (let i = 0; i < 50 && status === 404; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = await statusWith(apiKey);
    }
    expect(status).toBe(401);
    expect(Date.now() - start).toBeLessThan(TTL_MS);
  });

  it("a key in steady use is renewed by the background re-read and keeps answering past the first TTL", async () => {
    const { apiKey } = await createAccount();
    const start = Date.now();
    at(start);
    expect(await statusWith(apiKey)).toBe(404);
    at(start + TTL_MS * 0.6);
    expect(await statusWith(apiKey)).toBe(404); // triggers the re-read
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Past the first entry's TTL, yet inside the first half of the renewed one: no D1 read at all.
    const prepare = vi.spyOn(env.DB, "prepare");
    at(start + TTL_MS + 500);
    expect(await statusWith(apiKey)).toBe(404);
    expect(prepare.mock.calls.some(([query]) => String(query).includes("api_keys"))).toBe(false);
  });

  it("API_KEY_CACHE_TTL above the 10 s bound is capped at 10 s", () => {
    expect(keyCacheTtlMs({ API_KEY_CACHE_TTL: "60" })).toBe(10_000);
    expect(keyCacheTtlMs({ API_KEY_CACHE_TTL: "3" })).toBe(3_000);
    expect(keyCacheTtlMs({ API_KEY_CACHE_TTL: "" })).toBe(10_000);
  });

  it("a cached key still stops at its own expiry, inside the cache TTL", async () => {
    const start = Date.now();
    const { apiKey } = await createAccount({ expiresAt: start + 10_000 });
    at(start);
    expect(await statusWith(apiKey)).toBe(404);
    at(start + 9_000);
    expect(await statusWith(apiKey)).toBe(404);
    at(start + 10_000);
    expect(await statusWith(apiKey)).toBe(401);
  });

  it("unknown keys are never cached: a key stored after a refused attempt works at once", async () => {
    const { accountId } = await createAccount();
    const apiKey = `rk_test_${crypto.randomUUID().replace(/-/g, "")}`;
    expect(await statusWith(apiKey)).toBe(401);
    await env.DB.prepare(
      "INSERT INTO api_keys (id, account_id, prefix, key_hash, created_at) VALUES (?, ?, ?, ?, ?)",
    )
      .bind(
        `key_${crypto.randomUUID().slice(0, 8)}`,
        accountId,
        apiKey.slice(0, 11),
        await sha256Hex(apiKey),
        Date.now(),
      )
      .run();
    expect(await statusWith(apiKey)).toBe(404);
  });
});

describe("D1 sessions", () => {
  it("submit answers with a bookmark; a retrieve carrying it starts its session there and answers a bookmark no older", async () => {
    const { apiKey } = await createAccount({ plan: "unlimited" });
    const task = await submitted(apiKey);
    expect(task.bookmark).toMatch(/^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/);
    const withSession = vi.spyOn(env.DB, "withSession");
    const res = await post(
      RETRIEVE,
      { api_key: apiKey, foreign_key: "speed-1", publisher_key: task.publisher_key, task_id: task.tasks_id },
      { "X-D1-Bookmark": task.bookmark! },
    );
    expect(res.status).toBe(200);
    expect((await res.json<{ task_id: string }>()).task_id).toBe(task.tasks_id); // the client's own write is visible
    expect(withSession).toHaveBeenCalledWith(task.bookmark);
    const answered = res.headers.get("X-D1-Bookmark")!;
    expect(answered >= task.bookmark!).toBe(true); // bookmarks of one database order as text
  });

  it("without a bookmark a retrieve may use any replica; a submit starts at the primary; a malformed bookmark is not passed to D1", async () => {
    const { apiKey } = await createAccount({ plan: "unlimited" });
    const withSession = vi.spyOn(env.DB, "withSession");
    const task = await submitted(apiKey);
    expect(withSession).toHaveBeenLastCalledWith("first-primary");
    const body = {
      api_key: apiKey,
      foreign_key: "speed-1",
      publisher_key: task.publisher_key,
      task_id: task.tasks_id,
    };
    expect((await post(RETRIEVE, body)).status).toBe(200);
    expect(withSession).toHaveBeenLastCalledWith("first-unconstrained");
    const res = await post(RETRIEVE, body, { "X-D1-Bookmark": "'; DROP TABLE tasks; --" });
    expect(res.status).toBe(200);
    expect(withSession).toHaveBeenLastCalledWith("first-primary");
  });

  it("a retrieve without a bookmark that misses the task asks the primary before answering 404", async () => {
    const { apiKey } = await createAccount({ plan: "unlimited" });
    const withSession = vi.spyOn(env.DB, "withSession");
    const res = await post(RETRIEVE, {
      api_key: apiKey,
      foreign_key: "none",
      publisher_key: "example.com",
      task_id: "no-such-task",
    });
    expect(res.status).toBe(404);
    expect(withSession.mock.calls.map((args) => args[0])).toEqual(["first-unconstrained", "first-primary"]);
  });
});

describe("round trips, measured on the real D1 and queue", () => {
  async function counted(path: string, body: unknown) {
    const res = await withRoundTripCount(env, (countingEnv) =>
      worker.fetch(
        new Request(`${BASE}${path}`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
        }),
        countingEnv,
        createExecutionContext(),
      ),
    );
    return {
      status: res.status,
      d1: Number(res.headers.get(ROUND_TRIPS_HEADER)),
      queue: Number(res.headers.get(QUEUE_SENDS_HEADER)),
      r2: Number(res.headers.get(R2_READS_HEADER)),
      body: await res.json<Record<string, unknown>>(),
    };
  }

  it("submit: one D1 batch and one queue send once the key is cached; one more D1 read for a cold key", async () => {
    const { apiKey } = await createAccount({ plan: "unlimited" });
    const publishers = {
      "example.com": publisherConfig("example.com"),
      "example.org": publisherConfig("example.org"),
    };
    const cold = await counted(SUBMIT, submitBody(apiKey, publishers));
    expect(cold).toMatchObject({ status: 201, d1: 2, queue: 1 });
    const warm = await counted(SUBMIT, submitBody(apiKey, publishers));
    expect(warm).toMatchObject({ status: 201, d1: 1, queue: 1 });
  });

  it("retrieve: one D1 round trip for an unfinished task, and one plus two R2 range reads for any page of a completed one", async () => {
    const { apiKey } = await createAccount({ plan: "unlimited" });
    const task = await submitted(apiKey, "speed-rt", {
      "example.com": publisherConfig("example.com"),
      "example.org": publisherConfig("example.org"),
    });
    const body = {
      api_key: apiKey,
      foreign_key: "speed-rt",
      publisher_key: "example.com",
      task_id: task.tasks_id,
    };
    expect(await counted(RETRIEVE, body)).toMatchObject({
      status: 200,
      d1: 1,
      body: { response_message: [{ task_status: 100 }] },
    });
    await complete(task.tasks_id, 25, [
      `tasks/${task.tasks_id}/pages/1.jsonl`,
      `tasks/${task.tasks_id}/pages/2.jsonl`,
    ]);
    for (const page of [1, 2, 3]) {
      const res = await counted(RETRIEVE, { ...body, page, page_size: 10 });
      expect(res).toMatchObject({ status: 200, d1: 1, r2: 2 });
    }
    // Past the last page nothing is read from R2.
    expect(await counted(RETRIEVE, { ...body, page: 9, page_size: 10 })).toMatchObject({ d1: 1, r2: 0 });
    // A filtered page: the whole compact index, then the matching lines (here adjacent: one read).
    expect(await counted(RETRIEVE, { ...body, page: 2, page_size: 5, min_rating: 5 })).toMatchObject({
      d1: 1,
      r2: 2,
    });
    const last = await counted(RETRIEVE, { ...body, page: 3, page_size: 10 });
    expect(last.body).toMatchObject({
      task_id: task.tasks_id,
      related_task_ids: [task.tasks[1].tasks_id],
      pagination: {
        total_reviews: 25,
        page: 3,
        page_size: 10,
        total_pages: 3,
        has_next: false,
        has_previous: true,
      },
    });
    expect((last.body.reviews as { review_id: string; text: string }[]).map((r) => r.review_id)).toEqual([
      "r0020",
      "r0021",
      "r0022",
      "r0023",
      "r0024",
    ]);
    expect((last.body.reviews as { text: string }[])[0].text).toBe('"quoted" text 20');
  });
});

describe("reviews_urls of a large task", () => {
  it("lists at most 100 signed URLs, ranges of page files past 100, identical within the hour and valid for at least REVIEW_FILE_URL_TTL", async () => {
    const { apiKey } = await createAccount({ plan: "unlimited" });
    const task = await submitted(apiKey, "speed-files");
    const files = Array.from({ length: 600 }, (_, i) => `tasks/${task.tasks_id}/pages/${i + 1}-a${i}.jsonl`);
    await complete(task.tasks_id, 3, files);
    // The last range (pages 595-600) holds three files with lines and three empty ones.
    for (const page of [595, 597, 600])
      await env.REVIEW_FILES.put(files[page - 1], `{"review_id":"p${page}"}\n`);
    for (const page of [596, 598, 599]) await env.REVIEW_FILES.put(files[page - 1], "");
    const body = {
      api_key: apiKey,
      foreign_key: "speed-files",
      publisher_key: task.publisher_key,
      task_id: task.tasks_id,
    };
    // Start just after an hour boundary of expiry time, then ask again 59 minutes later.
    const ttl = Number(env.REVIEW_FILE_URL_TTL);
    const hourStart = (Math.ceil((Date.now() / 1000 + ttl) / 3600) * 3600 - ttl + 1) * 1000;
    at(hourStart);
    const first = await (await post(RETRIEVE, body)).json<{ business: { reviews_urls: string[] } }>();
    at(hourStart + 59 * 60_000);
    const second = await (
      await post(RETRIEVE, { ...body, page: 2, page_size: 1 })
    ).json<{ business: { reviews_urls: string[] } }>();
    at(hourStart);
    const urls = first.business.reviews_urls;
    expect(urls).toHaveLength(100);
    expect(second.business.reviews_urls).toEqual(urls);
    const now = Math.floor(Date.now() / 1000);
    for (const [i, url] of urls.entries()) {
      expect(url).toMatch(
        /^https:\/\/api\.test\/files\/tasks\/[\w-]+\/range\/\d+-\d+\.jsonl\?expires=\d+&signature=[\w-]+$/,
      );
      const check = await verifyFileUrl(env.URL_SIGNING_KEY, new URL(url), now);
      expect(check).toEqual({
        ok: true,
        objectKey: `tasks/${task.tasks_id}/range/${i * 6 + 1}-${i * 6 + 6}.jsonl`,
      });
      const expires = Number(new URL(url).searchParams.get("expires"));
      expect(expires).toBeGreaterThanOrEqual(now + Number(env.REVIEW_FILE_URL_TTL));
      expect(expires).toBeLessThanOrEqual(now + Number(env.REVIEW_FILE_URL_TTL) + 3600);
    }
    // A range is served as one JSON Lines file: its pages' files one after the other, in page order.
    const served = await call(new URL(urls[99]).pathname + new URL(urls[99]).search);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(await served.text()).toBe('{"review_id":"p595"}\n{"review_id":"p597"}\n{"review_id":"p600"}\n');
    // A range whose files are gone (pages 1-6 were never written) is not found, never served short.
    const missing = await call(new URL(urls[0]).pathname + new URL(urls[0]).search);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "Not found" });
  });

  it("lists one URL per page file for a task of up to 100 files", async () => {
    const { apiKey } = await createAccount({ plan: "unlimited" });
    const task = await submitted(apiKey, "speed-files-100");
    const files = Array.from({ length: 100 }, (_, i) => `tasks/${task.tasks_id}/pages/${i + 1}-b${i}.jsonl`);
    await complete(task.tasks_id, 3, files);
    const body = {
      api_key: apiKey,
      foreign_key: "speed-files-100",
      publisher_key: task.publisher_key,
      task_id: task.tasks_id,
    };
    const urls = (await (await post(RETRIEVE, body)).json<{ business: { reviews_urls: string[] } }>())
      .business.reviews_urls;
    const now = Math.floor(Date.now() / 1000);
    const keys = await Promise.all(
      urls.map(async (url) => verifyFileUrl(env.URL_SIGNING_KEY, new URL(url), now)),
    );
    expect(keys).toEqual(files.map((objectKey) => ({ ok: true, objectKey })));
  });
});
