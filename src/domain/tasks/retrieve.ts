import { and, asc, eq, gt, lte, ne } from "drizzle-orm";
import type { Database } from "../../db/client";
import { requests, reviews, tasks, type TaskRow } from "../../db/schema";
import { signFileUrl } from "../../crypto/signed-url";
import type { CompletedTask, UnfinishedTask } from "../../http/schemas/retrieve";
import type { Review } from "../reviews/review";
import type { Business } from "../../http/schemas/business";
import { settings } from "../../settings";
import { TaskStatus, type FailureReason } from "./status";

export async function findTask(db: Database, accountId: string, taskId: string, foreignKey: string, publisherKey: string): Promise<TaskRow | null> {
  const row = await db
    .select()
    .from(tasks)
    .where(and(eq(tasks.id, taskId), eq(tasks.accountId, accountId), eq(tasks.foreignKey, foreignKey), eq(tasks.publisherKey, publisherKey)))
    .get();
  return row ?? null;
}

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

/** Signed URLs of a task's raw page files, valid for the configured lifetime from now. */
export async function reviewsUrls(env: Env, baseUrl: string, task: Pick<TaskRow, "files">): Promise<string[]> {
  const expires = Math.floor(Date.now() / 1000) + settings(env).reviewFileUrlTtlSeconds;
  return Promise.all((task.files as string[]).map((key) => signFileUrl(env.URL_SIGNING_KEY, baseUrl, key, expires)));
}

/**
 * A completed task with one page of reviews. Reviews carry their newest-first position from
 * completion, so a page is one range read on (task_id, position) whatever its number.
 */
export async function completedTask(env: Env, db: Database, task: TaskRow, page: number, pageSize: number, baseUrl: string): Promise<CompletedTask> {
  const start = (page - 1) * pageSize;
  const [request, related, pageRows] = await db.batch([
    db.select({ business: requests.business }).from(requests).where(eq(requests.id, task.requestId)),
    db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(eq(tasks.requestId, task.requestId), ne(tasks.id, task.id)))
      .orderBy(asc(tasks.position)),
    db
      .select({ data: reviews.data })
      .from(reviews)
      .where(and(eq(reviews.taskId, task.id), gt(reviews.position, start), lte(reviews.position, start + pageSize)))
      .orderBy(asc(reviews.position)),
  ]);
  const business = request[0].business as Business;
  const total = task.reviewsFound;
  const totalPages = Math.ceil(total / pageSize);
  return {
    foreign_key: task.foreignKey,
    batch_id: task.requestId,
    task_id: task.id,
    related_task_ids: related.map((r) => r.id),
    task_status: 200,
    business: {
      id: business.id,
      name: business.name,
      tags: business.tags,
      phone: business.phone,
      address: business.address,
      description: business.description,
      publisher: task.publisherKey,
      profile_key: task.profileUrl ?? task.profileKey,
      reviews_urls: await reviewsUrls(env, baseUrl, task),
    },
    reviews: pageRows.map((r) => r.data as Review),
    pagination: {
      total_reviews: total,
      page,
      page_size: pageSize,
      total_pages: totalPages,
      has_next: page < totalPages,
      has_previous: page > 1,
    },
  };
}
