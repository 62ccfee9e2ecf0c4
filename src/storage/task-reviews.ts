/**
 * A completed task's reviews in R2 (issue 33): written once at completion, deduplicated by
 * review_id and sorted newest first (posted_at descending, then review_id), as two objects under
 * the prefix recorded in `tasks.reviews_key`:
 *
 * - `reviews.jsonl`: one review per line, exactly as stored in the page files (JSON.stringify of the
 *   review), so a page of the retrieve answer is its lines joined by commas, never re-serialized;
 * - `index.bin`: one fixed-width record per position (RECORD_BYTES): where the position's line and
 *   lower-cased text end, and what the retrieve filters look at (posted_at, rating, language,
 *   has_text, has_reply). 20 bytes a review: 2 MB for 100,000 reviews.
 * - `text.bin`: the lower-cased texts one after the other (the `q` filter reads only these).
 *
 * An unfiltered page is one range read of the index (its records, to find the byte range) and one of
 * the data object, whatever its number; a filtered page reads the whole index (and the texts for
 * `q`), then the matching lines in as few range reads as their gaps allow.
 */
import type { Review } from "../core/reviews/review";

export const RECORD_BYTES = 20;
const DATA = "reviews.jsonl";
const INDEX = "index.bin";
const TEXT = "text.bin";
const NEWLINE = 0x0a;
const FLAG_TEXT = 1;
const FLAG_REPLY = 2;
/** Two lines of a filtered page less than this far apart are read in one range read. */
const GAP_BYTES = 16 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The prefix a completion writes under: per write (`attempt`), so a run that lost its lease cannot overwrite another's. */
export function taskReviewsKey(taskId: string, attempt: string): string {
  return `tasks/${taskId}/sorted-${attempt}/`;
}

/** The retrieve and export filters, parsed (src/http/schemas/retrieve.ts); absent fields do not filter. */
export interface ReviewFilters {
  minRating?: number;
  maxRating?: number;
  /** Milliseconds since the epoch, inclusive. */
  since?: number;
  /** Milliseconds since the epoch, inclusive. */
  until?: number;
  /** ISO 639-1, lower case. */
  language?: string;
  hasText?: boolean;
  hasReply?: boolean;
  /** Lower-cased; matched as a substring of the lower-cased text. */
  q?: string;
}

export function hasFilters(filters: ReviewFilters): boolean {
  return Object.values(filters).some((v) => v !== undefined);
}

/** One review as the store keeps it: its line (UTF-8, without the newline) and what the index needs. */
interface Entry {
  line: Uint8Array;
  reviewId: string;
  postedAt: number;
  rating: number;
  language: string;
  hasText: boolean;
  hasReply: boolean;
  text: string;
}

/**
 * Collects reviews for one completion: deduplicated by review_id (the first seen wins, as page order
 * is scrape order), each kept as its stored line's bytes rather than as an object.
 */
export class ReviewCollector {
  private readonly entries: Entry[] = [];
  private readonly seen = new Set<string>();

  /** Adds every line of a JSON Lines file (a page file). */
  addJsonLines(bytes: Uint8Array): void {
    let start = 0;
    while (start < bytes.length) {
      let end = bytes.indexOf(NEWLINE, start);
      if (end === -1) end = bytes.length;
      if (end > start) this.addLine(bytes.subarray(start, end));
      start = end + 1;
    }
  }

  /** Adds one review's JSON text (as stored). */
  addJson(json: string): void {
    this.addLine(encoder.encode(json));
  }

  private addLine(line: Uint8Array): void {
    const review = JSON.parse(decoder.decode(line)) as Review;
    if (this.seen.has(review.review_id)) return;
    this.seen.add(review.review_id);
    this.entries.push({
      line,
      reviewId: review.review_id,
      postedAt: review.posted_at,
      rating: review.rating,
      language: /^[a-z]{2}$/.test(review.language) ? review.language : "",
      hasText: review.text.trim() !== "",
      hasReply: review.owner_reply !== undefined && review.owner_reply !== null,
      text: review.text.toLowerCase(),
    });
  }

  get size(): number {
    return this.entries.length;
  }

  /** Newest first; ties by review_id in code point order (what SQLite's BINARY collation gave before). */
  sorted(): Entry[] {
    return this.entries.sort((a, b) => b.postedAt - a.postedAt || compareCodePoints(a.reviewId, b.reviewId));
  }
}

