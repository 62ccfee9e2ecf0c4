/**
 * Issue 33: a 100,000-review export is streamed, never built whole. The file comes through the
 * Worker's /files/ route from a store of 100,000 reviews; the test reads it chunk by chunk and
 * checks that no chunk holds more than one window (EXPORT_WINDOW reviews) and that the rows are all
 * there, in order. Memory as such cannot be read inside workerd; what this bounds is what the
 * export ever holds at once: the index (20 bytes a review) and one window of lines.
 */
import { parse } from "csv-parse/sync";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { EXPORT_WINDOW } from "../../src/storage/task-export";
import { ReviewCollector, taskReviewsKey, writeTaskReviews } from "../../src/storage/task-reviews";
import { call, createAccount, postJson, submitOk } from "../helpers/api";

const COUNT = 100_000;

it("streams a 100,000-review CSV export one window at a time", async () => {
  const { apiKey } = await createAccount({ plan: "unlimited" });
  const { tasks_id: taskId } = await submitOk(apiKey, undefined, { foreign_key: "export-100k" });
  const collector = new ReviewCollector();
  for (let i = 0; i < COUNT; i++) {
    collector.addJson(
      JSON.stringify({
        review_id: `r${i}`,
        author_name: `A${i}`,
        author_id: null,
        rating: (i % 5) + 1,
        text: `Text ${i}, "quoted"`,
        url: "https://example.com/r",
        posted_at: 1_700_000_000_000 - i * 1000,
        review_hash: "0".repeat(32),
        language: "en",
      }),
    );
  }
  const key = taskReviewsKey(taskId, "bigbig00");
  expect(await writeTaskReviews(env, key, collector)).toBe(COUNT);
  await env.DB.prepare(
    "UPDATE tasks SET status = 200, reviews_found = ?, reviews_key = ?, finished_at = ? WHERE id = ?",
  )
    .bind(COUNT, key, Date.now(), taskId)
    .run();

  const res = await postJson("/export-task/", {
    api_key: apiKey,
    foreign_key: "export-100k",
    publisher_key: "example.com",
    task_id: taskId,
    format: "csv",
  });
  expect(res.body).toMatchObject({ format: "csv", reviews: COUNT });
  const url = new URL(res.body.url);
  const file = await call(url.pathname + url.search);
  expect(file.status).toBe(200);

  const reader = file.body!.getReader();
  const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  let text = "";
  let chunks = 0;
  let largestRows = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks++;
    const part = decoder.decode(value, { stream: true });
    largestRows = Math.max(largestRows, part.split("\r\n").length - 1);
    text += part;
  }
  // The header, then one chunk per window of 1,000 reviews: never the file at once.
  expect(largestRows).toBeLessThanOrEqual(EXPORT_WINDOW);
  expect(chunks).toBeGreaterThanOrEqual(COUNT / EXPORT_WINDOW);
  const rows = parse<Record<string, string>>(text, { bom: true, columns: true });
  expect(rows).toHaveLength(COUNT);
  expect(rows[0]).toMatchObject({ review_id: "r0", text: 'Text 0, "quoted"', rating: "1" });
  expect(rows[COUNT - 1]).toMatchObject({
    review_id: `r${COUNT - 1}`,
    posted_at: String(1_700_000_000_000 - (COUNT - 1) * 1000),
  });
}, 180_000);
