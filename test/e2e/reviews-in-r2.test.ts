/**
 * Issue 33: reviews live in R2, D1 keeps no per-review rows. A 1,000-review task walked through the
 * real queue consumer (50 pages, 10 runs, every page repeating the previous page's last review)
 * completes with none of its texts in D1, and every page reads back in order, deduplicated; the
 * run's deduplication stays exact when a restart finds no id snapshot, or only an older one.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BULK } from "../fixtures/reviews";
import { queuePerTest } from "../helpers/queue";
import { retrieve, slug, storedPageFileKeys, submitScrape, taskRow } from "./support";

const queue = queuePerTest();

/** Every row of every table of the local D1 as text. */
async function wholeDatabase(): Promise<string> {
  const { results } = await env.DB.prepare(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'`,
  ).all<{ name: string }>();
  const dumps: string[] = [];
  for (const { name } of results)
    dumps.push(JSON.stringify((await env.DB.prepare(`SELECT * FROM "${name}"`).all()).results));
  return dumps.join("\n");
}

const EXPECTED_IDS = BULK.map((r) => r.id); // one day apart, newest first: already the promised order

async function allPages(task: Awaited<ReturnType<typeof submitScrape>>, pageSize: number) {
  const reviews: { review_id: string; text: string; author_name: string }[] = [];
  for (let page = 1; ; page++) {
    const body = await retrieve(task, page, pageSize);
    reviews.push(...body.reviews);
    expect(body.pagination).toMatchObject({ total_reviews: 1000, page, page_size: pageSize });
    if (!body.pagination.has_next) break;
  }
  return reviews;
}

async function snapshots(taskId: string): Promise<string[]> {
  return (await env.REVIEW_FILES.list({ prefix: `tasks/${taskId}/ids/` })).objects.map((o) => o.key);
}

describe("reviews in R2", () => {
  it("a 1,000-review task leaves none of its texts in D1, and every page reads back in order, deduplicated", async () => {
    const task = await submitScrape("bulk.test", `https://bulk.test/biz/${slug("bulk")}`);
    await queue().drain(200);
    expect(await taskRow(task.taskId)).toMatchObject({ status: 200, pages_scraped: 50, reviews_found: 1000 });

    const dump = await wholeDatabase();
    expect(dump).toContain(task.taskId);
    for (const review of [BULK[0], BULK[499], BULK[999]]) {
      expect(dump).not.toContain(review.text);
      expect(dump).not.toContain(review.author);
    }
    expect(dump).not.toContain("the coffee was excellent");

    const by50 = await allPages(task, 50);
    expect(by50.map((r) => r.review_id)).toEqual(EXPECTED_IDS);
    expect(by50.map((r) => r.author_name)).toEqual(BULK.map((r) => r.author));
    const by1000 = await allPages(task, 1000);
    expect(by1000).toEqual(by50);
    const by333 = await allPages(task, 333);
    expect(by333).toEqual(by50);

    // The page files hold each review once (a page's repeat of the previous page's last is not stored).
    const files = await storedPageFileKeys(task.taskId);
    expect(files).toHaveLength(50);
    let lines = 0;
    for (const key of files)
      lines += (await (await env.REVIEW_FILES.get(key))!.text()).trim().split("\n").length;
    expect(lines).toBe(1000);
  }, 120_000);

  it("a restart that finds no id snapshot, or only an older one, still stores each review once", async () => {
    const task = await submitScrape("bulk.test", `https://bulk.test/biz/${slug("restart")}`);
    await queue().deliverNext(); // run 1: pages 1-5, snapshot of 5 files
    await queue().deliverNext(); // run 2: pages 6-10, snapshot of 10 files
    expect(await snapshots(task.taskId)).toEqual([
      `tasks/${task.taskId}/ids/10.txt`,
      `tasks/${task.taskId}/ids/5.txt`,
    ]);
    // Run 3 finds only the older snapshot: it reads the 5 files recorded after it.
    await env.REVIEW_FILES.delete(`tasks/${task.taskId}/ids/10.txt`);
    await queue().deliverNext();
    expect(await taskRow(task.taskId)).toMatchObject({ pages_scraped: 15, reviews_found: 300 });
    // Run 4 finds none: it reads every recorded file.
    await env.REVIEW_FILES.delete((await snapshots(task.taskId)).map((k) => k));
    await queue().drain(200);
    expect(await taskRow(task.taskId)).toMatchObject({ status: 200, reviews_found: 1000 });
    expect((await allPages(task, 1000)).map((r) => r.review_id)).toEqual(EXPECTED_IDS);
  }, 120_000);
});
