import type { Review } from "../reviews/review";

/** R2 keys of a task's raw files all start with this, so they can be listed and removed together. */
export function taskFilesPrefix(taskId: string): string {
  return `tasks/${taskId}/`;
}

/**
 * One JSON Lines file per scraped page, named by page number and by the write (`attempt`, random),
 * so a run that lost its lease can never overwrite the file another run recorded: only the key the
 * guarded D1 update records in `tasks.files` is ever served.
 */
export function pageFileKey(taskId: string, page: number, attempt: string): string {
  return `${taskFilesPrefix(taskId)}pages/${page}-${attempt}.jsonl`;
}

export function toJsonLines(reviews: readonly Review[]): string {
  return reviews.map((review) => JSON.stringify(review) + "\n").join("");
}

export async function putPageFile(env: Env, key: string, reviews: readonly Review[]): Promise<void> {
  await env.REVIEW_FILES.put(key, toJsonLines(reviews), { httpMetadata: { contentType: "application/x-ndjson; charset=utf-8" } });
}

/** Removes every raw file of a task (idempotent). */
export async function deleteTaskFiles(env: Env, taskId: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const listing = await env.REVIEW_FILES.list({ prefix: taskFilesPrefix(taskId), cursor });
    if (listing.objects.length) await env.REVIEW_FILES.delete(listing.objects.map((o) => o.key));
    cursor = listing.truncated ? listing.cursor : undefined;
  } while (cursor);
}
