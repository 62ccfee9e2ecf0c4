import { createRoute, z } from "@hono/zod-openapi";
import { errorResponse, internalError, tooLarge, unauthorized, unavailable } from "../../schemas/common";
import { UnfinishedTaskSchema } from "../../schemas/retrieve";
import { ExportRequestSchema, ExportSchema } from "../../schemas/export";
import { UNAUTHORIZED_MESSAGE } from "../../errors";

export const exportRoute = createRoute({
  method: "post",
  path: "/export-task/",
  tags: ["Reviews"],
  summary: "Export a completed task's reviews as one CSV or NDJSON file",
  description:
    "Takes the retrieve's key fields, its filters and a format, and answers a signed, expiring URL to one file of every matching review, newest first, streamed by this service. CSV follows RFC 4180 (header row, CRLF, UTF-8 with a BOM), one column per review field, nested fields flattened (owner_reply.text). An unfinished task answers 200 with response_message, as retrieve does.",
  request: { body: { required: true, content: { "application/json": { schema: ExportRequestSchema } } } },
  responses: {
    201: {
      description: "The file's signed URL, its expiry, its format and how many reviews it holds.",
      content: { "application/json": { schema: ExportSchema } },
    },
    200: {
      description: "The task is queued, running or failed: its status, as retrieve answers it.",
      content: { "application/json": { schema: UnfinishedTaskSchema } },
    },
    400: errorResponse("Missing or invalid fields.", {
      error: "Invalid request",
      details: { format: ['"xlsx" is not a valid choice.'] },
    }),
    401: unauthorized(UNAUTHORIZED_MESSAGE.retrieve),
    404: errorResponse("No task of this account matches (or retention deleted it).", {
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

export type ExportAnswer = z.infer<typeof ExportSchema>;
