/**
 * Issue 33: retention (RETENTION_DAYS, the cron's sweep) and the move of the old D1 review rows to
 * R2 (migration 0010's step), through the Worker's own scheduled() handler.
 *
 * Test files share one D1, so the ticks here run at a scheduled time long past (2001): only the tasks
 * this file dates before it can be old enough for the sweep.
 */
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import type { Review } from "../../src/core/reviews/review";
import { RETENTION_BATCH } from "../../src/app/scrape/retention";
import { call, createAccount, postJson, submitOk } from "../helpers/api";
import { completeWithReviews, storedReviews } from "../helpers/task-store";
import { putPageFile } from "../../src/storage/review-files";

const T0 = Date.UTC(2001, 0, 1);
const DAY = 86_400_000;

async function tick(scheduledTime: number, settings: Record<string, string> = {}) {
  await worker.scheduled(createScheduledController({ scheduledTime, cron: "*/5 * * * *" }), {
    ...env,
    ...settings,
  });
}

function review(i: number): Review {
  return {
    review_id: `ret-${i}`,
    author_name: `Author ${i}`,
    author_id: null,
    rating: 4,
    text: `Retained text ${i}`,
    url: "https://example.com/r",
    posted_at: Date.UTC(2000, 5, 1) - i * DAY,
    review_hash: "0".repeat(32),
    language: "en",
    source_date: "",
    scraped_at: 1,
  };
}

/** A completed task with a page file, finished at `finishedAt`; its retrieve body, file and export URLs. */
async function finishedTask(apiKey: string, foreignKey: string, finishedAt: number) {
  const { tasks_id: taskId, request_id: requestId } = await submitOk(apiKey, undefined, {
    foreign_key: foreignKey,
  });
  const file = `tasks/${taskId}/pages/1-abcdef12.jsonl`;
  const reviews = [review(1), review(2)];
  await putPageFile(env, file, reviews);
  await completeWithReviews(taskId, reviews, [file], finishedAt);
  const keys = { api_key: apiKey, foreign_key: foreignKey, publisher_key: "example.com", task_id: taskId };
  const retrieved = await postJson("/retrieve-task/", keys);
  expect(retrieved.status).toBe(200);
  const exported = await postJson("/export-task/", { ...keys, format: "csv" });
  expect(exported.status).toBe(201);
  const urls = [...(retrieved.body.business.reviews_urls as string[]), exported.body.url as string];
  return { taskId, requestId, keys, urls };
}

async function statusOf(url: string): Promise<number> {
  const u = new URL(url);
  const res = await call(u.pathname + u.search);
  await res.arrayBuffer();
  return res.status;
}

describe("retention", () => {
  it("deletes a task older than RETENTION_DAYS with its files and request at the next tick; a younger one stays", async () => {
    const { apiKey } = await createAccount();
    const old = await finishedTask(apiKey, "ret-old", T0 - 90 * DAY - 60_000);
    const young = await finishedTask(apiKey, "ret-young", T0 - 89 * DAY);
    for (const url of [...old.urls, ...young.urls]) expect(await statusOf(url)).toBe(200);

    await tick(T0); // RETENTION_DAYS unset: 90 days

    const gone = await postJson("/retrieve-task/", old.keys);
    expect(gone.status).toBe(404);
    const unknown = await postJson("/retrieve-task/", { ...old.keys, task_id: "never-existed" });
    expect(gone.body).toEqual({
      error: "Task not found",
      details: {
        foreign_key: `No task with foreign_key "ret-old" and task_id "${old.taskId}"`,
        publisher_key: `No task with publisher_key "example.com" and task_id "${old.taskId}"`,
      },
    });
    expect(JSON.stringify(unknown.body).replaceAll("never-existed", old.taskId)).toBe(
      JSON.stringify(gone.body),
    );
    expect((await postJson("/export-task/", { ...old.keys, format: "ndjson" })).status).toBe(404);
    for (const url of old.urls) expect(await statusOf(url)).toBe(404);
    expect((await env.REVIEW_FILES.list({ prefix: `tasks/${old.taskId}/` })).objects).toEqual([]);
    expect(
      await env.DB.prepare("SELECT id FROM requests WHERE id = ?").bind(old.requestId).first(),
    ).toBeNull();

    expect((await postJson("/retrieve-task/", young.keys)).body.reviews).toHaveLength(2);
    for (const url of young.urls) expect(await statusOf(url)).toBe(200);
    expect(
      await env.DB.prepare("SELECT id FROM requests WHERE id = ?").bind(young.requestId).first(),
    ).not.toBeNull();
  });

  it("takes fractions of a day, and keeps a request while one of its tasks remains", async () => {
    const { apiKey } = await createAccount();
    const { tasks, request_id: requestId } = await submitOk(
      apiKey,
      {
        "example.com": {
          profile_key: "https://example.com/biz/a",
          last_review_hashes: [],
          first_page_only: false,
        },
        "example.org": {
          profile_key: "https://example.org/biz/a",
          last_review_hashes: [],
          first_page_only: false,
        },
      },
      { foreign_key: "ret-fraction" },
    );
    await completeWithReviews(tasks[0].tasks_id, [review(1)], [], T0 - 20_000);
    await completeWithReviews(tasks[1].tasks_id, [review(2)], [], T0 - 1_000);
    await tick(T0, { RETENTION_DAYS: "0.0001" }); // 8.64 s
    const left = await env.DB.prepare("SELECT id FROM tasks WHERE id IN (?, ?)")
      .bind(tasks[0].tasks_id, tasks[1].tasks_id)
      .all<{ id: string }>();
    expect(left.results.map((r) => r.id)).toEqual([tasks[1].tasks_id]);
    const requestRow = () => env.DB.prepare("SELECT id FROM requests WHERE id = ?").bind(requestId).first();
    expect(await requestRow()).not.toBeNull();
    await tick(T0 + 10_000, { RETENTION_DAYS: "0.0001" });
    const remaining = await env.DB.prepare("SELECT count(*) AS n FROM tasks WHERE id = ?")
      .bind(tasks[1].tasks_id)
      .first("n");
    expect(remaining).toBe(0);
    expect(await requestRow()).toBeNull();
  });

  it(`is bounded per tick (${RETENTION_BATCH} tasks) and resumes at the next`, async () => {
    const { apiKey } = await createAccount();
    const ids: string[] = [];
    for (let i = 0; i < RETENTION_BATCH + 5; i++) {
      const { tasks_id } = await submitOk(apiKey, undefined, { foreign_key: `ret-batch-${i}` });
      await completeWithReviews(tasks_id, [review(i)], [], T0 - 100 * DAY - i);
      ids.push(tasks_id);
    }
    const count = async () =>
      (await env.DB.prepare(`SELECT count(*) AS n FROM tasks WHERE finished_at < ?`)
        .bind(T0 - 90 * DAY)
        .first<number>("n"))!;
    await tick(T0);
    expect(await count()).toBe(5);
    await tick(T0);
    expect(await count()).toBe(0);
  });
});

