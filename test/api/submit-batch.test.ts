/**
 * POST /submit/batch/ as a client sees it: per-item validation at its index, the batch's own
 * limits, the plan's limits counted per task and refused whole, and what is stored.
 */
import { createExecutionContext, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { moduleQueue } from "../../src/publishers/queues";
import { GENERIC_MODULE } from "../../src/publishers/registry";
import { queueGate } from "../../src/queue/queue-gate";
import { BASE, business, createAccount, post, postJson, JOB } from "../helpers/api";
import { queuePerTest } from "../helpers/queue";

const BATCH = "/submit/batch/";
const queue = queuePerTest();

function item(n: number, overrides: Record<string, unknown> = {}) {
  return {
    foreign_key: `loc-${n}`,
    business: { ...business(), id: `biz-${n}` },
    publishers: {
      "example.com": {
        profile_key: `https://example.com/biz/loc-${n}`,
        last_review_hashes: [],
        first_page_only: true,
      },
    },
    ...overrides,
  };
}

function batchBody(apiKey: string, requests: unknown[]) {
  return { job: JOB, api_key: apiKey, requests };
}

/** The account's tasks the generic queue's gate holds (waiting there, or sent to the queue). */
async function gateTasks(accountId: string): Promise<string[]> {
  return runInDurableObject(queueGate(env, moduleQueue(GENERIC_MODULE.name)), (_gate, state) =>
    state.storage.sql
      .exec<{ task_id: string }>("SELECT task_id FROM gate_tasks WHERE account_id = ?", accountId)
      .toArray()
      .map((row) => row.task_id),
  );
}

async function storedRows(batchId: string) {
  const requests = await env.DB.prepare(
    "SELECT id, foreign_key, batch_index, business FROM requests WHERE batch_id = ? ORDER BY batch_index",
  )
    .bind(batchId)
    .all<{ id: string; foreign_key: string; batch_index: number; business: string }>();
  const tasks = await env.DB.prepare(
    `SELECT t.id, t.request_id, t.publisher_key, t.status, t.options, t.files, t.position FROM tasks t
     JOIN requests r ON r.id = t.request_id WHERE r.batch_id = ? ORDER BY r.batch_index, t.position`,
  )
    .bind(batchId)
    .all<{
      id: string;
      request_id: string;
      publisher_key: string;
      status: number;
      options: string;
      files: string;
      position: number;
    }>();
  return { requests: requests.results, tasks: tasks.results };
}

describe("POST /submit/batch/", () => {
  it("validates each item on its own: errors at their index, the valid ones stored and queued in order", async () => {
    const { apiKey, accountId } = await createAccount();
    const noStreet = item(1);
    delete (noStreet.business.address as Partial<typeof noStreet.business.address>).street;
    const requests = [
      item(0),
      noStreet,
      item(2, {
        publishers: {
          "example.com": {
            profile_key: "https://example.com/a",
            last_review_hashes: [],
            first_page_only: true,
          },
          "www.Example.org": {
            profile_key: "https://example.org/b",
            last_review_hashes: [],
            first_page_only: false,
          },
        },
      }),
      "not an object",
      item(4, { foreign_key: "" }),
    ];
    const res = await postJson(BATCH, batchBody(apiKey, requests));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ status: "partial", accepted: 2, refused: 3 });
    expect(res.body.results.map((r: { index: number }) => r.index)).toEqual([0, 1, 2, 3, 4]);
    expect(res.body.results[1]).toEqual({
      index: 1,
      error: "Invalid payload",
      details: { requests: { "1": { business: { address: { street: ["This field is required."] } } } } },
    });
    expect(res.body.results[3]).toEqual({
      index: 3,
      error: "Invalid payload",
      details: {
        requests: { "3": ['Expected a dictionary of items but got type "str".'] },
      },
    });
    expect(res.body.results[4].details).toEqual({
      requests: { "4": { foreign_key: ["This field may not be blank."] } },
    });
    // An accepted item answers exactly what submit answers for it, plus its index.
    const third = res.body.results[2];
    expect(third).toMatchObject({ index: 2, status: "success", foreign_key: "loc-2" });
    expect(third.tasks.map((t: { publisher_key: string }) => t.publisher_key)).toEqual([
      "example.com",
      "example.org",
    ]);
    expect(third.tasks_id).toBe(third.tasks[0].tasks_id);

    const stored = await storedRows(res.body.batch_id);
    expect(stored.requests.map((r) => [r.foreign_key, r.batch_index])).toEqual([
      ["loc-0", 0],
      ["loc-2", 2],
    ]);
    expect(stored.requests.map((r) => r.id)).toEqual([res.body.results[0].request_id, third.request_id]);
    expect(JSON.parse(stored.requests[0].business)).toEqual({ ...business(), id: "biz-0" });
    // Stored the way submit stores a task: JSON options, an empty file list, queued.
    expect(stored.tasks.map((t) => [t.publisher_key, t.status, t.position, t.files])).toEqual([
      ["example.com", 100, 0, "[]"],
      ["example.com", 100, 0, "[]"],
      ["example.org", 100, 1, "[]"],
    ]);
    expect(JSON.parse(stored.tasks[2].options)).toEqual({
      last_review_hashes: [],
      first_page_only: false,
      lazy: false,
    });
    // Every stored task was handed to its queue's gate, which sent them (fewer than its concurrency).
    expect((await gateTasks(accountId)).sort()).toEqual(stored.tasks.map((t) => t.id).sort());
    const sent = queue().sent.map((m) => (m as { task_id: string }).task_id);
    expect(sent.sort()).toEqual(stored.tasks.map((t) => t.id).sort());
  });

  it("answers 400 with every item's errors when no item is valid, and stores nothing", async () => {
    const { apiKey, accountId } = await createAccount();
    const res = await postJson(BATCH, batchBody(apiKey, [item(0, { publishers: {} }), { foreign_key: 7 }]));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "Invalid payload", status: "failed", accepted: 0, refused: 2 });
    expect(res.body.details.requests["0"]).toEqual({ publishers: ["This dictionary may not be empty."] });
    expect(res.body.details.requests["1"].foreign_key).toEqual(["Not a valid string."]);
    expect(res.body.details.requests["1"].business).toEqual(["This field is required."]);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM requests WHERE account_id = ?")
      .bind(accountId)
      .first<number>("n");
    expect(count).toBe(0);
    expect(queue().sent).toEqual([]);
  });

  it("refuses the batch's own fields as a whole: job, an empty list, too many items (naming BATCH_MAX)", async () => {
    const { apiKey } = await createAccount();
    const wrongJob = await postJson(BATCH, { ...batchBody(apiKey, [item(0)]), job: "x" });
    expect(wrongJob.status).toBe(400);
    expect(wrongJob.body.details).toEqual({ job: ['"x" is not a valid choice.'] });
    const empty = await postJson(BATCH, batchBody(apiKey, []));
    expect(empty.body.details).toEqual({ requests: ["This list may not be empty."] });
    const tooMany = await postJson(
      BATCH,
      batchBody(
        apiKey,
        Array.from({ length: 501 }, (_, n) => item(n)),
      ),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({
      error: "Invalid payload",
      details: { requests: ["Ensure this field has no more than 500 elements."] },
    });
    expect(queue().sent).toEqual([]);
  });

  it("takes its item limit from the BATCH_MAX setting", async () => {
    const { apiKey } = await createAccount();
    const send = async (n: number) => {
      const res = await worker.fetch(
        new Request(`${BASE}${BATCH}`, {
          method: "POST",
          body: JSON.stringify(
            batchBody(
              apiKey,
              Array.from({ length: n }, (_, i) => item(i)),
            ),
          ),
        }),
        { ...env, BATCH_MAX: "3" },
        createExecutionContext(),
      );
      return { status: res.status, body: await res.json<Record<string, unknown>>() };
    };
    expect(await send(4)).toEqual({
      status: 400,
      body: {
        error: "Invalid payload",
        details: { requests: ["Ensure this field has no more than 3 elements."] },
      },
    });
    expect((await send(3)).status).toBe(201);
  });

  it("answers a body over 1 MiB with a 400 that names the limit", async () => {
    const { apiKey } = await createAccount();
    const big = batchBody(
      apiKey,
      Array.from({ length: 200 }, (_, n) =>
        item(n, { business: { ...business(), description: "x".repeat(6000) } }),
      ),
    );
    const res = await post(BATCH, big);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: "Invalid payload",
      details: {
        non_field_errors: [
          "Ensure the request body has no more than 1048576 bytes (1 MiB); send fewer items per batch.",
        ],
      },
    });
  });

  it("checks the key first, at the top level", async () => {
    const res = await postJson(BATCH, batchBody("rk_not_a_key", [item(0)]));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "Invalid API key", details: { api_key: ["Invalid API key."] } });
    const missing = await postJson(BATCH, { job: JOB, requests: [item(0)] });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual({ api_key: ["This field is required."] });
  });
});

