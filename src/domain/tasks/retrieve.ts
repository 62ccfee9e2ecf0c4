import { and, eq, gt, lte, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Database } from "../../db/client";
import { requests, reviews, tasks, type TaskRow } from "../../db/schema";
import { fileUrlExpiry, signFileUrls } from "../../crypto/signed-url";
import type { CompletedTask, UnfinishedTask } from "../../http/schemas/retrieve";
import type { Business } from "../../http/schemas/business";
import { settings } from "../../settings";
import { TaskStatus, type FailureReason } from "./status";

const MESSAGES = {
  [TaskStatus.queued]: { status: "queued", message: "Task is queued and waiting" },
  [TaskStatus.inProgress]: { status: "in_progress", message: "Task is currently being processed" },
  [TaskStatus.failed]: { status: "failed", message: "Task processing failed" },
} as const;

export function unfinishedTask(task: TaskRow): UnfinishedTask {
  const code = task.status as 100 | 101 | 500;
  const element: UnfinishedTask["response_message"][number] = { ...MESSAGES[code], task_status: code };
  if (code === TaskStatus.failed) element.reason = (task.reason ?? "internal") as FailureReason;
  else if (task.pagesScraped > 0 || task.reviewsFound > 0) {
    element.progress = { pages_scraped: task.pagesScraped, reviews_found: task.reviewsFound };
  }
  return { task_id: task.id, foreign_key: task.foreignKey, publisher_key: task.publisherKey, response_message: [element] };
}

/**
 * Signed URL lists by task, origin and expiry. A completed task's files never change and expiries
 * are rounded to the hour, so a list is signed once an hour per isolate instead of once per request
 * (a 10,000-review task has hundreds of files). Bounded by total characters, oldest out first.
 */
const urlCache = new Map<string, { urls: string[]; json: string }>();
const URL_CACHE_MAX_CHARS = 8_000_000;
let urlCacheChars = 0;

async function signedUrls(env: Env, baseUrl: string, task: Pick<TaskRow, "id" | "files">): Promise<{ urls: string[]; json: string }> {
  const files = task.files as string[];
  const expires = fileUrlExpiry(settings(env).reviewFileUrlTtlSeconds);
  const cacheKey = `${task.id}\n${files.length}\n${expires}\n${baseUrl}`;
  const hit = urlCache.get(cacheKey);
  if (hit) return hit;
  const urls = await signFileUrls(env.URL_SIGNING_KEY, baseUrl, files, expires);
  const entry = { urls, json: JSON.stringify(urls) };
  if (entry.json.length <= URL_CACHE_MAX_CHARS / 4) {
    while (urlCacheChars + entry.json.length > URL_CACHE_MAX_CHARS && urlCache.size) {
      const [oldest, old] = urlCache.entries().next().value as [string, { json: string }];
      urlCache.delete(oldest);
      urlCacheChars -= old.json.length;
    }
    urlCache.set(cacheKey, entry);
    urlCacheChars += entry.json.length;
  }
  return entry;
}

/** Signed URLs of a task's raw page files, valid for at least the configured lifetime from now. */
export async function reviewsUrls(env: Env, baseUrl: string, task: Pick<TaskRow, "id" | "files">): Promise<string[]> {
  return (await signedUrls(env, baseUrl, task)).urls;
}

export interface TaskLookup {
  accountId: string;
  taskId: string;
  foreignKey: string;
  publisherKey: string;
}

export interface TaskPage {
  task: TaskRow;
  business: Business;
  relatedTaskIds: string[];
  /** The page's reviews as one JSON array text, exactly as stored (never parsed and re-serialized). */
  reviewsJson: string;
}

const sibling = alias(tasks, "sibling");

/**
 * A task of the account with its business, its request's other tasks and one page of reviews, in
 * one D1 round trip (one batch of two reads). Reviews carry their newest-first position from
 * completion, so a page is one range read on (task_id, position) whatever its number; its rows are
 * joined inside SQLite into one JSON array, so one value crosses the wire however large the page.
 * The page read only matches a completed task of this account (unfinished tasks have no positions).
 */
export async function findTaskPage(db: Database, lookup: TaskLookup, page: number, pageSize: number): Promise<TaskPage | null> {
  const start = (page - 1) * pageSize;
  const [found, pageRows] = await db.batch([
    db
      .select({
        task: tasks,
        business: requests.business,
        related: sql<string>`(SELECT json_group_array(${sibling.id} ORDER BY ${sibling.position}) FROM "tasks" AS "sibling" WHERE ${sibling.requestId} = ${tasks.requestId} AND ${sibling.id} <> ${tasks.id})`,
      })
      .from(tasks)
      .innerJoin(requests, eq(requests.id, tasks.requestId))
      .where(and(eq(tasks.id, lookup.taskId), eq(tasks.accountId, lookup.accountId), eq(tasks.foreignKey, lookup.foreignKey), eq(tasks.publisherKey, lookup.publisherKey))),
    db
      .select({ json: sql<string | null>`group_concat(${reviews.data}, ',' ORDER BY ${reviews.position})` })
      .from(reviews)
      .innerJoin(tasks, eq(tasks.id, reviews.taskId))
      .where(
        and(
          eq(reviews.taskId, lookup.taskId),
          eq(tasks.accountId, lookup.accountId),
          eq(tasks.status, TaskStatus.completed),
          gt(reviews.position, start),
          lte(reviews.position, start + pageSize),
        ),
      ),
  ]);
  const row = found[0];
  if (!row) return null;
  return {
    task: row.task,
    business: row.business as Business,
    relatedTaskIds: JSON.parse(row.related) as string[],
    reviewsJson: `[${pageRows[0]?.json ?? ""}]`,
  };
}

/**
 * The completed-task answer as JSON text, in the documented field order. The reviews are spliced in
 * as stored, so a 1,000-review page costs no JSON parsing or re-serialization in the Worker.
 */
export async function completedTaskJson(env: Env, found: TaskPage, page: number, pageSize: number, baseUrl: string): Promise<string> {
  const { task, business } = found;
  const total = task.reviewsFound;
  const totalPages = Math.ceil(total / pageSize);
  const urls = await signedUrls(env, baseUrl, task);
  const head: Omit<CompletedTask, "business" | "reviews" | "pagination"> = {
    foreign_key: task.foreignKey,
    batch_id: task.requestId,
    task_id: task.id,
    related_task_ids: found.relatedTaskIds,
    task_status: 200,
  };
  const businessHead: Omit<CompletedTask["business"], "reviews_urls"> = {
    id: business.id,
    name: business.name,
    tags: business.tags,
    phone: business.phone,
    address: business.address,
    description: business.description,
    publisher: task.publisherKey,
    profile_key: task.profileUrl ?? task.profileKey,
  };
  const pagination: CompletedTask["pagination"] = {
    total_reviews: total,
    page,
    page_size: pageSize,
    total_pages: totalPages,
    has_next: page < totalPages,
    has_previous: page > 1,
  };
  return (
    `${JSON.stringify(head).slice(0, -1)},"business":${JSON.stringify(businessHead).slice(0, -1)},"reviews_urls":${urls.json}}` +
    `,"reviews":${found.reviewsJson},"pagination":${JSON.stringify(pagination)}}`
  );
}