function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const [x, y] = [[...a], [...b]];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i].codePointAt(0)! - y[i].codePointAt(0)!;
  }
  return x.length - y.length;
}

/** Parts are copied into blocks of this size before they go to R2 (one stream write per block). */
const BLOCK_BYTES = 1 << 20;

/** Writes bytes to R2 as one object from parts, streamed in blocks (never joined into one buffer). */
async function putParts(env: Env, key: string, parts: readonly Uint8Array[], contentType: string) {
  const length = parts.reduce((sum, p) => sum + p.length, 0);
  const { readable, writable } = new FixedLengthStream(length);
  const writer = writable.getWriter();
  const write = (async () => {
    let block = new Uint8Array(Math.min(BLOCK_BYTES, length));
    let used = 0;
    for (const part of parts) {
      if (used + part.length > block.length && used > 0) {
        await writer.write(block.subarray(0, used));
        block = new Uint8Array(Math.min(BLOCK_BYTES, length));
        used = 0;
      }
      if (part.length > block.length) await writer.write(part);
      else {
        block.set(part, used);
        used += part.length;
      }
    }
    if (used) await writer.write(block.subarray(0, used));
    await writer.close();
  })();
  await Promise.all([env.REVIEW_FILES.put(key, readable, { httpMetadata: { contentType } }), write]);
}

/** Writes the task's sorted store under `key` and returns how many reviews it holds. */
export async function writeTaskReviews(env: Env, key: string, collector: ReviewCollector): Promise<number> {
  const entries = collector.sorted();
  const index = new Uint8Array(entries.length * RECORD_BYTES);
  const view = new DataView(index.buffer);
  const dataParts: Uint8Array[] = [];
  const textParts: Uint8Array[] = [];
  const newline = new Uint8Array([NEWLINE]);
  let dataEnd = 0;
  let textEnd = 0;
  entries.forEach((entry, i) => {
    const text = encoder.encode(entry.text);
    dataParts.push(entry.line, newline);
    textParts.push(text);
    dataEnd += entry.line.length + 1;
    textEnd += text.length;
    if (dataEnd > 0xffffffff) throw new Error("a task's reviews exceed 4 GiB");
    const at = i * RECORD_BYTES;
    view.setUint32(at, dataEnd, true);
    view.setUint32(at + 4, textEnd, true);
    view.setFloat64(at + 8, entry.postedAt, true);
    view.setUint8(at + 16, entry.rating);
    view.setUint8(at + 17, (entry.hasText ? FLAG_TEXT : 0) | (entry.hasReply ? FLAG_REPLY : 0));
    view.setUint8(at + 18, entry.language.charCodeAt(0) || 0);
    view.setUint8(at + 19, entry.language.charCodeAt(1) || 0);
  });
  await Promise.all([
    putParts(env, key + DATA, dataParts, "application/x-ndjson; charset=utf-8"),
    putParts(env, key + TEXT, textParts, "text/plain; charset=utf-8"),
    env.REVIEW_FILES.put(key + INDEX, index),
  ]);
  return entries.length;
}

/** Removes a store (one a completion wrote but could not record). */
export async function deleteTaskReviews(env: Env, key: string): Promise<void> {
  await env.REVIEW_FILES.delete([key + DATA, key + INDEX, key + TEXT]);
}

/** The store was deleted (retention) while the task row still named it. */
export class ReviewsGone extends Error {}

async function readRange(env: Env, key: string, offset: number, length: number): Promise<Uint8Array> {
  if (length === 0) return new Uint8Array(0);
  const object = await env.REVIEW_FILES.get(key, { range: { offset, length } });
  if (!object) throw new ReviewsGone(key);
  return new Uint8Array(await object.arrayBuffer());
}

async function readWhole(env: Env, key: string): Promise<Uint8Array> {
  const object = await env.REVIEW_FILES.get(key);
  if (!object) throw new ReviewsGone(key);
  return new Uint8Array(await object.arrayBuffer());
}

/** Lines (without newlines) joined into a JSON array's inside: `a,b,c`. */
function joinLines(bytes: Uint8Array): string {
  const text = decoder.decode(bytes);
  return (text.endsWith("\n") ? text.slice(0, -1) : text).replaceAll("\n", ",");
}

/**
 * Positions [start, start + size) (0-based) of an unfiltered store as a JSON array text, reviews
 * exactly as stored: one range read of the index, one of the data.
 */
