import { insertJsonRows, type D1Runner } from "../../db/json-rows";
import { batches, requests, tasks } from "../../db/schema";
import type { NewRequest } from "../../core/tasks/new-request";
import { dispatchTasks } from "../queue/dispatch";
import { newTaskRows, type CreatedTask } from "./submit";

/** One valid item of a batch: its index in the body's `requests` and what it asks for. */
export interface BatchEntry {
  index: number;
  request: NewRequest;
}

export interface StoredEntry {
  index: number;
  requestId: string;
  tasks: CreatedTask[];
}

/**
 * Stores the valid items of a batch submit and queues their tasks, the way `submitRequest` does
 * for one request, at batch scale:
 *
 * - Every row (the batch, one request per item, one task per publisher) goes to D1 in ONE batch:
 *   one round trip and one transaction, so a crash or an error leaves every item either fully
 *   stored or absent, never a request without some of its tasks. Multi-row inserts bind one
 *   parameter each (src/db/json-rows.ts), inside D1's 100-parameter bound at any size.
 * - Then the tasks are handed to their queues' gates, one call per publisher queue; the gates send
 *   the messages with sendBatch in chunks of 100 (src/queue/queue-gate.ts). A crash between the two
 *   leaves stored tasks in 100 with no message: the cron sweep offers them again (as for submit),
 *   so each stored item is fully queued.
 * - When the gates cannot be reached the rows are deleted again and the error propagates (a 500):
 *   the client retries a batch of which nothing is stored.
 */
export async function submitBatch(
  env: Env,
  accountId: string,
  entries: readonly BatchEntry[],
  baseUrl: string,
  d1: D1Runner = env.DB,
): Promise<{ batchId: string; stored: StoredEntry[] }> {
  const now = Date.now();
  const batchId = crypto.randomUUID();
  const built = await Promise.all(
    entries.map(async ({ index, request }) => {
      const requestId = crypto.randomUUID();
      return { index, request, requestId, rows: await newTaskRows(env, accountId, requestId, request, now) };
    }),
  );
  const taskRows = built.flatMap((item) => item.rows);
  await d1.batch([
    ...insertJsonRows(d1, batches, [
      { id: batchId, accountId, requests: built.length, tasks: taskRows.length, createdAt: now },
    ]),
    ...insertJsonRows(
      d1,
      requests,
      built.map(({ index, request, requestId }) => ({
        id: requestId,
        accountId,
        foreignKey: request.data.foreign_key,
        lazy: request.data.lazy ?? false,
        business: request.data.business,
        baseUrl,
        createdAt: now,
        batchId,
        batchIndex: index,
      })),
    ),
    ...insertJsonRows(d1, tasks, taskRows),
  ]);
  try {
    await dispatchTasks(
      env,
      taskRows.map((row) => ({ taskId: row.id, publisherKey: row.publisherKey, accountId })),
    );
  } catch (err) {
    await forgetBatch(d1, batchId);
    throw err;
  }
  return {
    batchId,
    stored: built.map(({ index, requestId, rows }) => ({
      index,
      requestId,
      tasks: rows.map((row) => ({ publisher_key: row.publisherKey, tasks_id: row.id })),
    })),
  };
}

/** Deletes a batch whose tasks could not be queued: its tasks, its requests, then the batch. */
async function forgetBatch(d1: D1Runner, batchId: string): Promise<void> {
  await d1.batch([
    d1
      .prepare("DELETE FROM tasks WHERE request_id IN (SELECT id FROM requests WHERE batch_id = ?1)")
      .bind(batchId),
    d1.prepare("DELETE FROM requests WHERE batch_id = ?1").bind(batchId),
    d1.prepare("DELETE FROM batches WHERE id = ?1").bind(batchId),
  ]);
}
