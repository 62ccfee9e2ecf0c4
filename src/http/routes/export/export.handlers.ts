import { canonicalPublisherKey } from "../../../core/publishers/canonical";
import { findTaskPage, unfinishedTask, type TaskLookup } from "../../../app/tasks/retrieve";
import { TaskStatus } from "../../../core/tasks/status";
import { settings } from "../../../settings";
import { fileUrlExpiry, signFileUrl } from "../../../storage/signed-url";
import { exportFileKey } from "../../../storage/task-export";
import { primarySession } from "../../d1-session";
import { endpoint } from "../../endpoint";
import { ERROR_TEXT, UNAUTHORIZED_MESSAGE } from "../../errors";
import { ExportRequestSchema } from "../../schemas/export";
import { reviewFilters } from "../../schemas/filters";
import { taskNotFound } from "../retrieve/retrieve.handlers";

/**
 * Answers a signed URL to the whole task as one file; the file itself is made when it is fetched
 * (src/storage/task-export.ts). Here only the task row and, with filters, its index are read, to
 * count the reviews the file will hold.
 */
export const exportHandler = endpoint(
  {
    errorText: ERROR_TEXT.retrieve,
    schema: ExportRequestSchema,
    apiKeyPath: ["api_key"],
    unauthorizedMessage: UNAUTHORIZED_MESSAGE.retrieve,
    consistency: "read",
  },
  async (c, input, account, d1) => {
    const publisherKey = canonicalPublisherKey(input.publisher_key) ?? input.publisher_key;
    const baseUrl = new URL(c.req.url).origin;
    const lookup: TaskLookup = {
      accountId: account.id,
      taskId: input.task_id,
      foreignKey: input.foreign_key,
      publisherKey,
    };
    const filters = reviewFilters(input);
    // Page 1 of size 0: the task and the size of the (filtered) set, without reading any review.
    let found = await findTaskPage(c.env, d1.db, lookup, 1, 0, baseUrl, filters);
    if (!found && d1.unconstrained)
      found = await findTaskPage(c.env, primarySession(c.env), lookup, 1, 0, baseUrl, filters);
    if (!found) throw taskNotFound(input, publisherKey);
    if (found.task.status !== TaskStatus.completed) return c.json(unfinishedTask(found.task), 200);
    const expires = fileUrlExpiry(settings(c.env).reviewFileUrlTtlSeconds);
    const key = exportFileKey(found.task.id, input.format, filters);
    return c.json(
      {
        url: await signFileUrl(c.env.URL_SIGNING_KEY, baseUrl, key, expires),
        expires_at: new Date(expires * 1000).toISOString(),
        format: input.format,
        reviews: found.total,
      },
      201,
    );
  },
);
