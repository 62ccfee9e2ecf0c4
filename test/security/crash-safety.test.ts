import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { storePage } from "../../src/app/scrape/store-page";
import type { Review } from "../../src/http/schemas/retrieve";
import { DEAD_LETTER_QUEUE, GENERIC_QUEUE, queuePerTest } from "../helpers/queue";
import {
  retrieve,
  reviewRowCount,
  slug,
  storedFileKeys,
  storedPageFileKeys,
  submitScrape,
  taskRow,
} from "../e2e/support";

const queue = queuePerTest();

const zombieReview: Review = {
  review_id: "zombie-1",
  author_name: "Zombie",
  author_id: null,
  rating: 1,
  text: "written by a run that lost its lease",
  url: "https://multipage.test/zombie",
  posted_at: 1,
  review_hash: "0".repeat(32),
  language: "en",
  source_date: "",
  scraped_at: 1,
};

async function fileTexts(taskId: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const key of await storedPageFileKeys(taskId))
    out[key] = await (await env.REVIEW_FILES.get(key))!.text();
  return out;
}

describe("a run that lost its lease", () => {
  it("changes no page file of the run that holds the task, and leaves none of its own", async () => {
    const task = await submitScrape("multipage.test", `https://multipage.test/biz/${slug("zombie")}`);
    await queue().deliverNext(); // run 1 stores pages 1-5 and hands over to run 2
    const row = (await taskRow(task.taskId))!;
    expect(row).toMatchObject({ status: 101, pages_scraped: 5 });
    const before = await fileTexts(task.taskId);
    expect(Object.keys(before)).toHaveLength(5);
    expect(JSON.parse(row.files as string)).toEqual(
      Object.keys(before).sort(
        (a, b) => Number(a.match(/pages\/(\d+)[-.]/)![1]) - Number(b.match(/pages\/(\d+)[-.]/)![1]),
      ),
    );

    // A stale run (its token no longer the task's) stores page 5 again and page 6.
    for (const page of [5, 6]) {
      expect(
        await storePage(env, {
          taskId: task.taskId,
          token: "stale-token",
          page,
          reviews: [zombieReview],
          next: { page: page + 1, state: null },
        }),
      ).toBe(false);
    }
    expect(await fileTexts(task.taskId)).toEqual(before);
  });

  it("cannot bring back the files of a task that failed", async () => {
    const task = await submitScrape("multipage.test", `https://multipage.test/biz/${slug("failed")}`);
    await queue().deliverNext();
    const token = "token-of-the-run-that-stalls";
    // The task then fails (its budget ran out) and keeps nothing, while a run still works on it.
    await env.DB.prepare("UPDATE tasks SET deadline_at = ? WHERE id = ?")
      .bind(Date.now() - 1, task.taskId)
      .run();
    await queue().drain();
    expect(await taskRow(task.taskId)).toMatchObject({ status: 500, reason: "timeout" });
    expect(await storedFileKeys(task.taskId)).toEqual([]);

    expect(
      await storePage(env, {
        taskId: task.taskId,
        token,
        page: 6,
        reviews: [zombieReview],
        next: { page: 7, state: null },
      }),
    ).toBe(false);
    expect(await storedFileKeys(task.taskId)).toEqual([]);
    expect(await reviewRowCount(task.taskId)).toBe(0);
  });
});

describe("dead letters", () => {
  it("come back after the crashed run's lease instead of being dropped, then fail the task and keep nothing", async () => {
    const task = await submitScrape("multipage.test", `https://multipage.test/biz/${slug("dlq")}`);
    // The Worker dies while storing page 3: the put never returns and the run never cleans up.
    const put = env.REVIEW_FILES.put.bind(env.REVIEW_FILES);
    let reachedPage3!: () => void;
    const crashed = new Promise<void>((resolve) => (reachedPage3 = resolve));
    vi.spyOn(env.REVIEW_FILES, "put").mockImplementation((key, ...rest) => {
      if (/\/pages\/3[-.]/.test(key)) return (reachedPage3(), new Promise<never>(() => {}));
      return put(key, ...rest);
    });
    queue().crashNextDeliveryWhen(() => crashed);
    await queue().deliverNext();
    // Its redeliveries crash too until their retries run out: the message is a dead letter while
    // the dead run's lease is still live.
    queue().moveToDeadLetters();
    await queue().deliverNext();
    const leaseUntil = (await taskRow(task.taskId))!.lease_until as number;
    expect(queue().deliveries.map((d) => [d.queue, d.outcome])).toEqual([
      [GENERIC_QUEUE, "crash"],
      [DEAD_LETTER_QUEUE, "retry"],
    ]);
    const wait = queue().deliveries.at(-1)!.delaySeconds!;
    expect(Date.now() + wait * 1000).toBeGreaterThan(leaseUntil);
    expect(wait).toBeLessThanOrEqual(121);
    expect(await taskRow(task.taskId)).toMatchObject({ status: 101, pages_scraped: 2 });

    // The dead letter returns once the lease has expired (the driver moves the clock by its delay):
    // the task fails and keeps nothing.
    await queue().deliverNext();
    expect(Date.now()).toBeGreaterThan(leaseUntil);
    expect(queue().deliveries.at(-1)).toMatchObject({ queue: DEAD_LETTER_QUEUE, outcome: "ack" });
    expect(await taskRow(task.taskId)).toMatchObject({ status: 500, reason: "internal", files: "[]" });
    expect((await retrieve(task)).response_message).toEqual([
      { status: "failed", message: "Task processing failed", task_status: 500, reason: "internal" },
    ]);
    expect(await reviewRowCount(task.taskId)).toBe(0);
    expect(await storedFileKeys(task.taskId)).toEqual([]);
    expect(queue().pending).toEqual([]);
  });
});
