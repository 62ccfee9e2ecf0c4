import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../context";
import { ERROR_TEXT } from "../../errors";
import { BatchItemSchema } from "../../schemas/batch";
import { mountPost } from "../mount";
import { batchBodyLimit, retrieveBatchHandler, submitBatchHandler } from "./batch.handlers";
import { batchEventWebhook, retrieveBatchRoute, submitBatchRoute } from "./batch.routes";

/** POST /submit/batch/, POST /retrieve-batch/ and the batch.completed notification (docs/batch.md). */
export function mountBatch(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.register("SubmitBatchItem", BatchItemSchema);
  app.openAPIRegistry.registerWebhook(batchEventWebhook);
  mountPost(submitBatchRoute, ERROR_TEXT.submit, submitBatchHandler, batchBodyLimit)(app);
  mountPost(retrieveBatchRoute, ERROR_TEXT.retrieve, retrieveBatchHandler)(app);
}
