/**
 * Issue 33: retrieve filters and the whole-task export, end to end through the Worker, on a task
 * whose store was written by the service's own writer (test/helpers/task-store.ts).
 */
import { parse } from "csv-parse/sync";
import { describe, expect, it, beforeAll } from "vitest";
import type { Review } from "../../src/core/reviews/review";
import { call, createAccount, postJson, submitOk } from "../helpers/api";
import { completeWithReviews } from "../helpers/task-store";

const DAY = 86_400_000;
const NEWEST = Date.UTC(2025, 0, 31);
const LANGUAGES = ["en", "de", "ja", "und"];
const TEXTS = [
  "Great coffee, friendly staff.",
  'She said "best cake in town", and I agree.',
  "Line one\nline two, with a comma\r\nand a CRLF",
  "素晴らしい店です。「最高」, また来ます",
  "",
  "Fast DELIVERY and Ünïcödé Straße",
  "   ",
  "Кофе отличный; доставка быстрая",
];

/** 120 reviews, newest first (one day apart), with every filterable property varied. */
const REVIEWS: Review[] = Array.from({ length: 120 }, (_, i) => ({
  review_id: `rev-${String(i).padStart(3, "0")}`,
  author_name: i % 7 === 0 ? `Ålesund, "Ola"` : `Author ${i}`,
  author_id: i % 2 ? `user-${i}` : null,
  rating: (i % 5) + 1,
  text: TEXTS[i % TEXTS.length],
  url: `https://example.com/r/${i}`,
  posted_at: NEWEST - i * DAY,
  review_hash: "0".repeat(32),
  language: LANGUAGES[i % LANGUAGES.length],
  source_date: "",
  scraped_at: 1,
  ...(i % 3 === 0
    ? { owner_reply: { text: `Thanks, "friend"\nsee you, ${i}`, posted_at: i % 2 ? null : NEWEST } }
    : {}),
}));

let apiKey: string;
let taskId: string;
let emptyTaskId: string;
let unfinishedTaskId: string;

beforeAll(async () => {
  ({ apiKey } = await createAccount({ plan: "unlimited" }));
  ({ tasks_id: taskId } = await submitOk(apiKey, undefined, { foreign_key: "filters-1" }));
  // Stored in a shuffled order: the store sorts (newest first) and deduplicates (by review_id).
  const shuffled = [...REVIEWS].reverse().concat(REVIEWS.slice(0, 10));
  await completeWithReviews(taskId, shuffled);
  ({ tasks_id: emptyTaskId } = await submitOk(apiKey, undefined, { foreign_key: "filters-1" }));
  await completeWithReviews(emptyTaskId, []);
  ({ tasks_id: unfinishedTaskId } = await submitOk(apiKey, undefined, { foreign_key: "filters-1" }));
});

function keyFields(id = taskId) {
  return { api_key: apiKey, foreign_key: "filters-1", publisher_key: "example.com", task_id: id };
}

async function retrieveWith(filters: Record<string, unknown>, page = 1, pageSize = 50) {
  const res = await postJson("/retrieve-task/", { ...keyFields(), page, page_size: pageSize, ...filters });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    reviews: Review[];
    pagination: Record<string, unknown>;
    coverage: { collected: number };
  };
}

const hasText = (r: Review) => r.text.trim() !== "";
const CASES: [string, Record<string, unknown>, (r: Review) => boolean][] = [
  ["min_rating", { min_rating: 4 }, (r) => r.rating >= 4],
  ["max_rating", { max_rating: 2 }, (r) => r.rating <= 2],
  ["since (date)", { since: "2025-01-10" }, (r) => r.posted_at >= Date.UTC(2025, 0, 10)],
  ["until (date: the whole day)", { until: "2024-12-01" }, (r) => r.posted_at < Date.UTC(2024, 11, 2)],
  [
    "since and until (date-times with offsets)",
    { since: "2024-11-01T00:00:00+02:00", until: "2024-12-15T01:30:00Z" },
    (r) => r.posted_at >= Date.UTC(2024, 9, 31, 22) && r.posted_at <= Date.UTC(2024, 11, 15, 1, 30),
  ],
  ["language", { language: "DE" }, (r) => r.language === "de"],
  ["has_text true", { has_text: true }, hasText],
  ["has_text false", { has_text: "false" }, (r) => !hasText(r)],
  ["has_reply true", { has_reply: true }, (r) => r.owner_reply !== undefined],
  ["has_reply false", { has_reply: 0 }, (r) => r.owner_reply === undefined],
  ["q (case-insensitive, non-Latin)", { q: "delivery" }, (r) => r.text.toLowerCase().includes("delivery")],
  ["q (Unicode case)", { q: "ÜNÏCÖDÉ straße" }, (r) => r.text.includes("Ünïcödé Straße")],
  ["q (Cyrillic)", { q: "КОФЕ" }, (r) => r.text.includes("Кофе")],
  [
    "combined",
    { min_rating: 2, max_rating: 4, language: "en", has_reply: true, since: "2024-10-15" },
    (r) =>
      r.rating >= 2 &&
      r.rating <= 4 &&
      r.language === "en" &&
      r.owner_reply !== undefined &&
      r.posted_at >= Date.UTC(2024, 9, 15),
  ],
  [
    "combined with q",
    { q: ", ", has_text: true, max_rating: 3 },
    (r) => r.text.includes(", ") && r.rating <= 3,
  ],
];

