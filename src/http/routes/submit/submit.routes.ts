import { createRoute } from "@hono/zod-openapi";
import { errorResponse, internalError, tooLarge, unauthorized } from "../../schemas/common";
import { SubmitRequestSchema, SubmitResponseSchema } from "../../schemas/submit";
import { UNAUTHORIZED_MESSAGE } from "../../errors";

export const rateLimitHeaders = {
  "X-RateLimit-Limit": {
    schema: { type: "integer" as const },
    description: "Submits the plan allows per minute.",
  },
  "X-RateLimit-Remaining": {
    schema: { type: "integer" as const },
    description: "Submits left in the current window.",
  },
  "X-RateLimit-Reset": {
    schema: { type: "integer" as const },
    description: "Seconds until the window frees a slot.",
  },
};

export const submitRoute = createRoute({
  method: "post",
  path: "/submit/request-reviews/",
  tags: ["Reviews"],
  summary: "Submit a review collection request",
  description:
    "Creates a request and queues one scraping task per publisher. Results come from retrieve-task or by webhook.",
  request: { body: { required: true, content: { "application/json": { schema: SubmitRequestSchema } } } },
  responses: {
    201: {
      description: "Request created; one task per publisher queued.",
      headers: rateLimitHeaders,
      content: { "application/json": { schema: SubmitResponseSchema } },
    },
    400: errorResponse("Missing or invalid fields.", {
      error: "Invalid payload",
      details: { data: { business: { address: { street: ["This field is required."] } } } },
    }),
    401: unauthorized(UNAUTHORIZED_MESSAGE.submit),
    413: tooLarge,
    429: {
      ...errorResponse("The plan's submit rate limit is exceeded.", {
        error: "Too Many Requests",
        details: { rate_limit: ["free plan allows 10 requests per minute. Retry after 42 seconds."] },
      }),
      headers: {
        ...rateLimitHeaders,
        "Retry-After": { schema: { type: "integer" as const }, description: "Seconds to wait." },
      },
    },
    500: internalError,
  },
});
