import { z } from "@hono/zod-openapi";
import { ApiKeySchema } from "../../schemas/common";
import { drfInteger, drfObject, drfString } from "../../../core/validation";

export const DELIVERIES_DEFAULT_LIMIT = 20;
export const DELIVERIES_MAX_LIMIT = 100;

export const DeliveriesRequestSchema = drfObject({
  api_key: ApiKeySchema,
  limit: drfInteger({ min: 1, max: DELIVERIES_MAX_LIMIT }).optional().openapi({
    type: "integer",
    minimum: 1,
    maximum: DELIVERIES_MAX_LIMIT,
    default: DELIVERIES_DEFAULT_LIMIT,
    description: "How many deliveries to list.",
  }),
  task_id: drfString({ max: 64 })
    .optional()
    .openapi({ type: "string", description: "Only the deliveries of this task." }),
}).openapi("WebhookDeliveriesRequest", { example: { api_key: "rk_your_api_key", limit: 20 } });

const isoTime = (description: string) => z.string().nullable().openapi({ format: "date-time", description });

export const DeliverySchema = z
  .object({
    id: z
      .string()
      .openapi({ description: "Event id, sent as X-Webhook-Id and webhook-id on every attempt." }),
    task_id: z.string(),
    event: z.string().openapi({ example: "task.completed" }),
    state: z
      .enum(["pending", "delivered", "failed"])
      .openapi({ description: "failed = every retry was used up; the event is kept." }),
    attempts: z.number().int(),
    last_status_code: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "HTTP status of the last answer; null when none came." }),
    last_error: z.string().nullable(),
    next_attempt_at: isoTime("When the next attempt is due; null once delivered or given up."),
    last_attempt_at: isoTime("When the last attempt was made; null before the first."),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("WebhookDelivery");

export const DeliveriesResponseSchema = z
  .object({ deliveries: z.array(DeliverySchema).openapi({ description: "Most recent first." }) })
  .openapi("WebhookDeliveriesResponse");

export type Delivery = z.infer<typeof DeliverySchema>;
