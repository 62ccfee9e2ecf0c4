import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../context";
import { ERROR_TEXT } from "../../errors";
import { mountPost } from "../mount";
import { deliveriesHandler } from "./deliveries.handlers";
import { deliveriesRoute, taskEventWebhook } from "./deliveries.routes";

const mountDeliveriesEndpoint = mountPost(deliveriesRoute, ERROR_TEXT.webhook, deliveriesHandler);

/** The delivery log endpoint, and the notification itself in the OpenAPI document's `webhooks`. */
export function mountDeliveries(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerWebhook(taskEventWebhook);
  mountDeliveriesEndpoint(app);
}