describe("plan limits on a batch", () => {
  it("counts every task of the valid items, and refuses a batch that would pass tasks per minute whole (429, Retry-After)", async () => {
    // free: 30 tasks per minute.
    const { apiKey, accountId } = await createAccount({ plan: "free" });
    const first = await postJson(
      BATCH,
      batchBody(apiKey, [...Array.from({ length: 20 }, (_, n) => item(n)), { foreign_key: 1 }]),
    );
    expect(first.status).toBe(201);
    expect(first.headers.get("x-tasks-remaining")).toBe("10");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("9");
    const held = await gateTasks(accountId);
    expect(held).toHaveLength(20);

    // 11 more tasks do not fit in the 10 left: nothing of the batch is stored or queued.
    const refused = await postJson(
      BATCH,
      batchBody(
        apiKey,
        Array.from({ length: 11 }, (_, n) => item(100 + n)),
      ),
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.body).toEqual({
      error: "Too Many Requests",
      details: {
        rate_limit: [
          expect.stringMatching(/^free plan allows 30 tasks per minute\. Retry after \d+ seconds\.$/),
        ],
      },
    });
    expect(await gateTasks(accountId)).toEqual(held);
    const batches = await env.DB.prepare("SELECT count(*) AS n FROM batches WHERE account_id = ?")
      .bind(accountId)
      .first<number>("n");
    expect(batches).toBe(1);

    // The refused batch took nothing from the window: the 10 left are still there.
    const fits = await postJson(
      BATCH,
      batchBody(
        apiKey,
        Array.from({ length: 10 }, (_, n) => item(200 + n)),
      ),
    );
    expect(fits.status).toBe(201);
    expect(fits.headers.get("x-tasks-remaining")).toBe("0");
  });
  it("says so when a batch holds more tasks than the plan allows in a whole minute", async () => {
    const { apiKey } = await createAccount({ plan: "free" });
    const res = await postJson(
      BATCH,
      batchBody(
        apiKey,
        Array.from({ length: 31 }, (_, n) => item(n)),
      ),
    );
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).not.toBeNull();
    expect(res.body.details.rate_limit).toEqual([
      "free plan allows 30 tasks per minute; this request holds 31. Send at most 30 per request.",
    ]);
    expect(queue().sent).toEqual([]);
  });
});