describe("retrieve filters", () => {
  it("without filters every review is there once, newest first", async () => {
    const body = await retrieveWith({}, 1, 1000);
    expect(body.reviews).toEqual(REVIEWS);
    expect(body.pagination).toMatchObject({ total_reviews: 120, total_pages: 1 });
  });

  it.each(CASES)("%s: pages of the filtered set, with pagination counting it", async (_, filters, keep) => {
    const expected = REVIEWS.filter(keep);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(REVIEWS.length);
    const pageSize = 7;
    const got: Review[] = [];
    const pages = Math.ceil(expected.length / pageSize);
    for (let page = 1; page <= pages; page++) {
      const body = await retrieveWith(filters, page, pageSize);
      expect(body.pagination).toEqual({
        total_reviews: expected.length,
        page,
        page_size: pageSize,
        total_pages: pages,
        has_next: page < pages,
        has_previous: page > 1,
      });
      // coverage still describes the task, not the filtered page
      expect(body.coverage.collected).toBe(120);
      got.push(...body.reviews);
    }
    expect(got).toEqual(expected);
    expect((await retrieveWith(filters, pages + 1, pageSize)).reviews).toEqual([]);
  });

  it("a filter nothing matches answers an empty page; a task without reviews filters to nothing", async () => {
    const none = await retrieveWith({ q: "no review says this" });
    expect(none.reviews).toEqual([]);
    expect(none.pagination).toMatchObject({ total_reviews: 0, total_pages: 0, has_next: false });
    const res = await postJson("/retrieve-task/", { ...keyFields(emptyTaskId), min_rating: 3 });
    expect(res.body.reviews).toEqual([]);
    expect(res.body.pagination.total_reviews).toBe(0);
  });

  const INVALID: [string, unknown][] = [
    ["min_rating", 0],
    ["min_rating", 6],
    ["max_rating", "five"],
    ["since", "2024-13-01"],
    ["since", "2024-02-30"],
    ["since", "yesterday"],
    ["until", "2024-06-01T25:00:00Z"],
    ["until", 20240601],
    ["language", "eng"],
    ["language", "e1"],
    ["language", "xx"],
    ["has_text", "maybe"],
    ["has_reply", null],
    ["q", ""],
    ["q", "x".repeat(201)],
  ];
  it.each(INVALID)("%s = %j answers 400 Invalid request naming the field", async (field, value) => {
    for (const path of ["/retrieve-task/", "/export-task/"]) {
      const res = await postJson(path, { ...keyFields(), format: "csv", [field]: value });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("Invalid request");
      expect(Object.keys(res.body.details)).toEqual([field]);
    }
  });

  it("contradicting bounds name the upper one", async () => {
    const rating = await postJson("/retrieve-task/", { ...keyFields(), min_rating: 4, max_rating: 2 });
    expect(rating.status).toBe(400);
    expect(rating.body.details).toEqual({ max_rating: ["Ensure this value is greater than or equal to 4."] });
    const dates = await postJson("/retrieve-task/", {
      ...keyFields(),
      since: "2025-01-02",
      until: "2025-01-01",
    });
    expect(dates.status).toBe(400);
    expect(dates.body.details).toEqual({ until: ["Must not be earlier than since."] });
  });
});

async function exportFile(filters: Record<string, unknown>, format: "csv" | "ndjson") {
  const res = await postJson("/export-task/", { ...keyFields(), format, ...filters });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const file = await call(new URL(res.body.url).pathname + new URL(res.body.url).search);
  expect(file.status).toBe(200);
  return { answer: res.body, file, bytes: new Uint8Array(await file.arrayBuffer()) };
}

const COLUMNS = [
  "review_id",
  "author_name",
  "author_id",
  "rating",
  "text",
  "url",
  "posted_at",
  "review_hash",
  "language",
  "source_date",
  "scraped_at",
  "author_country",
  "visited_at",
  "author_review_count",
  "author_photo_count",
  "title",
  "author_badges",
  "photos",
  "likes",
  "sub_ratings",
  "translated_text",
  "translated_language",
  "owner_reply.text",
  "owner_reply.posted_at",
];

