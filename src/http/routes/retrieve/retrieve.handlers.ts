import { database } from "../../../db/client";
import { canonicalPublisherKey } from "../../../domain/publishers/canonical";
import { completedTask, findTask, unfinishedTask } from "../../../domain/tasks/retrieve";
import { TaskStatus } from "../../../domain/tasks/status";
import { endpoint } from "../../endpoint";
import { ApiError, ERROR_TEXT, UNAUTHORIZED_MESSAGE } from "../../errors";
import { PAGE_SIZE_DEFAULT, RetrieveRequestSchema } from "../../schemas/retrieve";

export const retrieveHandler = endpoint(
  {
    errorText: ERROR_TEXT.retrieve,
    schema: RetrieveRequestSchema,
    apiKeyPath: ["api_key"],
    unauthorizedMessage: UNAUTHORIZED_MESSAGE.retrieve,
  },
  async (c, input, account) => {
    const db = database(c.env.DB);
    const publisherKey = canonicalPublisherKey(input.publisher_key) ?? input.publisher_key;
    const task = await findTask(db, account.id, input.task_id, input.foreign_key, publisherKey);
    if (!task) {
      throw new ApiError(404, {
        error: "Task not found",
        details: {
          foreign_key: `No task with foreign_key "${input.foreign_key}" and task_id "${input.task_id}"`,
          publisher_key: `No task with publisher_key "${publisherKey}" and task_id "${input.task_id}"`,
        },
      });
    }
    if (task.status !== TaskStatus.completed) return c.json(unfinishedTask(task), 200);
    const page = input.page ?? 1;
    const pageSize = input.page_size ?? PAGE_SIZE_DEFAULT;
    return c.json(await completedTask(c.env, db, task, page, pageSize, new URL(c.req.url).origin), 200);
  },
);