describe("how a batch is written", () => {
  it("stores every row of 500 items in one D1 round trip of three statements, one bound parameter each", async () => {
    const { apiKey, accountId } = await createAccount({ plan: "unlimited" });
    // Each batch call, as the parameters bound by each of its statements (the runtime's D1
    // statement keeps them in `params`).
    const calls: number[][] = [];
    const realSession = env.DB.withSession.bind(env.DB);
    vi.spyOn(env.DB, "withSession").mockImplementation((constraint) => {
      const session = realSession(constraint);
      const batch = session.batch.bind(session);
      session.batch = (statements) => {
        calls.push(
          statements.map((statement) => (statement as unknown as { params: unknown[] }).params.length),
        );
        return batch(statements);
      };
      return session;
    });
    const res = await postJson(
      BATCH,
      batchBody(
        apiKey,
        Array.from({ length: 500 }, (_, n) =>
          item(n, {
            publishers: {
              "example.com": {
                profile_key: `https://example.com/biz/${n}`,
                last_review_hashes: [],
                first_page_only: true,
              },
              "example.org": {
                profile_key: `https://example.org/biz/${n}`,
                last_review_hashes: [],
                first_page_only: true,
              },
            },
          }),
        ),
      ),
    );
    expect(res.status).toBe(201);
    expect(res.body.accepted).toBe(500);
    // One batch call: the batch row, the requests and the 1,000 tasks, one parameter per statement.
    expect(calls).toEqual([[1, 1, 1]]);
    const stored = await storedRows(res.body.batch_id);
    expect(stored.requests).toHaveLength(500);
    expect(stored.tasks).toHaveLength(1000);
    expect((await gateTasks(accountId)).length).toBe(1000);
  });
});
