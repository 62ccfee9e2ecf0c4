import type { OpenAPIHono } from "@hono/zod-openapi";
import { etag } from "hono/etag";
import type { AppEnv } from "../../context";
import { methodNotAllowed } from "../../middleware/method-guard";
import { publisherHandler, publishersHandler } from "./publishers.handlers";
import { publisherRoute, publishersRoute } from "./publishers.routes";

/** GET /publishers (and /publishers/) and GET /publishers/{domain}: public, no API key, no body; HEAD comes with GET. */
export function mountPublishers(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerPath(publishersRoute);
  for (const path of ["/publishers", "/publishers/"]) {
    app.get(path, etag(), publishersHandler);
    app.all(path, methodNotAllowed(["GET", "HEAD"]));
  }
  app.openAPIRegistry.registerPath(publisherRoute);
  for (const path of ["/publishers/:domain{[^/]+}", "/publishers/:domain{[^/]+}/"]) {
    app.get(path, etag(), publisherHandler);
    app.all(path, methodNotAllowed(["GET", "HEAD"]));
  }
}
