import { eq, getTableColumns } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { chunk, D1_MAX_PARAMS } from "../../db/batching";
import { database, type Database } from "../../db/client";
import { requests, tasks } from "../../db/schema";
import { encryptText } from "../../core/crypto/aes";
import type { NewRequest } from "../../core/tasks/new-request";
import type { CollectionOptions } from "../../core/tasks/collection";
import { dispatchTasks } from "../queue/dispatch";
import { TaskStatus, type TaskOptions } from "../../core/tasks/status";

/** The client's since, max_reviews and sort, stored only where given (older tasks read the same). */
function collectionOptions(config: CollectionOptions): CollectionOptions {
  return {
    ...(config.since !== undefined ? { since: config.since } : {}),
    ...(config.max_reviews !== undefined ? { max_reviews: config.max_reviews } : {}),
    ...(config.sort !== undefined && config.sort !== "newest" ? { sort: config.sort } : {}),
  };
}

export interface CreatedTask {
  publisher_key: string;
  tasks_id: string;
}

/**
 * The task rows of one validated submit, one per publisher in the order given, all queued (100).
 * Submit and batch submit (./submit-batch.ts) both build their rows here, so an option added to
 * submit reaches batch items too.
 */
export async function newTaskRows(
  env: Env,
  accountId: string,
  requestId: string,
  input: NewRequest,
  now: number,
) {
  const { data } = input;
  const lazy = data.lazy ?? false;
  const rows = await Promise.all(
    data.publishers.map(async (entry, position) => {
      const login = entry.config.persona?.additional_cookies?.login;
      const options: TaskOptions = {
        last_review_hashes: entry.config.last_review_hashes,
        first_page_only: entry.config.first_page_only,
        lazy,
        ...collectionOptions(entry.config),
      };
      return {
        id: crypto.randomUUID(),
        requestId,
        accountId,
        foreignKey: data.foreign_key,
        publisherKey: entry.publisherKey,
        position,
        profileKey: entry.profileKey,
        profileUrl: entry.profileUrl || null,
        status: TaskStatus.queued,
        options,
        cookiesEnc: login?.length ? await encryptText(env.ENCRYPTION_KEY, JSON.stringify(login)) : null,
        files: [] as string[],
        createdAt: now,
        updatedAt: now,
      };
    }),
  );
  return rows;
}

/**
 * Creates the request record and one task per publisher in one atomic D1 batch, then queues one
 * message per task. Both happen before the client hears 201; when queueing fails the rows are
 * removed again and the error propagates (a 500), so nothing is left that no message will run.
 * `also.write` adds the caller's own rows to that batch (a monitor run records its tasks), so they
 * exist before any task can run; `also.undo` is added to the cleanup batch when queueing fails.
 */
export async function submitRequest(
  env: Env,
  accountId: string,
  input: NewRequest,
  baseUrl: string,
  db: Database = database(env.DB),
  also?: {
    write: (tasks: CreatedTask[]) => BatchItem<"sqlite">[];
    undo: (tasks: CreatedTask[]) => BatchItem<"sqlite">[];
  },
): Promise<{ requestId: string; tasks: CreatedTask[] }> {
  const now = Date.now();
  const requestId = crypto.randomUUID();
  const { data } = input;
  const lazy = data.lazy ?? false;
  const rows = await newTaskRows(env, accountId, requestId, input, now);
  const created = rows.map((row) => ({ publisher_key: row.publisherKey, tasks_id: row.id }));
  // Drizzle binds a parameter for every column of the table, not only the ones given here.
  const columnsPerTask = Object.keys(getTableColumns(tasks)).length;
  const taskInserts = chunk(rows, Math.floor(D1_MAX_PARAMS / columnsPerTask)).map((part) =>
    db.insert(tasks).values(part),
  );
  await db.batch([
    db.insert(requests).values({
      id: requestId,
      accountId,
      foreignKey: data.foreign_key,
      lazy,
      business: data.business,
      baseUrl,
      createdAt: now,
    }),
    ...taskInserts,
    ...(also?.write(created) ?? []),
  ]);
  try {
    await dispatchTasks(
      env,
      rows.map((row) => ({ taskId: row.id, publisherKey: row.publisherKey, accountId })),
    );
  } catch (err) {
    // Without their messages the tasks would stay queued forever; remove them so a retry starts clean.
    await db.batch([
      db.delete(tasks).where(eq(tasks.requestId, requestId)),
      db.delete(requests).where(eq(requests.id, requestId)),
      ...(also?.undo(created) ?? []),
    ]);
    throw err;
  }
  return { requestId, tasks: created };
}