function csvRecord(r: Review): Record<string, string> {
  const flat: Record<string, unknown> = {
    ...r,
    owner_reply: undefined,
    "owner_reply.text": r.owner_reply?.text,
    "owner_reply.posted_at": r.owner_reply?.posted_at,
  };
  const cell = (v: unknown): string => {
    if (v === undefined || v === null) return "";
    if (typeof v === "string") return v;
    if (typeof v === "number" || typeof v === "boolean") return String(v);
    return JSON.stringify(v);
  };
  return Object.fromEntries(COLUMNS.map((c) => [c, cell(flat[c])]));
}

describe("export", () => {
  it("CSV: RFC 4180 with a header and a BOM, read back exactly by a CSV parser", async () => {
    const { answer, file, bytes } = await exportFile({}, "csv");
    expect(answer).toMatchObject({ format: "csv", reviews: 120 });
    expect(Date.parse(answer.expires_at)).toBeGreaterThan(Date.now());
    expect(file.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(file.headers.get("Content-Disposition")).toBe(`attachment; filename="reviews-${taskId}.csv"`);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(bytes);
    expect(text.split("\r\n")[0]).toBe("\uFEFF" + COLUMNS.join(","));
    const records = parse<Record<string, string>>(text, {
      bom: true,
      columns: true,
      record_delimiter: "\r\n",
    });
    expect(Object.keys(records[0])).toEqual(COLUMNS);
    expect(records).toEqual(REVIEWS.map(csvRecord));
    // The tricky values survive byte for byte.
    expect(records.map((r) => r.text)).toContain("Line one\nline two, with a comma\r\nand a CRLF");
    expect(records.map((r) => r.text)).toContain('She said "best cake in town", and I agree.');
    expect(records.map((r) => r.text)).toContain("素晴らしい店です。「最高」, また来ます");
    expect(records[0]["owner_reply.text"]).toBe('Thanks, "friend"\nsee you, 0');
  });

  it("NDJSON with filters: the filtered reviews, newest first, as retrieve gives them", async () => {
    const filters = { min_rating: 3, has_text: true, q: "," };
    const expected = REVIEWS.filter((r) => r.rating >= 3 && hasText(r) && r.text.includes(","));
    const { answer, file, bytes } = await exportFile(filters, "ndjson");
    expect(answer).toMatchObject({ format: "ndjson", reviews: expected.length });
    expect(file.headers.get("Content-Type")).toBe("application/x-ndjson; charset=utf-8");
    const lines = new TextDecoder().decode(bytes).split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((l) => JSON.parse(l))).toEqual(expected);
    expect(lines).toEqual(expected.map((r) => JSON.stringify(r)));
    const csv = await exportFile(filters, "csv");
    expect(parse(new TextDecoder().decode(csv.bytes), { bom: true, columns: true })).toEqual(
      expected.map(csvRecord),
    );
  });

  it("a task without reviews exports a header only; an unfinished task answers as retrieve does; unknown is 404", async () => {
    const res = await postJson("/export-task/", { ...keyFields(emptyTaskId), format: "csv" });
    expect(res.body.reviews).toBe(0);
    const file = await call(new URL(res.body.url).pathname + new URL(res.body.url).search);
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(bytes)).toBe(
      "\uFEFF" + COLUMNS.join(",") + "\r\n",
    );

    const unfinished = await postJson("/export-task/", { ...keyFields(unfinishedTaskId), format: "ndjson" });
    const retrieved = await postJson("/retrieve-task/", keyFields(unfinishedTaskId));
    expect(unfinished.status).toBe(200);
    expect(unfinished.body).toEqual(retrieved.body);

    const unknown = await postJson("/export-task/", { ...keyFields("no-such-task"), format: "csv" });
    const unknownRetrieve = await postJson("/retrieve-task/", keyFields("no-such-task"));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(unknownRetrieve.body);
  });

  it("format is required and must be csv or ndjson; a tampered URL is refused", async () => {
    const missing = await postJson("/export-task/", keyFields());
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      error: "Invalid request",
      details: { format: ["This field is required."] },
    });
    const wrong = await postJson("/export-task/", { ...keyFields(), format: "xlsx" });
    expect(wrong.body.details).toEqual({ format: ['"xlsx" is not a valid choice.'] });

    const { answer } = await exportFile({ min_rating: 5 }, "csv");
    const url = new URL(answer.url);
    const other = url.pathname.replace(/\/export\/[^/]+\.csv$/, "/export/e30.csv"); // {} instead of the filters
    expect((await call(other + url.search)).status).toBe(403);
  });
});
