import { createRoute, z } from "@hono/zod-openapi";
import { TaskEventPayloadSchema } from "../../../app/webhooks/events";
import { errorResponse, internalError, tooLarge, unauthorized, unavailable } from "../../schemas/common";
import { DeliveriesRequestSchema, DeliveriesResponseSchema } from "./deliveries.schemas";
import { UNAUTHORIZED_MESSAGE } from "../../errors";

export const deliveriesRoute = createRoute({
  method: "post",
  path: "/webhooks/deliveries/",
  tags: ["Webhooks"],
  summary: "List recent webhook deliveries",
  description:
    "The account's webhook events, most recent first, with the state of their delivery: attempts, the last answer, and when the next retry is due.",
  request: { body: { required: true, content: { "application/json": { schema: DeliveriesRequestSchema } } } },
  responses: {
    200: {
      description: "Recent deliveries.",
      content: { "application/json": { schema: DeliveriesResponseSchema } },
    },
    400: errorResponse("Missing or invalid fields.", {
      error: "Invalid payload",
      details: { limit: ["Ensure this value is less than or equal to 100."] },
    }),
    401: unauthorized(UNAUTHORIZED_MESSAGE.webhook),
    413: tooLarge,
    500: internalError,
    503: unavailable({ error: "Service temporarily unavailable" }),
  },
});

/** The notification the service sends to the account's webhook (OpenAPI 3.1 `webhooks`). */
export const taskEventWebhook = createRoute({
  method: "post",
  path: "task-event",
  tags: ["Webhooks"],
  summary: "Task notification sent to the account's webhook",
  description:
    "Sent when a task enters 101, 200 or 500. Verify X-Webhook-Signature (sha256=<hex HMAC-SHA256 of `timestamp.body` keyed with the secret string>) or the Standard Webhooks headers. Answer 2xx within 10 s; anything else is retried after 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h and 24 h.",
  request: {
    headers: z.object({
      "X-Webhook-Id": z
        .string()
        .openapi({ description: "Event id, the same on every retry; deduplicate on it." }),
      "X-Webhook-Timestamp": z.string().openapi({ description: "Unix seconds of this attempt." }),
      "X-Webhook-Signature": z.string().openapi({ description: "sha256=<hex>" }),
      "webhook-id": z.string(),
      "webhook-timestamp": z.string(),
      "webhook-signature": z.string().openapi({ description: "v1,<base64> (Standard Webhooks)" }),
    }),
    body: { required: true, content: { "application/json": { schema: TaskEventPayloadSchema } } },
  },
  responses: { 200: { description: "Any 2xx answer within 10 s acknowledges the event." } },
});
