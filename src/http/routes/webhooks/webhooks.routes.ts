import { createRoute } from "@hono/zod-openapi";
import { errorResponse, tooLarge, unauthorized, unavailable } from "../../schemas/common";
import { CreateWebhookRequestSchema, CreateWebhookResponseSchema } from "../../schemas/webhooks";
import { UNAUTHORIZED_MESSAGE } from "../../errors";

export const createWebhookRoute = createRoute({
  method: "post",
  path: "/webhooks/create-webhook/",
  tags: ["Webhooks"],
  summary: "Set the account's webhook URL",
  description:
    "Sets or replaces the one webhook URL of the account. The signing secret is kept on replacement unless rotate_secret is true.",
  request: {
    body: { required: true, content: { "application/json": { schema: CreateWebhookRequestSchema } } },
  },
  responses: {
    201: {
      description: "Webhook stored.",
      content: { "application/json": { schema: CreateWebhookResponseSchema } },
    },
    400: errorResponse("Missing or invalid fields.", {
      error: "Invalid payload",
      details: { webhook: ["Enter a valid URL."] },
    }),
    401: unauthorized(UNAUTHORIZED_MESSAGE.webhook),
    413: tooLarge,
    500: errorResponse("Unexpected failure; no stack trace is shown.", { error: "Internal server error" }),
    503: unavailable({ error: "Database error: could not save webhook" }),
  },
});
