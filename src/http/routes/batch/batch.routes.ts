import { createRoute } from "@hono/zod-openapi";
import { errorResponse, internalError, unauthorized, unavailable } from "../../schemas/common";
import {
  BatchRefusedSchema,
  BatchResponseSchema,
  DEFAULT_BATCH_MAX,
  RetrieveBatchRequestSchema,
  RetrieveBatchResponseSchema,
  batchRequestSchema,
} from "../../schemas/batch";
import { UNAUTHORIZED_MESSAGE } from "../../errors";
import { BatchEventPayloadSchema } from "../../../app/webhooks/batch-events";
import { rateLimitHeaders } from "../submit/submit.routes";

const tasksHeaders = {
  "X-Tasks-Limit": { schema: { type: "integer" as const }, description: "Tasks the plan allows per minute." },
  "X-Tasks-Remaining": { schema: { type: "integer" as const }, description: "Tasks left in the window." },
  "X-Tasks-Reset": {
    schema: { type: "integer" as const },
    description: "Seconds until the window frees a task.",
  },
};

export const submitBatchRoute = createRoute({
  method: "post",
  path: "/submit/batch/",
  tags: ["Reviews"],
  summary: "Submit many review collection requests in one call",
  description: `Up to BATCH_MAX (${DEFAULT_BATCH_MAX} by default) submits in one body. Each item is what submit's \`data\` holds apart from the key, validated on its own: valid items are stored and queued (all of them or, on a failure, none), refused ones are listed with submit's error tree under \`requests.<index>\`. The batch counts as one request against the plan's submit rate and all its tasks against tasks per minute, all or none.`,
  request: {
    body: {
      required: true,
      content: { "application/json": { schema: batchRequestSchema(DEFAULT_BATCH_MAX) } },
    },
  },
  responses: {
    201: {
      description: "At least one item was accepted; `results` gives every item's outcome in order.",
      headers: { ...rateLimitHeaders, ...tasksHeaders },
      content: { "application/json": { schema: BatchResponseSchema } },
    },
    400: {
      description:
        "No item was accepted, the batch's own fields are invalid, it holds more than BATCH_MAX items, or its body is over 1 MiB.",
      content: {
        "application/json": {
          schema: BatchRefusedSchema,
          example: {
            error: "Invalid payload",
            details: {
              requests: { "0": { business: { address: { street: ["This field is required."] } } } },
            },
            status: "failed",
            accepted: 0,
            refused: 1,
            results: [
              {
                index: 0,
                error: "Invalid payload",
                details: {
                  requests: { "0": { business: { address: { street: ["This field is required."] } } } },
                },
              },
            ],
          },
        },
      },
    },
    401: unauthorized(UNAUTHORIZED_MESSAGE.submit),
    429: {
      ...errorResponse(
        "The batch would exceed the plan's submit rate or tasks per minute; nothing was queued.",
        {
          error: "Too Many Requests",
          details: { rate_limit: ["pro plan allows 1500 tasks per minute. Retry after 42 seconds."] },
        },
      ),
      headers: {
        ...rateLimitHeaders,
        ...tasksHeaders,
        "Retry-After": { schema: { type: "integer" as const }, description: "Seconds to wait." },
      },
    },
    500: internalError,
  },
});

export const retrieveBatchRoute = createRoute({
  method: "post",
  path: "/retrieve-batch/",
  tags: ["Reviews"],
  summary: "Status of every task of a batch (or of a list of foreign keys)",
  description:
    "One page of tasks with their status, failure reason and review count, and totals per status over all of them. No reviews: read those with retrieve-task.",
  request: {
    body: { required: true, content: { "application/json": { schema: RetrieveBatchRequestSchema } } },
  },
  responses: {
    200: {
      description: "A page of tasks and the totals.",
      content: { "application/json": { schema: RetrieveBatchResponseSchema } },
    },
    400: errorResponse("Missing or invalid fields.", {
      error: "Invalid request",
      details: { non_field_errors: ["Give batch_id or foreign_keys."] },
    }),
    401: unauthorized(UNAUTHORIZED_MESSAGE.retrieve),
    404: errorResponse("No batch of this account has this id.", {
      error: "Batch not found",
      details: { batch_id: 'No batch with batch_id "0f6c3e2a-5d4b-4f8e-9a1c-2b7d8e9f0a1b"' },
    }),
    413: errorResponse("The body is over 1 MiB.", { error: "Payload too large" }),
    429: errorResponse("Too many requests for this account.", {
      error: "Too Many Requests",
      details: { rate_limit: ["Too many requests for this account. Retry after 3 seconds."] },
    }),
    500: internalError,
    503: unavailable({ error: "Service temporarily unavailable" }),
  },
});

export const batchEventWebhook = createRoute({
  method: "post",
  path: "batch-event",
  tags: ["Webhooks"],
  summary: "batch.completed, sent to the account's webhook",
  description:
    "Sent once every task of a batch has completed or failed, queued right after the last task's own event (events are ordered per task, not across tasks). Signed, retried and logged like task notifications (same headers); in the delivery log its task_id is the batch id. X-Webhook-Id is stable: deduplicate on it.",
  request: {
    body: { required: true, content: { "application/json": { schema: BatchEventPayloadSchema } } },
  },
  responses: { 200: { description: "Any 2xx answer within 10 s acknowledges the event." } },
});
