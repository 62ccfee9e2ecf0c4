import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { IDLE_MS } from "../../src/app/scrape/sweep";
import { createAccount, endUnfinishedTasks, postJson, publisherConfig, submitBody } from "../helpers/api";
import { QueueDriver } from "../helpers/queue";

let queue: QueueDriver | undefined;
afterEach(() => queue?.restore());

/** 250 queued tasks (10 submits of 25 publishers) whose messages were lost. */
async function lostTasks(): Promise<string[]> {
  await endUnfinishedTasks();
  const submitting = new QueueDriver();
  const { apiKey } = await createAccount({ plan: "unlimited" });
  const ids: string[] = [];
  for (let s = 0; s < 10; s++) {
    const publishers = Object.fromEntries(Array.from({ length: 25 }, (_, p) => [`p${p}.example.com`, publisherConfig(`p${p}.example.com`)]));
    const res = await postJson("/submit/request-reviews/", submitBody(apiKey, publishers, { foreign_key: `sweep-${s}` }));
    expect(res.status).toBe(201);
    ids.push(...res.body.tasks.map((t: { tasks_id: string }) => t.tasks_id));
  }
  submitting.restore(); // the 250 messages it holds are lost
  return ids;
}

const sweep = () => worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), env);

describe("sweeper", () => {
  it("re-queues 250 idle tasks oldest first, in batches within D1's and the queue's limits, once", async () => {
    const ids = await lostTasks();
    // Idle for more than IDLE_MS, each a second older than the next: the oldest is the last submitted.
    const now = Date.now();
    const oldestFirst = [...ids].reverse();
    await env.DB.batch(
      oldestFirst.map((id, i) => env.DB.prepare("UPDATE tasks SET updated_at = ? WHERE id = ?").bind(now - IDLE_MS - 1_000_000 + i * 1000, id)),
    );

    queue = new QueueDriver();
    await sweep();
    // Files share the runtime and may run side by side (vitest isolate: false), so only this test's
    // tasks are looked at; whatever else another file left idle may be swept along.
    const ours = () => queue!.sent.filter((m) => ids.includes((m as { task_id: string }).task_id));
    expect(ours()).toEqual(oldestFirst.map((id) => ({ task_id: id, run: 1 })));
    const batchSizes = vi.mocked(env.SCRAPE_GENERIC).sendBatch.mock.calls.map(([messages]) => [...messages].length);
    expect(batchSizes.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(250);
    expect(Math.max(...batchSizes)).toBeLessThanOrEqual(99);

    // Every one was touched: the next sweep leaves them IDLE_MS for their messages to arrive.
    const touched = await env.DB.prepare(`SELECT count(*) AS n FROM tasks WHERE updated_at >= ? AND id IN (SELECT value FROM json_each(?))`)
      .bind(now, JSON.stringify(ids))
      .first<number>("n");
    expect(touched).toBe(250);
    await sweep();
    expect(ours()).toHaveLength(250);
  });
});
