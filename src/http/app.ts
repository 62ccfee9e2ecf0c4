import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./context";
import { jsonCharset } from "./middleware/json-charset";
import { onError } from "./middleware/on-error";
import { requestId, requestLog } from "./middleware/request-id";
import { mountBatch } from "./routes/batch/batch.index";
import { mountDeliveries } from "./routes/deliveries/deliveries.index";
import { mountDocs } from "./routes/docs/docs.index";
import { mountExport } from "./routes/export/export.index";
import { mountFiles } from "./routes/files/files.index";
import { mountMonitors } from "./routes/monitors/monitors.index";
import { mountPublishers } from "./routes/publishers/publishers.index";
import { mountStatus } from "./routes/status/status.index";
import { mountRetrieve } from "./routes/retrieve/retrieve.index";
import { mountSubmit } from "./routes/submit/submit.index";
import { mountWebhooks } from "./routes/webhooks/webhooks.index";
import { MonitorPublisherConfigSchema, PublisherConfigSchema } from "./schemas/publishers";

export function createApp() {
  const app = new OpenAPIHono<AppEnv>();
  app.use("*", requestId);
  app.use("*", requestLog);
  app.use("*", jsonCharset);
  app.openAPIRegistry.register("PublisherConfiguration", PublisherConfigSchema);
  app.openAPIRegistry.register("MonitorPublisherConfiguration", MonitorPublisherConfigSchema);
  for (const mount of [
    mountSubmit,
    mountBatch,
    mountRetrieve,
    mountExport,
    mountWebhooks,
    mountDeliveries,
    mountMonitors,
    mountPublishers,
    mountStatus,
    mountFiles,
    mountDocs,
  ])
    mount(app);
  app.get("/", (c) => c.json({ service: c.env.SERVICE_NAME, docs: "/docs", openapi: "/openapi.json" }));
  app.notFound((c) => c.json({ error: "Not found" }, 404));
  app.onError(onError);
  return app;
}
