import { z } from "@hono/zod-openapi";
import { accountStub } from "../../account/account-do";

/** The JSON body of `batch.completed`, sent once every task of a batch has completed or failed. */
export const BatchEventPayloadSchema = z
  .object({
    event: z.literal("batch.completed"),
    batch_id: z.string(),
    requests: z.number().int().openapi({ description: "Requests (accepted items) of the batch." }),
    tasks: z.number().int(),
    completed: z.number().int().openapi({ description: "Tasks that completed." }),
    failed: z
      .number()
      .int()
      .openapi({ description: "Tasks that failed (retrieve-batch gives their reasons)." }),
    ended_at: z
      .number()
      .int()
      .openapi({ description: "When the last task ended, in milliseconds since the epoch." }),
  })
  .openapi("BatchEvent");

export type BatchEventPayload = z.infer<typeof BatchEventPayloadSchema>;

/** The same for every emit and every attempt: the outbox keeps one, receivers deduplicate on it. */
export function batchEventId(batchId: string): string {
  return `evt_batch_${batchId}_completed`;
}

interface BatchState {
  account_id: string;
  requests: number;
  tasks: number;
  open: number;
  completed: number;
  failed: number;
  ended_at: number | null;
}

/**
 * Queues `batch.completed` when no task of the batch is unfinished. Called after each task of a
 * batch ends (with its own event, src/app/webhooks/events.ts), including repeats of that event on a
 * redelivered message, so the last task's end is never missed: a crash before this call leaves the
 * message unacknowledged and its redelivery calls it again. Two tasks ending at once may both find
 * the batch ended; the fixed event id makes the second enqueue a no-op. The body is made only from
 * stored state (the last end time, not the clock), so every emit is the same event.
 */
export async function emitBatchEventIfEnded(env: Env, batchId: string): Promise<boolean> {
  const state = await env.DB.prepare(
    `SELECT b.account_id, b.requests, b.tasks,
        coalesce(sum(t.status IN (100, 101)), 0) AS open,
        coalesce(sum(t.status = 200), 0) AS completed,
        coalesce(sum(t.status = 500), 0) AS failed,
        max(t.finished_at) AS ended_at
     FROM batches b JOIN requests r ON r.batch_id = b.id JOIN tasks t ON t.request_id = r.id
     WHERE b.id = ?1 GROUP BY b.id`,
  )
    .bind(batchId)
    .first<BatchState>();
  if (!state || state.open > 0) return false;
  const payload: BatchEventPayload = {
    event: "batch.completed",
    batch_id: batchId,
    requests: state.requests,
    tasks: state.tasks,
    completed: state.completed,
    failed: state.failed,
    ended_at: state.ended_at ?? 0,
  };
  // Keyed by the batch id in the outbox: batch events queue behind nothing of any one task.
  await accountStub(env, state.account_id).enqueueWebhookEvent(state.account_id, {
    id: batchEventId(batchId),
    taskId: batchId,
    event: payload.event,
    body: JSON.stringify(payload),
  });
  return true;
}
