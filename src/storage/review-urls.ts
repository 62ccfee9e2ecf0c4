/**
 * The signed, expiring URLs a completed task's `reviews_urls` hand out: one per page file, or per
 * range of them (./review-files), signed by ./signed-url.
 */
import type { TaskRow } from "../db/schema";
import { settings } from "../settings";
import { reviewsUrlKeys } from "./review-files";
import { fileUrlExpiry, signFileUrls } from "./signed-url";

export interface SignedUrls {
  urls: string[];
  json: string;
}

/**
 * Signed URL lists of completed tasks by task, origin and expiry. A completed task's files never
 * change and expiries are rounded up to the hour, so a list is signed once an hour per isolate
 * instead of once per request (a 10,000-review task has hundreds of files), and while it is cached
 * retrieve does not even read the file list. Bounded by total characters, oldest out first.
 */
const urlCache = new Map<string, SignedUrls>();
const URL_CACHE_MAX_CHARS = 8_000_000;
let urlCacheChars = 0;

function urlCacheKey(env: Env, baseUrl: string, taskId: string): string {
  return `${taskId}\n${fileUrlExpiry(settings(env).reviewFileUrlTtlSeconds)}\n${baseUrl}`;
}

export async function signedReviewsUrls(
  env: Env,
  baseUrl: string,
  taskId: string,
  files: readonly string[],
): Promise<SignedUrls> {
  const cacheKey = urlCacheKey(env, baseUrl, taskId);
  const hit = urlCache.get(cacheKey);
  if (hit) return hit;
  const expires = Number(cacheKey.split("\n")[1]);
  const urls = await signFileUrls(env.URL_SIGNING_KEY, baseUrl, reviewsUrlKeys(taskId, files), expires);
  const entry = { urls, json: JSON.stringify(urls) };
  if (entry.json.length <= URL_CACHE_MAX_CHARS / 4) {
    while (urlCacheChars + entry.json.length > URL_CACHE_MAX_CHARS && urlCache.size) {
      const [oldest, old] = urlCache.entries().next().value as [string, SignedUrls];
      urlCache.delete(oldest);
      urlCacheChars -= old.json.length;
    }
    urlCache.set(cacheKey, entry);
    urlCacheChars += entry.json.length;
  }
  return entry;
}

/** The signed URL list cached for the task, origin and current expiry, if any. */
export function cachedReviewsUrls(env: Env, baseUrl: string, taskId: string): SignedUrls | null {
  return urlCache.get(urlCacheKey(env, baseUrl, taskId)) ?? null;
}

/**
 * Signed URLs of a completed task's raw page files (ranges of them for a task of more than
 * MAX_REVIEWS_URLS files), valid for at least the configured lifetime from now.
 */
export async function reviewsUrls(
  env: Env,
  baseUrl: string,
  task: Pick<TaskRow, "id" | "files">,
): Promise<string[]> {
  return (await signedReviewsUrls(env, baseUrl, task.id, task.files)).urls;
}
