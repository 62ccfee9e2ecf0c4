import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import { batches, requests, tasks } from "../../db/schema";
import { FAILURE_REASONS, TaskStatus, type FailureReason } from "../../core/tasks/status";

/** Which tasks a retrieve-batch lists: a batch's, or those of the account's requests with these foreign keys. */
export type BatchScope = { batchId: string } | { foreignKeys: string[] };

type StatusName = "queued" | "in_progress" | "completed" | "failed";

const STATUS_NAMES: Record<number, StatusName> = {
  [TaskStatus.queued]: "queued",
  [TaskStatus.inProgress]: "in_progress",
  [TaskStatus.completed]: "completed",
  [TaskStatus.failed]: "failed",
};

export interface BatchTaskView {
  task_id: string;
  request_id: string;
  foreign_key: string;
  publisher_key: string;
  task_status: 100 | 101 | 200 | 500;
  status: StatusName;
  reason?: FailureReason;
  reviews_count: number;
}

export interface BatchTotals {
  tasks: number;
  queued: number;
  in_progress: number;
  completed: number;
  failed: number;
}

export interface BatchPage {
  totals: BatchTotals;
  tasks: BatchTaskView[];
}

function scopeCondition(accountId: string, scope: BatchScope): SQL | undefined {
  if ("batchId" in scope) return and(eq(tasks.accountId, accountId), eq(requests.batchId, scope.batchId));
  // One bound parameter for up to 500 keys (D1 binds at most 100): the list travels as JSON.
  return and(
    eq(tasks.accountId, accountId),
    sql`${tasks.foreignKey} IN (SELECT value FROM json_each(${JSON.stringify(scope.foreignKeys)}))`,
  );
}

function view(row: {
  id: string;
  requestId: string;
  foreignKey: string;
  publisherKey: string;
  status: number;
  reason: string | null;
  reviewsFound: number;
}): BatchTaskView {
  const out: BatchTaskView = {
    task_id: row.id,
    request_id: row.requestId,
    foreign_key: row.foreignKey,
    publisher_key: row.publisherKey,
    task_status: row.status as BatchTaskView["task_status"],
    status: STATUS_NAMES[row.status] ?? "queued",
    reviews_count: row.status === TaskStatus.failed ? 0 : row.reviewsFound,
  };
  if (row.status === TaskStatus.failed)
    out.reason = (FAILURE_REASONS as readonly string[]).includes(row.reason ?? "")
      ? (row.reason as FailureReason)
      : "internal";
  return out;
}

/**
 * One page of a scope's tasks (a batch in its item order, then publisher order; foreign keys in
 * submission order) and its totals per status, read in one round trip. Returns null when the
 * scope is a batch this account does not have.
 */
export async function batchTasksPage(
  db: Database,
  accountId: string,
  scope: BatchScope,
  page: number,
  pageSize: number,
): Promise<BatchPage | null> {
  const where = scopeCondition(accountId, scope);
  const [owner, counts, rows] = await db.batch([
    db
      .select({ id: batches.id })
      .from(batches)
      .where(and(eq(batches.accountId, accountId), eq(batches.id, "batchId" in scope ? scope.batchId : ""))),
    db
      .select({ status: tasks.status, n: sql<number>`count(*)` })
      .from(tasks)
      .innerJoin(requests, eq(requests.id, tasks.requestId))
      .where(where)
      .groupBy(tasks.status),
    db
      .select({
        id: tasks.id,
        requestId: tasks.requestId,
        foreignKey: tasks.foreignKey,
        publisherKey: tasks.publisherKey,
        status: tasks.status,
        reason: tasks.reason,
        reviewsFound: tasks.reviewsFound,
      })
      .from(tasks)
      .innerJoin(requests, eq(requests.id, tasks.requestId))
      .where(where)
      .orderBy(asc(requests.createdAt), asc(requests.batchIndex), asc(requests.id), asc(tasks.position))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
  ]);
  if ("batchId" in scope && owner.length === 0) return null;
  const totals: BatchTotals = { tasks: 0, queued: 0, in_progress: 0, completed: 0, failed: 0 };
  for (const { status, n } of counts) {
    const name = STATUS_NAMES[status];
    if (name) totals[name] += n;
    totals.tasks += n;
  }
  return { totals, tasks: rows.map(view) };
}
