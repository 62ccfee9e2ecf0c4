import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { accountStub } from "../../account/account-do";
import { database } from "../../db/client";
import { requests, tasks, webhooks, type TaskRow } from "../../db/schema";
import { reviewsUrls } from "../../storage/review-urls";
import { FAILURE_REASONS, TaskStatus } from "../../core/tasks/status";
import { taskCoverage } from "../../core/tasks/coverage";
import {
  PublisherSummarySchema,
  publisherSummary,
  type StoredSummary,
} from "../../core/tasks/publisher-summary";
import { emitBatchEventIfEnded } from "./batch-events";

export const TASK_EVENTS = ["task.in_progress", "task.completed", "task.failed"] as const;
export type TaskEventName = (typeof TASK_EVENTS)[number];

const STATUS_OF: Record<TaskEventName, 101 | 200 | 500> = {
  "task.in_progress": TaskStatus.inProgress,
  "task.completed": TaskStatus.completed,
  "task.failed": TaskStatus.failed,
};

/** The JSON body of a task notification: the specification's fields plus the documented additions. */
export const TaskEventPayloadSchema = z
  .object({
    task_id: z.string(),
    publisher_key: z.string(),
    foreign_key: z.string(),
    profile_key: z.string().openapi({
      description: "The resolved profile URL (or the profile_key as submitted before it is resolved).",
    }),
    task_status: z.union([z.literal(101), z.literal(200), z.literal(500)]),
    reviews_urls: z
      .array(z.string())
      .openapi({ description: "Signed, expiring URLs of the raw review files; empty until completed." }),
    event: z.enum(TASK_EVENTS),
    request_id: z.string(),
    batch_id: z.string().openapi({ description: "Same as request_id." }),
    reviews_count: z
      .number()
      .int()
      .openapi({ description: "Reviews found so far (all of them once completed)." }),
    reason: z.enum(FAILURE_REASONS).optional().openapi({ description: "Only on task.failed." }),
    coverage: z
      .object({
        publisher_total: z.number().int().nullable(),
        collected: z.number().int(),
        complete: z.boolean(),
        stop_reason: z.string().nullable(),
      })
      .optional()
      .openapi({
        description:
          "Only on task.completed: how complete the reviews are, as in the completed retrieve's `coverage`.",
      }),
    publisher_summary: PublisherSummarySchema.nullable().optional().openapi({
      description:
        "Only on task.completed: the publisher's own rating, review count and histogram, as in the completed retrieve's `business.publisher_summary`.",
    }),
  })
  .openapi("TaskEvent");

export type TaskEventPayload = z.infer<typeof TaskEventPayloadSchema>;

/**
 * The event id, the same for every attempt and every emit of one transition; it is what makes
 * emitting idempotent and what receivers deduplicate on (X-Webhook-Id).
 */
export function taskEventId(taskId: string, event: TaskEventName): string {
  return `evt_${taskId}_${event.slice("task.".length)}`;
}

export async function taskEventPayload(
  env: Env,
  task: TaskRow,
  baseUrl: string,
  event: TaskEventName,
): Promise<TaskEventPayload> {
  const payload: TaskEventPayload = {
    task_id: task.id,
    publisher_key: task.publisherKey,
    foreign_key: task.foreignKey,
    profile_key: task.profileUrl ?? task.profileKey,
    task_status: STATUS_OF[event],
    reviews_urls: event === "task.completed" ? await reviewsUrls(env, baseUrl, task) : [],
    event,
    request_id: task.requestId,
    batch_id: task.requestId,
    reviews_count: task.reviewsFound,
  };
  if (event === "task.failed") payload.reason = (task.reason ?? "internal") as TaskEventPayload["reason"];
  if (event === "task.completed") {
    payload.coverage = taskCoverage({ ...task, collected: task.reviewsFound });
    payload.publisher_summary = publisherSummary(
      task.publisherSummary as StoredSummary | null,
      task.publisherTotal,
    );
  }
  return payload;
}

/**
 * Queues the webhook notification for a task's transition into 101, 200 or 500 in the account's
 * Durable Object outbox. Idempotent per (task, event): calling it again for the same transition
 * (a redelivered queue message) sends nothing new. Without a webhook nothing is queued. The end of a
 * batch's task also queues the batch's `batch.completed` once its last task has ended.
 */
export async function emitTaskEvent(env: Env, taskId: string, event: TaskEventName): Promise<void> {
  const db = database(env.DB);
  const row = await db
    .select({
      task: tasks,
      baseUrl: requests.baseUrl,
      batchId: requests.batchId,
      webhookAccount: webhooks.accountId,
    })
    .from(tasks)
    .innerJoin(requests, eq(requests.id, tasks.requestId))
    .leftJoin(webhooks, eq(webhooks.accountId, tasks.accountId))
    .where(eq(tasks.id, taskId))
    .get();
  if (!row) throw new Error(`emitTaskEvent: no task ${taskId}`);
  if (row.webhookAccount === null) return;
  const payload = await taskEventPayload(env, row.task, row.baseUrl, event);
  await accountStub(env, row.task.accountId).enqueueWebhookEvent(row.task.accountId, {
    id: taskEventId(taskId, event),
    taskId,
    event,
    body: JSON.stringify(payload),
  });
  // A task of a batch that ended may have been the batch's last (docs/batch.md, batch.completed).
  if (row.batchId && event !== "task.in_progress") await emitBatchEventIfEnded(env, row.batchId);
}
