import { createRoute, z } from "@hono/zod-openapi";
import { errorResponse, internalError, tooLarge, unauthorized, unavailable } from "../../schemas/common";
import { CompletedTaskSchema, RetrieveRequestSchema, UnfinishedTaskSchema } from "../../schemas/retrieve";
import { UNAUTHORIZED_MESSAGE } from "../../errors";

export const retrieveRoute = createRoute({
  method: "post",
  path: "/retrieve-task/",
  tags: ["Reviews"],
  summary: "Retrieve a task's status or its reviews",
  description:
    "A completed task answers with the business and one page of deduplicated reviews, newest first. A queued, running or failed task answers 200 with response_message.",
  request: { body: { required: true, content: { "application/json": { schema: RetrieveRequestSchema } } } },
  responses: {
    200: {
      description:
        "The completed task with a page of reviews, or the status of an unfinished or failed task.",
      content: { "application/json": { schema: z.union([CompletedTaskSchema, UnfinishedTaskSchema]) } },
    },
    400: errorResponse("Missing or invalid fields.", {
      error: "Invalid request",
      details: { page: ["Ensure this value is greater than or equal to 1."] },
    }),
    401: unauthorized(UNAUTHORIZED_MESSAGE.retrieve),
    404: errorResponse("No task of this account matches.", {
      error: "Task not found",
      details: {
        foreign_key:
          'No task with foreign_key "order-1234" and task_id "8c1f1f7e-6b1a-4c3e-9a43-0d2b8f0c2a11"',
        publisher_key:
          'No task with publisher_key "trustpilot.com" and task_id "8c1f1f7e-6b1a-4c3e-9a43-0d2b8f0c2a11"',
      },
    }),
    413: tooLarge,
    500: internalError,
    503: unavailable({ error: "Service temporarily unavailable" }),
  },
});
