import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Database } from "../../db/client";
import { requests, tasks, type TaskRow } from "../../db/schema";
import type { CompletedTask, RequestCounts, UnfinishedTask } from "../../core/tasks/task-views";
import type { Business } from "../../core/tasks/business";
import { cachedReviewsUrls, signedReviewsUrls, type SignedUrls } from "../../storage/review-urls";
import { TaskStatus, type FailureReason } from "../../core/tasks/status";
import { taskCoverage } from "../../core/tasks/coverage";
import { publisherSummary, type StoredSummary } from "../../core/tasks/publisher-summary";
import { moveLegacyTask } from "../scrape/legacy-reviews";
import {
  hasFilters,
  loadIndex,
  matchingPositions,
  readLines,
  readPageJson,
  ReviewsGone,
  type ReviewFilters,
} from "../../storage/task-reviews";

const MESSAGES = {
  [TaskStatus.queued]: { status: "queued", message: "Task is queued and waiting" },
  [TaskStatus.inProgress]: { status: "in_progress", message: "Task is currently being processed" },
  [TaskStatus.failed]: { status: "failed", message: "Task processing failed" },
} as const;

/** The task columns a retrieve answer needs (not options, cookies, cursor or lease: options can be large). */
const taskColumns = {
  id: tasks.id,
  requestId: tasks.requestId,
  foreignKey: tasks.foreignKey,
  publisherKey: tasks.publisherKey,
  profileKey: tasks.profileKey,
  profileUrl: tasks.profileUrl,
  status: tasks.status,
  reason: tasks.reason,
  pagesScraped: tasks.pagesScraped,
  reviewsFound: tasks.reviewsFound,
  publisherTotal: tasks.publisherTotal,
  publisherSummary: tasks.publisherSummary,
  limitedView: tasks.limitedView,
  fullWalk: tasks.fullWalk,
  stopReason: tasks.stopReason,
  requestsDirect: tasks.requestsDirect,
  requestsBrowser: tasks.requestsBrowser,
  requestsProvider: tasks.requestsProvider,
  reviewsKey: tasks.reviewsKey,
};

function requestCounts(task: RetrievedTask): RequestCounts {
  return { direct: task.requestsDirect, browser: task.requestsBrowser, provider: task.requestsProvider };
}

export type RetrievedTask = { [K in keyof typeof taskColumns]: TaskRow[K] };

export function unfinishedTask(task: RetrievedTask): UnfinishedTask {
  const code = task.status as 100 | 101 | 500;
  const element: UnfinishedTask["response_message"][number] = { ...MESSAGES[code], task_status: code };
  if (code === TaskStatus.failed) element.reason = (task.reason ?? "internal") as FailureReason;
  else if (
    task.pagesScraped > 0 ||
    task.reviewsFound > 0 ||
    task.requestsDirect + task.requestsBrowser + task.requestsProvider > 0
  ) {
    element.progress = {
      pages_scraped: task.pagesScraped,
      reviews_found: task.reviewsFound,
      requests: requestCounts(task),
    };
  }
  return {
    task_id: task.id,
    foreign_key: task.foreignKey,
    publisher_key: task.publisherKey,
    response_message: [element],
  };
}

export interface TaskLookup {
  accountId: string;
  taskId: string;
  foreignKey: string;
  publisherKey: string;
}

export interface TaskPage {
  task: RetrievedTask;
  business: Business;
  relatedTaskIds: string[];
  /** The task's signed file URLs when the isolate had them; otherwise its file keys to sign. */
  urls: SignedUrls | null;
  files: string[];
  /** The page's reviews as one JSON array text, exactly as stored (never parsed and re-serialized). */
  reviewsJson: string;
  /** How many reviews the page is cut from: the task's, or those matching the filters. */
  total: number;
}

const sibling = alias(tasks, "sibling");

/**
 * A task of the account with its business, its request's other tasks and one page of reviews: one
 * D1 read (one statement) of the task row, then for a completed task its page from the task's store
 * in R2 (src/storage/task-reviews.ts): one range read of the index and one of the reviews, whatever
 * the page number, or with filters the whole compact index and the matching lines. Null when there
 * is no such task, or its store is gone (retention deleted it between the two reads).
 */
