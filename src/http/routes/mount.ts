import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import type { Handler } from "hono";
import type { AppEnv } from "../context";
import { apiBodyLimit, jsonBody } from "../middleware/json-body";
import { methodNotAllowed } from "../middleware/method-guard";

/**
 * Serves a POST endpoint at its path with and without the trailing slash, documents it from the
 * route definition (validation runs in the handler, after auth, as the order of checks requires),
 * and answers 405 for every other method.
 */
export function mountPost(route: RouteConfig, errorText: string, handler: Handler<AppEnv>) {
  return (app: OpenAPIHono<AppEnv>) => {
    app.openAPIRegistry.registerPath(route);
    const withSlash = route.path.endsWith("/") ? route.path : `${route.path}/`;
    const paths = [withSlash, withSlash.slice(0, -1)];
    for (const path of paths) {
      app.post(path, apiBodyLimit, jsonBody(errorText), handler);
      app.all(path, methodNotAllowed(["POST"]));
    }
  };
}
