/**
 * Whole-task exports (POST /export-task/): one file of a completed task's reviews, filtered like a
 * retrieve, as CSV or NDJSON, served by the Worker behind a signed URL (./signed-url) and streamed
 * from the task's store (./task-reviews) a window of positions at a time, so a 100,000-review export
 * holds one window's lines in memory, never the file.
 */
import { stringify } from "csv-stringify/sync";
import { z } from "zod";
import { ReviewSchema } from "../core/reviews/review";
import { eq } from "drizzle-orm";
import { fromBase64, toBase64Url } from "../core/crypto/encoding";
import { database } from "../db/client";
import { tasks } from "../db/schema";
import { loadIndex, matchingPositions, readLines, type ReviewFilters } from "./task-reviews";

export const EXPORT_FORMATS = ["csv", "ndjson"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Positions read and written per step of the stream. */
export const EXPORT_WINDOW = 1000;

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  ndjson: "application/x-ndjson; charset=utf-8",
};

const EXPORT_KEY = /^tasks\/([^/]+)\/export\/([A-Za-z0-9_-]*)\.(csv|ndjson)$/;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The key an export URL is signed for: the task, the filters (encoded) and the format. */
export function exportFileKey(taskId: string, format: ExportFormat, filters: ReviewFilters): string {
  const defined = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined));
  return `tasks/${taskId}/export/${toBase64Url(encoder.encode(JSON.stringify(defined)))}.${format}`;
}

const FiltersSchema = z
  .object({
    minRating: z.number().optional(),
    maxRating: z.number().optional(),
    since: z.number().optional(),
    until: z.number().optional(),
    language: z.string().optional(),
    hasText: z.boolean().optional(),
    hasReply: z.boolean().optional(),
    q: z.string().optional(),
  })
  .strict();

/** What an export key names, or null for any other key (only keys this service signed get here). */
export function parseExportKey(
  key: string,
): { taskId: string; format: ExportFormat; filters: ReviewFilters } | null {
  const match = EXPORT_KEY.exec(key);
  if (!match) return null;
  try {
    const filters = FiltersSchema.parse(
      JSON.parse(decoder.decode(fromBase64(match[2].replaceAll("-", "+").replaceAll("_", "/")))),
    );
    return { taskId: match[1], format: match[3] as ExportFormat, filters };
  } catch {
    return null;
  }
}

/**
 * CSV columns: every review field in the schema's order, nested objects flattened with a dot
 * (`owner_reply.text`), so a field added to the review schema becomes a column by itself.
 */
function reviewColumns(): string[][] {
  const columns: string[][] = [];
  for (const [name, field] of Object.entries(ReviewSchema.shape)) {
    let inner: z.ZodType = field;
    while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable)
      inner = inner.unwrap() as z.ZodType;
    if (inner instanceof z.ZodObject) for (const sub of Object.keys(inner.shape)) columns.push([name, sub]);
    else columns.push([name]);
  }
  return columns;
}

const COLUMNS = reviewColumns();
const BOM = "\uFEFF";

function cell(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

function csvRows(lines: readonly string[]): string {
  const rows = lines.map((line) => {
    const review = JSON.parse(line) as Record<string, unknown>;
    return COLUMNS.map(([name, sub]) => {
      const value = review[name];
      return cell(sub === undefined ? value : (value as Record<string, unknown> | undefined)?.[sub]);
    });
  });
  return stringify(rows, { record_delimiter: "\r\n" });
}

function csvHeader(): string {
  return BOM + stringify([COLUMNS.map((path) => path.join("."))], { record_delimiter: "\r\n" });
}

/**
 * The export file as a stream: the store's index is read once (and the texts for `q`), then each
 * pull reads one window of matching positions and writes it. `key` null: a task without reviews.
 */
export function exportStream(
  env: Env,
  key: string | null,
  filters: ReviewFilters,
  format: ExportFormat,
): ReadableStream<Uint8Array> {
  let state: { positions: number[]; view: DataView; next: number } | null = null;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!state) {
          if (format === "csv") controller.enqueue(encoder.encode(csvHeader()));
          if (key === null) return controller.close();
          const index = await loadIndex(env, key, filters);
          const positions = matchingPositions(index, filters);
          state = { positions, view: index.view, next: 0 };
          // The texts were only needed to match `q`.
          index.texts = null;
          return;
        }
        const window = state.positions.slice(state.next, state.next + EXPORT_WINDOW);
        if (!window.length || key === null) return controller.close();
        state.next += window.length;
        const lines = await readLines(env, key, state.view, window);
        const text = format === "csv" ? csvRows(lines) : lines.map((line) => line + "\n").join("");
        controller.enqueue(encoder.encode(text));
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * The export a verified signed key names, as a stream, or null when the task is no longer there
 * (retention) or not completed. Reviews come from the store recorded for the task now.
 */
export async function openExportFile(
  env: Env,
  key: string,
): Promise<{ body: ReadableStream<Uint8Array>; format: ExportFormat } | null> {
  const parsed = parseExportKey(key);
  if (!parsed) return null;
  const task = await database(env.DB)
    .select({ status: tasks.status, reviewsKey: tasks.reviewsKey })
    .from(tasks)
    .where(eq(tasks.id, parsed.taskId))
    .get();
  if (task?.status !== 200) return null;
  if (task.reviewsKey !== null && !(await env.REVIEW_FILES.head(task.reviewsKey + "index.bin"))) return null;
  return { body: exportStream(env, task.reviewsKey, parsed.filters, parsed.format), format: parsed.format };
}