export async function findTaskPage(
  env: Env,
  db: Database,
  lookup: TaskLookup,
  page: number,
  pageSize: number,
  baseUrl: string,
  filters: ReviewFilters = {},
): Promise<TaskPage | null> {
  const cachedUrls = cachedReviewsUrls(env, baseUrl, lookup.taskId);
  const row = await db
    .select({
      task: taskColumns,
      business: requests.business,
      files: cachedUrls ? sql<null>`NULL` : sql<string>`${tasks.files}`,
      related: sql<string>`(SELECT json_group_array(${sibling.id} ORDER BY ${sibling.position}) FROM "tasks" AS "sibling" WHERE ${sibling.requestId} = ${tasks.requestId} AND ${sibling.id} <> ${tasks.id})`,
    })
    .from(tasks)
    .innerJoin(requests, eq(requests.id, tasks.requestId))
    .where(
      and(
        eq(tasks.id, lookup.taskId),
        eq(tasks.accountId, lookup.accountId),
        eq(tasks.foreignKey, lookup.foreignKey),
        eq(tasks.publisherKey, lookup.publisherKey),
      ),
    )
    .get();
  if (!row) return null;
  const reviews =
    row.task.status === TaskStatus.completed
      ? await pageOfReviews(env, row.task, (page - 1) * pageSize, pageSize, filters)
      : { json: "[]", total: 0 };
  if (!reviews) return null;
  return {
    task: row.task,
    business: row.business as Business,
    relatedTaskIds: JSON.parse(row.related) as string[],
    urls: cachedUrls,
    files: row.files === null ? [] : (JSON.parse(row.files) as string[]),
    reviewsJson: reviews.json,
    total: reviews.total,
  };
}

/** Positions [start, start + size) of the completed task's reviews, filtered or not; null once its store is gone. */
async function pageOfReviews(
  env: Env,
  task: RetrievedTask,
  start: number,
  size: number,
  filters: ReviewFilters,
): Promise<{ json: string; total: number } | null> {
  // A task completed before migration 0010 whose rows the cron has not moved yet is moved now.
  const key = task.reviewsKey ?? (task.reviewsFound > 0 ? await moveLegacyTask(env, task.id) : null);
  if (key === null) return { json: "[]", total: 0 };
  try {
    if (!hasFilters(filters)) {
      return { json: await readPageJson(env, key, task.reviewsFound, start, size), total: task.reviewsFound };
    }
    const index = await loadIndex(env, key, filters);
    const positions = matchingPositions(index, filters);
    const lines = await readLines(env, key, index.view, positions.slice(start, start + size));
    return { json: `[${lines.join(",")}]`, total: positions.length };
  } catch (err) {
    if (err instanceof ReviewsGone) return null;
    throw err;
  }
}

/**
 * The completed-task answer as JSON text, in the documented field order. The reviews are spliced in
 * as stored, so a 1,000-review page costs no JSON parsing or re-serialization in the Worker.
 */
export async function completedTaskJson(
  env: Env,
  found: TaskPage,
  page: number,
  pageSize: number,
  baseUrl: string,
): Promise<string> {
  const { task, business } = found;
  const total = found.total;
  const totalPages = Math.ceil(total / pageSize);
  const urls = found.urls ?? (await signedReviewsUrls(env, baseUrl, task.id, found.files));
  const head: Omit<CompletedTask, "business" | "reviews" | "pagination" | "coverage" | "requests"> = {
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
    publisher_summary: publisherSummary(task.publisherSummary as StoredSummary | null, task.publisherTotal),
  };
  const pagination: CompletedTask["pagination"] = {
    total_reviews: total,
    page,
    page_size: pageSize,
    total_pages: totalPages,
    has_next: page < totalPages,
    has_previous: page > 1,
  };
  const coverage: CompletedTask["coverage"] = taskCoverage({ ...task, collected: task.reviewsFound });
  return (
    `${JSON.stringify(head).slice(0, -1)},"business":${JSON.stringify(businessHead).slice(0, -1)},"reviews_urls":${urls.json}}` +
    `,"reviews":${found.reviewsJson},"pagination":${JSON.stringify(pagination)},"coverage":${JSON.stringify(coverage)},"requests":${JSON.stringify(requestCounts(task))}}`
  );
}
