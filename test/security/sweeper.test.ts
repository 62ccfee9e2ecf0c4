import { createScheduledController, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { IDLE_MS } from "../../src/app/scrape/sweep";
import { createAccount, endUnfinishedTasks, postJson, publisherConfig, submitBody } from "../helpers/api";
import { QueueDriver } from "../helpers/queue";
import { moduleQueue } from "../../src/publishers/queues";
import { GENERIC_MODULE } from "../../src/publishers/registry";
import { QUEUE_CONCURRENCY } from "../../src/queue/concurrency";
import { QueueGate, queueGate } from "../../src/queue/queue-gate";

let queue: QueueDriver | undefined;
afterEach(() => queue?.restore());

/** 250 queued tasks (10 submits of 25 publishers) whose messages were lost. */
async function lostTasks(): Promise<string[]> {
  await endUnfinishedTasks();
  const submitting = new QueueDriver();
  const { apiKey } = await createAccount({ plan: "unlimited" });
  const ids: string[] = [];
  for (let s = 0; s < 10; s++) {
    const publishers = Object.fromEntries(
      Array.from({ length: 25 }, (_, p) => [`p${p}.example.com`, publisherConfig(`p${p}.example.com`)]),
    );
    const res = await postJson(
      "/submit/request-reviews/",
      submitBody(apiKey, publishers, { foreign_key: `sweep-${s}` }),
    );
    expect(res.status).toBe(201);
    ids.push(...res.body.tasks.map((t: { tasks_id: string }) => t.tasks_id));
  }
  submitting.restore(); // the 250 messages it holds are lost
  return ids;
}

const sweep = () => worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), env);

describe("sweeper", () => {
  it("hands 250 idle tasks back to their queue's gate oldest first, in chunks within D1's limits, once; the gate sends what the queue's share allows", async () => {
    const ids = await lostTasks();
    // Idle for more than IDLE_MS, each a second older than the next: the oldest is the last submitted.
    const now = Date.now();
    const oldestFirst = [...ids].reverse();
    await env.DB.batch(
      oldestFirst.map((id, i) =>
        env.DB.prepare("UPDATE tasks SET updated_at = ? WHERE id = ?").bind(
          now - IDLE_MS - 1_000_000 + i * 1000,
          id,
        ),
      ),
    );
    // The safety net under the gate: the gate itself has lost them too (its storage wiped).
    const gate = queueGate(env, moduleQueue(GENERIC_MODULE.name));
    await runInDurableObject(gate, (_g, state) => state.storage.sql.exec("DELETE FROM gate_tasks"));

    queue = new QueueDriver();
    const offer = vi.spyOn(QueueGate.prototype, "offer");
    await sweep();
    // Files share the runtime (vitest isolate: false), so only this test's tasks are looked at;
    // whatever else another file left idle may be swept along.
    const offered = offer.mock.calls
      .flatMap(([, offers]) => offers.map((o) => o.taskId))
      .filter((id) => ids.includes(id));
    expect(offered).toEqual(oldestFirst);
    expect(Math.max(...offer.mock.calls.map(([, offers]) => offers.length))).toBeLessThanOrEqual(99);
    // The queue gets the oldest ones, as many as its consumers run at once; the rest wait in the gate.
    const ours = () => queue!.sent.filter((m) => ids.includes((m as { task_id: string }).task_id));
    expect(ours()).toEqual(
      oldestFirst.slice(0, QUEUE_CONCURRENCY["scrape-generic"]).map((id) => ({ task_id: id, run: 1 })),
    );
    const held = (await gate.counts())
      .filter((c) => c.state === "waiting" || c.state === "sent")
      .reduce((n, c) => n + c.n, 0);
    expect(held).toBeGreaterThanOrEqual(250);

    // Every one was touched: the next sweep leaves them IDLE_MS for their messages to arrive.
    const touched = await env.DB.prepare(
      `SELECT count(*) AS n FROM tasks WHERE updated_at >= ? AND id IN (SELECT value FROM json_each(?))`,
    )
      .bind(now, JSON.stringify(ids))
      .first<number>("n");
    expect(touched).toBe(250);
    offer.mockClear();
    await sweep();
    expect(
      offer.mock.calls.flatMap(([, offers]) => offers.map((o) => o.taskId)).filter((id) => ids.includes(id)),
    ).toEqual([]);
    expect(ours()).toHaveLength(QUEUE_CONCURRENCY["scrape-generic"]);
  });
});