export async function readPageJson(
  env: Env,
  key: string,
  count: number,
  start: number,
  size: number,
): Promise<string> {
  const end = Math.min(count, start + size);
  if (start >= end) return "[]";
  const first = Math.max(0, start - 1);
  const records = await readRange(env, key + INDEX, first * RECORD_BYTES, (end - first) * RECORD_BYTES);
  const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
  const from = start === 0 ? 0 : view.getUint32(0, true);
  const to = view.getUint32((end - 1 - first) * RECORD_BYTES, true);
  return `[${joinLines(await readRange(env, key + DATA, from, to - from))}]`;
}

/** A whole index with the texts when the filters need them. */
export interface LoadedIndex {
  count: number;
  view: DataView;
  texts: Uint8Array | null;
}

export async function loadIndex(env: Env, key: string, filters: ReviewFilters): Promise<LoadedIndex> {
  const [index, texts] = await Promise.all([
    readWhole(env, key + INDEX),
    filters.q !== undefined ? readWhole(env, key + TEXT) : Promise.resolve(null),
  ]);
  return {
    count: index.length / RECORD_BYTES,
    view: new DataView(index.buffer, index.byteOffset, index.byteLength),
    texts,
  };
}

/** End offset of position i's line (or text, with field 4); position -1 ends at 0. */
function endOf(view: DataView, i: number, field: 0 | 4 = 0): number {
  return i < 0 ? 0 : view.getUint32(i * RECORD_BYTES + field, true);
}

/** The positions (0-based, newest first) matching every filter. */
export function matchingPositions(index: LoadedIndex, filters: ReviewFilters): number[] {
  const { view, texts } = index;
  const needle = filters.q;
  const language = filters.language;
  const out: number[] = [];
  for (let i = 0; i < index.count; i++) {
    const at = i * RECORD_BYTES;
    const rating = view.getUint8(at + 16);
    if (filters.minRating !== undefined && rating < filters.minRating) continue;
    if (filters.maxRating !== undefined && rating > filters.maxRating) continue;
    const postedAt = view.getFloat64(at + 8, true);
    if (filters.since !== undefined && postedAt < filters.since) continue;
    if (filters.until !== undefined && postedAt > filters.until) continue;
    const flags = view.getUint8(at + 17);
    if (filters.hasText !== undefined && filters.hasText !== ((flags & FLAG_TEXT) !== 0)) continue;
    if (filters.hasReply !== undefined && filters.hasReply !== ((flags & FLAG_REPLY) !== 0)) continue;
    if (
      language !== undefined &&
      (view.getUint8(at + 18) !== language.charCodeAt(0) || view.getUint8(at + 19) !== language.charCodeAt(1))
    )
      continue;
    if (needle !== undefined && texts) {
      const text = decoder.decode(texts.subarray(endOf(view, i - 1, 4), endOf(view, i, 4)));
      if (!text.includes(needle)) continue;
    }
    out.push(i);
  }
  return out;
}

/**
 * The lines of these positions (ascending), in order, read in as few range reads as their gaps
 * allow (neighbours closer than GAP_BYTES share one read).
 */
export async function readLines(
  env: Env,
  key: string,
  view: DataView,
  positions: readonly number[],
): Promise<string[]> {
  const runs: { from: number; to: number; positions: number[] }[] = [];
  for (const p of positions) {
    const [from, to] = [endOf(view, p - 1), endOf(view, p)];
    const last = runs.at(-1);
    if (last && from - last.to <= GAP_BYTES) {
      last.to = to;
      last.positions.push(p);
    } else runs.push({ from, to, positions: [p] });
  }
  const parts = await Promise.all(runs.map((run) => readRange(env, key + DATA, run.from, run.to - run.from)));
  const lines: string[] = [];
  runs.forEach((run, r) => {
    for (const p of run.positions) {
      const from = endOf(view, p - 1) - run.from;
      lines.push(decoder.decode(parts[r].subarray(from, endOf(view, p) - run.from - 1)));
    }
  });
  return lines;
}

/** Every review of a store in position order (a monitor's settle compares them all). */
export async function readAllReviews(env: Env, key: string): Promise<Review[]> {
  const bytes = await readWhole(env, key + DATA);
  const reviews: Review[] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(NEWLINE, start);
    reviews.push(JSON.parse(decoder.decode(bytes.subarray(start, end))) as Review);
    start = end + 1;
  }
  return reviews;
}