describe("migration 0010: the old review rows move to R2", () => {
  it("moves a completed task's rows into its store (same order), drops other tasks' rows, then the table", async () => {
    await env.DB.prepare(
      `CREATE TABLE IF NOT EXISTS legacy_reviews (task_id text NOT NULL REFERENCES tasks(id), review_id text NOT NULL, posted_at integer NOT NULL, position integer, data text NOT NULL, PRIMARY KEY(task_id, review_id))`,
    ).run();
    const { apiKey } = await createAccount();
    const done = await submitOk(apiKey, undefined, { foreign_key: "legacy-1" });
    const running = await submitOk(apiKey, undefined, { foreign_key: "legacy-2" });
    const reviews = Array.from({ length: 1203 }, (_, i) => ({
      ...review(i),
      posted_at: T0 - (i % 400) * DAY,
    }));
    // As the old completion left them: positions newest first, ties by review_id.
    const ordered = [...reviews].sort(
      (a, b) => b.posted_at - a.posted_at || (a.review_id < b.review_id ? -1 : 1),
    );
    const rows: (string | number | null)[][] = ordered.map((r, i) => [
      done.tasks_id,
      r.review_id,
      r.posted_at,
      i + 1,
      JSON.stringify(r),
    ]);
    rows.push([running.tasks_id, "x-1", 1, null, JSON.stringify(review(9999))]);
    const insert = env.DB.prepare(
      "INSERT INTO legacy_reviews (task_id, review_id, posted_at, position, data) VALUES (?, ?, ?, ?, ?)",
    );
    for (let i = 0; i < rows.length; i += 200)
      await env.DB.batch(rows.slice(i, i + 200).map((r) => insert.bind(...r)));
    await env.DB.prepare("UPDATE tasks SET status = 200, reviews_found = ?, finished_at = ? WHERE id = ?")
      .bind(reviews.length, Date.now(), done.tasks_id)
      .run();

    // A retrieve that comes before the cron moves the task's rows on the spot.
    const early = await postJson("/retrieve-task/", {
      api_key: apiKey,
      foreign_key: "legacy-1",
      publisher_key: "example.com",
      task_id: done.tasks_id,
      page: 2,
      page_size: 100,
    });
    expect(early.body.reviews).toEqual(ordered.slice(100, 200));
    expect(await storedReviews(done.tasks_id)).toEqual(ordered);

    for (let i = 0; i < 20; i++) {
      await tick(Date.now() + i);
      const table = await env.DB.prepare(
        `SELECT name FROM sqlite_master WHERE name = 'legacy_reviews'`,
      ).first();
      if (!table) break;
    }
    expect(
      await env.DB.prepare(`SELECT name FROM sqlite_master WHERE name = 'legacy_reviews'`).first(),
    ).toBeNull();
    expect(await storedReviews(done.tasks_id)).toEqual(ordered);
    expect(await storedReviews(running.tasks_id)).toEqual([]);
    const page = await postJson("/retrieve-task/", {
      api_key: apiKey,
      foreign_key: "legacy-1",
      publisher_key: "example.com",
      task_id: done.tasks_id,
      page: 3,
      page_size: 500,
    });
    expect(page.body.reviews).toEqual(ordered.slice(1000));
    expect(page.body.pagination).toMatchObject({ total_reviews: 1203, total_pages: 3 });
  });
});
