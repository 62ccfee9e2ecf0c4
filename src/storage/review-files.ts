/**
 * Review files in R2: their keys, writes and removal, and the streams the signed /files/ URLs
 * serve. A task's `reviews_urls` name these keys (signed by ./signed-url).
 */
import { eq } from "drizzle-orm";
import { database } from "../db/client";
import { tasks } from "../db/schema";
import type { Review } from "../core/reviews/review";
import { EXPORT_CONTENT_TYPES, openExportFile, parseExportKey } from "./task-export";

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

/**
 * At most this many `reviews_urls` per task. A task of up to this many page files lists one URL per
 * file; a larger one lists contiguous ranges of its page files, each served as one JSON Lines file
 * (the pages' files one after the other), so a 10,000-review task's answers stay a few KiB.
 */
export const MAX_REVIEWS_URLS = 100;

const RANGE_KEY = /^tasks\/([^/]+)\/range\/(\d{1,6})-(\d{1,6})\.jsonl$/;

/** The key a range of a task's page files (1-based, inclusive) is signed and served under. */
export function rangeFileKey(taskId: string, from: number, to: number): string {
  return `${taskFilesPrefix(taskId)}range/${from}-${to}.jsonl`;
}

/** The task and 1-based inclusive page-file range a range key names, or null for any other key. */
export function parseRangeFileKey(key: string): { taskId: string; from: number; to: number } | null {
  const match = RANGE_KEY.exec(key);
  if (!match) return null;
  const [from, to] = [Number(match[2]), Number(match[3])];
  return from >= 1 && from <= to ? { taskId: match[1], from, to } : null;
}

/**
 * The keys a task's `reviews_urls` name, in page order: its page files themselves, or, past
 * MAX_REVIEWS_URLS files, ranges of equal size (the last one shorter) covering every file.
 */
export function reviewsUrlKeys(taskId: string, files: readonly string[]): string[] {
  if (files.length <= MAX_REVIEWS_URLS) return [...files];
  const per = Math.ceil(files.length / MAX_REVIEWS_URLS);
  const keys: string[] = [];
  for (let from = 1; from <= files.length; from += per)
    keys.push(rangeFileKey(taskId, from, Math.min(files.length, from + per - 1)));
  return keys;
}

export function toJsonLines(reviews: readonly Review[]): string {
  return reviews.map((review) => JSON.stringify(review) + "\n").join("");
}

export async function putPageFile(env: Env, key: string, reviews: readonly Review[]): Promise<void> {
  await env.REVIEW_FILES.put(key, toJsonLines(reviews), {
    httpMetadata: { contentType: "application/x-ndjson; charset=utf-8" },
  });
}

/**
 * The bytes of recorded page files, in their order, a few at a time. A recorded file that is gone
 * (retention raced the reader) is an error: completing without it would lose reviews silently.
 */
export async function readPageFiles(env: Env, keys: readonly string[]): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (let i = 0; i < keys.length; i += 8) {
    const batch = await Promise.all(
      keys.slice(i, i + 8).map(async (key) => {
        const object = await env.REVIEW_FILES.get(key);
        if (!object) throw new Error(`recorded page file ${key} is missing`);
        return new Uint8Array(await object.arrayBuffer());
      }),
    );
    out.push(...batch);
  }
  return out;
}

/** Removes one file (a page file its run could not record). */
export async function deleteFile(env: Env, key: string): Promise<void> {
  await env.REVIEW_FILES.delete(key);
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

/**
 * The page files a range key covers, as one stream in page order, or null when the task no longer
 * has them (deleted by retention, or the range is not one of its own). The range is cut from the
 * task's recorded file list, so only files a guarded write recorded are ever served.
 */
async function openRangeFile(
  env: Env,
  range: { taskId: string; from: number; to: number },
): Promise<ReadableStream<Uint8Array> | null> {
  const row = await database(env.DB)
    .select({ files: tasks.files })
    .from(tasks)
    .where(eq(tasks.id, range.taskId))
    .get();
  const keys = row?.files.slice(range.from - 1, range.to) ?? [];
  if (keys.length !== range.to - range.from + 1) return null;
  const first = await env.REVIEW_FILES.get(keys[0]);
  if (!first) return null;
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const copy = async () => {
    let body: ReadableStream<Uint8Array> | null = first.body;
    for (let i = 0; body; i++) {
      await body.pipeTo(writable, { preventClose: true });
      if (i + 1 === keys.length) break;
      const next = await env.REVIEW_FILES.get(keys[i + 1]);
      // A file the task recorded is gone: end the download in error rather than silently short.
      if (!next) throw new Error(`page file ${i + range.from + 1} of the range is missing`);
      body = next.body;
    }
    await writable.close();
  };
  copy().catch((err: unknown) => writable.abort(err).catch(() => {}));
  return readable;
}

export interface ServedFile {
  body: ReadableStream<Uint8Array>;
  /** Set for an export (CSV or NDJSON); page files and ranges are JSON Lines. */
  contentType?: string;
  /** The download's file name, for an export. */
  fileName?: string;
  /** Set for a single stored file; a range is assembled per request and has none. */
  etag?: string;
}

/**
 * The file a verified signed URL names: a whole-task export (./task-export), a range of a large task's page files (see
 * MAX_REVIEWS_URLS) as one stream, or one stored file; null when it no longer exists.
 */
export async function openReviewFile(env: Env, key: string): Promise<ServedFile | null> {
  const exported = parseExportKey(key);
  if (exported) {
    const file = await openExportFile(env, key);
    return file
      ? {
          body: file.body,
          contentType: EXPORT_CONTENT_TYPES[file.format],
          fileName: `reviews-${exported.taskId}.${file.format}`,
        }
      : null;
  }
  const range = parseRangeFileKey(key);
  if (range) {
    const body = await openRangeFile(env, range);
    return body ? { body } : null;
  }
  const object = await env.REVIEW_FILES.get(key);
  // R2 serves bytes; its type leaves the chunk type open.
  return object ? { body: object.body as ReadableStream<Uint8Array>, etag: object.httpEtag } : null;
}
