import { z } from "@hono/zod-openapi";
import { accountStub } from "../../account/account-do";
import { ReviewSchema } from "../../core/reviews/review";
import { eventBatches } from "../../core/monitors/diff";
import type { ChangeView } from "./store";

export const WatchedFieldsSchema = z
  .object({
    rating: z.number().int(),
    text: z.string(),
    owner_reply: z.object({ text: z.string(), posted_at: z.number().int().nullable() }).nullable(),
  })
  .openapi("WatchedReviewFields");

export const REVIEW_CHANGE_EVENTS = ["review.created", "review.updated", "review.deleted"] as const;

/** One detected change, in the changes endpoint and in review.* events alike. */
export const ReviewChangeSchema = z
  .object({
    seq: z
      .number()
      .int()
      .openapi({ description: "Position of the change in the monitor's detection order (1, 2, …)." }),
    event: z.enum(REVIEW_CHANGE_EVENTS),
    monitor_id: z.string(),
    publisher_key: z.string(),
    review_id: z.string(),
    task_id: z.string().openapi({ description: "The run's task; retrieve-task returns what it collected." }),
    run: z.number().int(),
    detected_at: z.string().openapi({ format: "date-time" }),
    review: ReviewSchema,
    before: WatchedFieldsSchema.optional().openapi({
      description: "review.updated only: rating, text and owner reply as last seen.",
    }),
    after: WatchedFieldsSchema.optional().openapi({
      description: "review.updated only: the same fields now.",
    }),
  })
  .openapi("ReviewChange", {
    description: "`review` is the review now (created, updated) or as last seen (deleted).",
  });

/** A batch of changes of one type (at most 100), in detection order. */
export const ReviewEventPayloadSchema = z
  .object({
    event: z.enum(REVIEW_CHANGE_EVENTS),
    monitor_id: z.string(),
    foreign_key: z.string(),
    publisher_key: z.string(),
    task_id: z.string(),
    run: z.number().int(),
    changes: z
      .array(ReviewChangeSchema)
      .openapi({ description: "1 to 100 changes, all of this event's type." }),
  })
  .openapi("ReviewEvent");

const COUNTS = z.object({ created: z.number().int(), updated: z.number().int(), deleted: z.number().int() });

/** The end of one publisher's run of a monitor. */
export const RunCompletedPayloadSchema = z
  .object({
    event: z.literal("monitor.run_completed"),
    monitor_id: z.string(),
    foreign_key: z.string(),
    publisher_key: z.string(),
    task_id: z.string(),
    run: z.number().int(),
    full_walk: z
      .boolean()
      .openapi({ description: "The run walked every page (deletions are only detected by such runs)." }),
    complete: z.boolean().openapi({
      description: "A full walk that reached the publisher's last page; false for incremental runs.",
    }),
    baseline: z
      .boolean()
      .openapi({ description: "The publisher's first run: what is there is recorded, not announced." }),
    reviews_seen: z.number().int().openapi({ description: "Reviews the run's task collected." }),
    counts: COUNTS,
  })
  .openapi("MonitorRunCompletedEvent");

export const MonitorEventPayloadSchema = z
  .union([ReviewEventPayloadSchema, RunCompletedPayloadSchema])
  .openapi("MonitorEvent");

export type RunCompletedPayload = z.infer<typeof RunCompletedPayloadSchema>;

export interface MonitorEventContext {
  accountId: string;
  monitorId: string;
  foreignKey: string;
  publisherKey: string;
  taskId: string;
  run: number;
}

/**
 * Queues a settled run's events in the account's outbox: its changes in batches of at most 100 of
 * one type, then monitor.run_completed. Event ids come from the changes' sequence numbers (and the
 * task for the run's end), so emitting again after a crash queues nothing new. The outbox delivers
 * the events of one `taskId` key strictly in order; the monitor id is that key, so one monitor's
 * events arrive in detection order.
 */
export async function queueMonitorEvents(
  env: Env,
  ctx: MonitorEventContext,
  changes: readonly ChangeView[],
  completed: RunCompletedPayload,
): Promise<void> {
  const outbox = accountStub(env, ctx.accountId);
  const common = {
    monitor_id: ctx.monitorId,
    foreign_key: ctx.foreignKey,
    publisher_key: ctx.publisherKey,
    task_id: ctx.taskId,
    run: ctx.run,
  };
  for (const batch of eventBatches(changes.map((change) => ({ ...change, type: change.event })))) {
    const event = batch[0].event;
    const body = { event, ...common, changes: batch.map(({ type: _type, ...change }) => change) };
    await outbox.enqueueWebhookEvent(ctx.accountId, {
      id: `evt_${ctx.monitorId}_${batch[0].seq}`,
      taskId: ctx.monitorId,
      event,
      body: JSON.stringify(body),
    });
  }
  await outbox.enqueueWebhookEvent(ctx.accountId, {
    id: `evt_${ctx.monitorId}_run_${ctx.taskId}`,
    taskId: ctx.monitorId,
    event: completed.event,
    body: JSON.stringify(completed),
  });
}
