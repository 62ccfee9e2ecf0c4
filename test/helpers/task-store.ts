import { env } from "cloudflare:workers";
import type { Review } from "../../src/core/reviews/review";
import {
  readAllReviews,
  ReviewCollector,
  taskReviewsKey,
  writeTaskReviews,
} from "../../src/storage/task-reviews";

/**
 * Marks a submitted task completed with these reviews, as completion leaves it: the reviews in the
 * task's R2 store (written by the service's own writer, so sorted and deduplicated the same way) and
 * the row pointing at it.
 */
export async function completeWithReviews(
  taskId: string,
  reviews: readonly Review[],
  files: readonly string[] = [],
  finishedAt = Date.now(),
): Promise<void> {
  const collector = new ReviewCollector();
  for (const review of reviews) collector.addJson(JSON.stringify(review));
  const key = taskReviewsKey(taskId, "test0000");
  const count = await writeTaskReviews(env, key, collector);
  await env.DB.prepare(
    "UPDATE tasks SET status = 200, reviews_found = ?, pages_scraped = ?, files = ?, reviews_key = ?, finished_at = ? WHERE id = ?",
  )
    .bind(count, Math.max(1, files.length), JSON.stringify(files), key, finishedAt, taskId)
    .run();
}

/** The reviews of a task's R2 store, in position order ([] when it has none). */
export async function storedReviews(taskId: string): Promise<Review[]> {
  const row = await env.DB.prepare("SELECT reviews_key FROM tasks WHERE id = ?")
    .bind(taskId)
    .first<{ reviews_key: string | null }>();
  return row?.reviews_key ? readAllReviews(env, row.reviews_key) : [];
}
