import { z } from "@hono/zod-openapi";
import { drfBoolean, drfInteger, drfObject, drfString } from "../../core/validation";
import { ReviewChangeSchema } from "../../app/monitors/events";
import { BusinessSchema, EXAMPLE_BUSINESS } from "./business";
import { ApiKeySchema } from "./common";
import { MonitorPublishersSchema } from "./publishers";

export const FULL_WALK_EVERY_DEFAULT = 7;
export const FULL_WALK_EVERY_MAX = 1000;
/** A year: longer intervals are not monitoring. */
export const INTERVAL_HOURS_MAX = 8760;
export const LIST_DEFAULT_LIMIT = 100;
export const LIST_MAX_LIMIT = 1000;

const MonitorIdField = drfString({ max: 64 }).openapi({
  type: "string",
  example: "mon_0b7e6a4e-8a51-4c34-9d5b-2f0f1f7f1a10",
});

export const CreateMonitorRequestSchema = drfObject({
  api_key: ApiKeySchema,
  foreign_key: drfString({ max: 255 }),
  business: BusinessSchema,
  publishers: MonitorPublishersSchema,
  interval_hours: drfInteger({ min: 1, max: INTERVAL_HOURS_MAX }).openapi({
    type: "integer",
    minimum: 1,
    maximum: INTERVAL_HOURS_MAX,
    description:
      "Hours between runs. At least 1, and at least the plan's minimum (free 24, basic 6, pro 1 unless configured otherwise).",
  }),
  full_walk_every: drfInteger({ min: 1, max: FULL_WALK_EVERY_MAX }).optional().openapi({
    type: "integer",
    minimum: 1,
    maximum: FULL_WALK_EVERY_MAX,
    default: FULL_WALK_EVERY_DEFAULT,
    description:
      "Every Nth run walks all pages (and can see edits further down and deletions); the others stop at the first known review. 1 = every run.",
  }),
}).openapi("CreateMonitorRequest", {
  example: {
    api_key: "rk_your_api_key",
    foreign_key: "store-17",
    business: EXAMPLE_BUSINESS,
    publishers: { "trustpilot.com": { profile_key: "https://www.trustpilot.com/review/bluedoorcafe.com" } },
    interval_hours: 24,
    full_walk_every: 7,
  },
});

export const MonitorSchema = z
  .object({
    monitor_id: z.string(),
    foreign_key: z.string(),
    business: z
      .record(z.string(), z.unknown())
      .openapi({ description: "The business as given at creation." }),
    publishers: z.array(z.object({ publisher_key: z.string(), profile_key: z.string() })),
    interval_hours: z.number().int(),
    full_walk_every: z.number().int(),
    status: z.enum(["active", "paused"]),
    runs: z.number().int().openapi({ description: "Runs started so far." }),
    next_run_at: z.string().nullable().openapi({
      format: "date-time",
      description: "When the next run is due; null while paused. Runs start within minutes of it.",
    }),
    last_run_at: z.string().nullable().openapi({ format: "date-time" }),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Monitor");

export const CreateMonitorResponseSchema = z
  .object({ status: z.literal("success"), monitor_id: z.string(), monitor: MonitorSchema })
  .openapi("CreateMonitorResponse");

export const ListMonitorsRequestSchema = drfObject({
  api_key: ApiKeySchema,
  foreign_key: drfString({ max: 255 })
    .optional()
    .openapi({ type: "string", description: "Only the monitors with this foreign_key." }),
  cursor: drfString({ max: 200 })
    .optional()
    .openapi({ type: "string", description: "next_cursor of the previous page." }),
  limit: drfInteger({ min: 1, max: LIST_MAX_LIMIT })
    .optional()
    .openapi({ type: "integer", minimum: 1, maximum: LIST_MAX_LIMIT, default: LIST_DEFAULT_LIMIT }),
}).openapi("ListMonitorsRequest", { example: { api_key: "rk_your_api_key", limit: 100 } });

export const ListMonitorsResponseSchema = z
  .object({
    monitors: z.array(MonitorSchema).openapi({ description: "Oldest first." }),
    next_cursor: z
      .string()
      .nullable()
      .openapi({ description: "Pass as cursor for the next page; null on the last page." }),
  })
  .openapi("ListMonitorsResponse");

export const MonitorIdRequestSchema = drfObject({
  api_key: ApiKeySchema,
  monitor_id: MonitorIdField,
}).openapi("MonitorIdRequest", {
  example: { api_key: "rk_your_api_key", monitor_id: "mon_0b7e6a4e-8a51-4c34-9d5b-2f0f1f7f1a10" },
});

export const DeleteMonitorResponseSchema = z
  .object({ status: z.literal("success"), monitor_id: z.string() })
  .openapi("DeleteMonitorResponse");

export const PauseMonitorRequestSchema = drfObject({
  api_key: ApiKeySchema,
  monitor_id: MonitorIdField,
  paused: drfBoolean().optional().openapi({
    type: "boolean",
    default: true,
    description:
      "false resumes the monitor; its next run is due its interval after the last run (at once if that has passed).",
  }),
}).openapi("PauseMonitorRequest", {
  example: {
    api_key: "rk_your_api_key",
    monitor_id: "mon_0b7e6a4e-8a51-4c34-9d5b-2f0f1f7f1a10",
    paused: true,
  },
});

export const PauseMonitorResponseSchema = z
  .object({ status: z.literal("success"), monitor: MonitorSchema })
  .openapi("PauseMonitorResponse");

export const ChangesRequestSchema = drfObject({
  api_key: ApiKeySchema,
  monitor_id: MonitorIdField,
  cursor: drfString({ max: 32 }).optional().openapi({
    type: "string",
    description: "next_cursor of the previous page; absent = from the first change.",
  }),
  limit: drfInteger({ min: 1, max: LIST_MAX_LIMIT })
    .optional()
    .openapi({ type: "integer", minimum: 1, maximum: LIST_MAX_LIMIT, default: LIST_DEFAULT_LIMIT }),
}).openapi("MonitorChangesRequest", {
  example: { api_key: "rk_your_api_key", monitor_id: "mon_0b7e6a4e-8a51-4c34-9d5b-2f0f1f7f1a10", limit: 100 },
});

export const ChangesResponseSchema = z
  .object({
    changes: z.array(ReviewChangeSchema).openapi({ description: "In detection order." }),
    next_cursor: z.string().openapi({
      description:
        "Pass as cursor to continue after the last change listed (also when none were): new changes appear there.",
    }),
    has_more: z.boolean(),
  })
  .openapi("MonitorChangesResponse");
