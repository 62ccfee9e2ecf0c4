/** Shared steps of the end-to-end scraping tests: submit, run the queue, retrieve, count fixture requests. */
import { storedReviews } from "../helpers/task-store";
import { env } from "cloudflare:workers";
import { createHash } from "node:crypto";
import { expect, inject } from "vitest";
import { createAccount, postJson, submitBody } from "../helpers/api";
import type { FixtureReview } from "../fixtures/reviews";

export const origins = inject("fixtureOrigins");

/** A slug no other test uses, so fixture request counts are this test's own. */
export function slug(name: string): string {
  return `${name}-${crypto.randomUUID().slice(0, 8)}`;
}

export interface Submitted {
  apiKey: string;
  taskId: string;
  publisher: string;
}

export async function submitScrape(
  publisher: string,
  profileUrl: string,
  config: {
    last_review_hashes?: string[];
    first_page_only?: boolean;
    persona?: unknown;
    /** Collection options (since, max_reviews, sort), sent as given. */
    options?: Record<string, unknown>;
  } = {},
  extra: Record<string, unknown> = {},
  apiKey?: string,
): Promise<Submitted> {
  apiKey ??= (await createAccount()).apiKey;
  const body = submitBody(
    apiKey,
    {
      [publisher]: {
        profile_key: profileUrl,
        last_review_hashes: config.last_review_hashes ?? [],
        first_page_only: config.first_page_only ?? false,
        ...(config.persona ? { persona: config.persona } : {}),
        ...config.options,
      },
    },
    extra,
  );
  const res = await postJson("/submit/request-reviews/", body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { apiKey, taskId: res.body.tasks_id, publisher };
}

export async function retrieve(task: Submitted, page?: number, pageSize?: number) {
  const res = await postJson("/retrieve-task/", {
    api_key: task.apiKey,
    foreign_key: "order-1",
    publisher_key: task.publisher,
    task_id: task.taskId,
    ...(page === undefined ? {} : { page }),
    ...(pageSize === undefined ? {} : { page_size: pageSize }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Requests the fixture site received under a path prefix, by path and query. */
export async function fixtureRequests(domain: string, prefix: string): Promise<Record<string, number>> {
  const res = await fetch(`${origins[domain]}/__requests?prefix=${encodeURIComponent(prefix)}`);
  return await res.json<Record<string, number>>();
}

/** The `Cookie` header of each request the fixture site received under a path prefix, in order. */
export async function fixtureCookies(domain: string, prefix: string): Promise<Record<string, string[]>> {
  const res = await fetch(`${origins[domain]}/__cookies?prefix=${encodeURIComponent(prefix)}`);
  return await res.json<Record<string, string[]>>();
}

/** review_hash as docs/architecture.md defines it, computed independently (node:crypto) for ASCII fixture text. */
export function md5Hash(fields: string[]): string {
  return createHash("md5").update(JSON.stringify(fields)).digest("hex");
}

/** The API review a fixture review must become; `pageUrl` is the publisher-side URL of its page. */
export function expectedReview(review: FixtureReview, pageUrl: string) {
  return {
    review_id: review.id,
    author_name: review.author,
    author_id: null,
    rating: review.rating,
    text: review.text,
    url: pageUrl,
    posted_at: Date.parse(`${review.date}T00:00:00Z`),
    review_hash: md5Hash([review.text, review.author]),
    language: "en",
    source_date: review.date,
    scraped_at: expect.any(Number),
  };
}

/** Newest first, ties by review_id: the order retrieve promises. */
export function newestFirst<T extends { posted_at: number; review_id?: string }>(reviews: T[]): T[] {
  return [...reviews].sort(
    (a, b) =>
      b.posted_at - a.posted_at || (a.review_id! < b.review_id! ? -1 : a.review_id! > b.review_id! ? 1 : 0),
  );
}

export async function taskRow(taskId: string) {
  return env.DB.prepare("SELECT * FROM tasks WHERE id = ?").bind(taskId).first<Record<string, unknown>>();
}

/** How many reviews the task's R2 store holds (0 for a task without one: unfinished, failed). */
export async function reviewRowCount(taskId: string): Promise<number> {
  return (await storedReviews(taskId)).length;
}

/** Every R2 object of the task: page files, the run's id snapshots and the completed task's store. */
export async function storedFileKeys(taskId: string): Promise<string[]> {
  return (await env.REVIEW_FILES.list({ prefix: `tasks/${taskId}/` })).objects.map((o) => o.key);
}

/** The task's page files only (what `tasks.files` records and `reviews_urls` serve). */
export async function storedPageFileKeys(taskId: string): Promise<string[]> {
  return (await env.REVIEW_FILES.list({ prefix: `tasks/${taskId}/pages/` })).objects.map((o) => o.key);
}

export interface ReceivedHook {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** Webhook notifications the fixture receiver got under /__hook/<name>. */
export async function receivedHooks(name: string): Promise<ReceivedHook[]> {
  const res = await fetch(
    `${origins["status.test"]}/__hooks?prefix=${encodeURIComponent(`/__hook/${name}`)}`,
  );
  return await res.json<ReceivedHook[]>();
}
