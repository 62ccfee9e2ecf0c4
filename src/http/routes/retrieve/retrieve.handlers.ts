import { canonicalPublisherKey } from "../../../core/publishers/canonical";
import {
  completedTaskJson,
  findTaskPage,
  unfinishedTask,
  type TaskLookup,
} from "../../../app/tasks/retrieve";
import { TaskStatus } from "../../../core/tasks/status";
import { primarySession } from "../../d1-session";
import { endpoint } from "../../endpoint";
import { ApiError, ERROR_TEXT, UNAUTHORIZED_MESSAGE } from "../../errors";
import { PAGE_SIZE_DEFAULT, RetrieveRequestSchema } from "../../schemas/retrieve";
import { reviewFilters } from "../../schemas/filters";

export const retrieveHandler = endpoint(
  {
    errorText: ERROR_TEXT.retrieve,
    schema: RetrieveRequestSchema,
    apiKeyPath: ["api_key"],
    unauthorizedMessage: UNAUTHORIZED_MESSAGE.retrieve,
    // Reads may be served by a nearby replica; a client's bookmark keeps its own writes visible.
    consistency: "read",
  },
  async (c, input, account, d1) => {
    const publisherKey = canonicalPublisherKey(input.publisher_key) ?? input.publisher_key;
    const page = input.page ?? 1;
    const pageSize = input.page_size ?? PAGE_SIZE_DEFAULT;
    const baseUrl = new URL(c.req.url).origin;
    const lookup: TaskLookup = {
      accountId: account.id,
      taskId: input.task_id,
      foreignKey: input.foreign_key,
      publisherKey,
    };
    const filters = reviewFilters(input);
    let found = await findTaskPage(c.env, d1.db, lookup, page, pageSize, baseUrl, filters);
    // A replica may not have a task submitted a moment ago: before answering 404 to a client that
    // sent no bookmark, ask the primary once (a round trip only on this rare path).
    if (!found && d1.unconstrained)
      found = await findTaskPage(c.env, primarySession(c.env), lookup, page, pageSize, baseUrl, filters);
    if (!found) throw taskNotFound(input, publisherKey);
    if (found.task.status !== TaskStatus.completed) return c.json(unfinishedTask(found.task), 200);
    return c.body(await completedTaskJson(c.env, found, page, pageSize, baseUrl), 200, {
      "Content-Type": "application/json",
    });
  },
);

/** The 404 of retrieve and export: the same for a task that never existed and one retention deleted. */
export function taskNotFound(
  input: { foreign_key: string; task_id: string },
  publisherKey: string,
): ApiError {
  return new ApiError(404, {
    error: "Task not found",
    details: {
      foreign_key: `No task with foreign_key "${input.foreign_key}" and task_id "${input.task_id}"`,
      publisher_key: `No task with publisher_key "${publisherKey}" and task_id "${input.task_id}"`,
    },
  });
}
