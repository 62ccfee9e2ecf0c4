import { createRoute, z, type RouteConfig } from "@hono/zod-openapi";
import { errorResponse, internalError, tooLarge, unauthorized } from "../../schemas/common";
import {
  ChangesRequestSchema,
  ChangesResponseSchema,
  CreateMonitorRequestSchema,
  CreateMonitorResponseSchema,
  DeleteMonitorResponseSchema,
  ListMonitorsRequestSchema,
  ListMonitorsResponseSchema,
  MonitorIdRequestSchema,
  PauseMonitorRequestSchema,
  PauseMonitorResponseSchema,
} from "../../schemas/monitors";
import { UNAUTHORIZED_MESSAGE } from "../../errors";
import { MonitorEventPayloadSchema } from "../../../app/monitors/events";

const TAGS = ["Monitors"];

const common = {
  401: unauthorized(UNAUTHORIZED_MESSAGE.monitor),
  413: tooLarge,
  500: internalError,
};

export const MONITOR_NOT_FOUND_EXAMPLE = {
  error: "Monitor not found",
  details: { monitor_id: ["No monitor of this account has this id."] },
};
const notFound = errorResponse("No monitor of this account has this id.", MONITOR_NOT_FOUND_EXAMPLE);

function post(
  path: string,
  summary: string,
  description: string,
  schema: z.ZodType,
  responses: RouteConfig["responses"],
) {
  return createRoute({
    method: "post",
    path,
    tags: TAGS,
    summary,
    description,
    request: { body: { required: true, content: { "application/json": { schema } } } },
    responses: { ...responses, ...common },
  });
}

export const createMonitorRoute = post(
  "/monitors/create-monitor/",
  "Create a review monitor",
  "Registers a business for scheduled collection. Each run creates one ordinary task per publisher (retrievable, counted toward the plan's limits) and reports what changed since the last run as review.created, review.updated and review.deleted events. The first run records what is there (no review.* events).",
  CreateMonitorRequestSchema,
  {
    201: {
      description: "Monitor created; its first run starts within minutes.",
      content: { "application/json": { schema: CreateMonitorResponseSchema } },
    },
    400: errorResponse("Missing or invalid fields (the same rules as submit's).", {
      error: "Invalid payload",
      details: { interval_hours: ["Ensure this value is greater than or equal to 24."] },
    }),
  },
);

export const listMonitorsRoute = post(
  "/monitors/list-monitors/",
  "List review monitors",
  "The account's monitors, oldest first, a page at a time.",
  ListMonitorsRequestSchema,
  {
    200: {
      description: "A page of monitors.",
      content: { "application/json": { schema: ListMonitorsResponseSchema } },
    },
    400: errorResponse("Missing or invalid fields.", {
      error: "Invalid payload",
      details: { cursor: ["Invalid cursor."] },
    }),
  },
);

export const deleteMonitorRoute = post(
  "/monitors/delete-monitor/",
  "Delete a review monitor",
  "Stops the monitor and deletes what it kept (review state and changes log). Tasks its runs created stay retrievable.",
  MonitorIdRequestSchema,
  {
    200: {
      description: "Deleted.",
      content: { "application/json": { schema: DeleteMonitorResponseSchema } },
    },
    400: errorResponse("Missing or invalid fields.", {
      error: "Invalid payload",
      details: { monitor_id: ["This field is required."] },
    }),
    404: notFound,
  },
);

export const pauseMonitorRoute = post(
  "/monitors/pause-monitor/",
  "Pause or resume a review monitor",
  "paused true (the default) stops further runs (a run under way finishes); paused false resumes, with the next run due at once.",
  PauseMonitorRequestSchema,
  {
    200: {
      description: "The monitor as it is now.",
      content: { "application/json": { schema: PauseMonitorResponseSchema } },
    },
    400: errorResponse("Missing or invalid fields.", {
      error: "Invalid payload",
      details: { paused: ["Must be a valid boolean."] },
    }),
    404: notFound,
  },
);

export const changesRoute = post(
  "/monitors/changes/",
  "List a monitor's changes",
  "Every change the monitor detected, in detection order, from a cursor: a client that missed webhooks catches up here.",
  ChangesRequestSchema,
  {
    200: {
      description: "A page of changes.",
      content: { "application/json": { schema: ChangesResponseSchema } },
    },
    400: errorResponse("Missing or invalid fields.", {
      error: "Invalid payload",
      details: { cursor: ["Invalid cursor."] },
    }),
    404: notFound,
  },
);

/** The monitor notifications sent to the account's webhook (OpenAPI 3.1 `webhooks`). */
export const monitorEventWebhook = createRoute({
  method: "post",
  path: "monitor-event",
  tags: ["Webhooks", ...TAGS],
  summary: "Monitor notification sent to the account's webhook",
  description:
    "review.created, review.updated and review.deleted carry at most 100 changes each, in detection order; monitor.run_completed ends each publisher's run with its counts. Signed, retried and logged like task notifications (same headers); the events of one monitor are delivered one after another, in order. X-Webhook-Id is stable: deduplicate on it.",
  request: {
    body: { required: true, content: { "application/json": { schema: MonitorEventPayloadSchema } } },
  },
  responses: { 200: { description: "Any 2xx answer within 10 s acknowledges the event." } },
});
