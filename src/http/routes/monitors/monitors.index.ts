import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../context";
import { ERROR_TEXT } from "../../errors";
import { mountPost } from "../mount";
import {
  changesHandler,
  createMonitorHandler,
  deleteMonitorHandler,
  listMonitorsHandler,
  pauseMonitorHandler,
} from "./monitors.handlers";
import {
  changesRoute,
  createMonitorRoute,
  deleteMonitorRoute,
  listMonitorsRoute,
  monitorEventWebhook,
  pauseMonitorRoute,
} from "./monitors.routes";

/** The review monitor endpoints (docs/monitoring.md), and their notifications in the OpenAPI document's `webhooks`. */
export function mountMonitors(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerWebhook(monitorEventWebhook);
  mountPost(createMonitorRoute, ERROR_TEXT.monitor, createMonitorHandler)(app);
  mountPost(listMonitorsRoute, ERROR_TEXT.monitor, listMonitorsHandler)(app);
  mountPost(deleteMonitorRoute, ERROR_TEXT.monitor, deleteMonitorHandler)(app);
  mountPost(pauseMonitorRoute, ERROR_TEXT.monitor, pauseMonitorHandler)(app);
  mountPost(changesRoute, ERROR_TEXT.monitor, changesHandler)(app);
}
