import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import type { Handler, MiddlewareHandler } from "hono";
import type { AppEnv } from "../context";
import { apiBodyLimit, jsonBody } from "../middleware/json-body";
import { methodNotAllowed } from "../middleware/method-guard";

/**
 * Serves a POST endpoint at its path with and without the trailing slash, documents it from the
 * route definition (validation runs in the handler, after auth, as the order of checks requires),
 * and answers 405 for every other method. `bodyLimit` replaces the 1 MiB cap's 413 where an
 * endpoint answers an oversized body its own way (batch submit: a 400 naming the limit).
 */
export function mountPost(
  route: RouteConfig,
  errorText: string,
  handler: Handler<AppEnv>,
  bodyLimit: MiddlewareHandler<AppEnv> = apiBodyLimit,
) {
  return (app: OpenAPIHono<AppEnv>) => {
    app.openAPIRegistry.registerPath(route);
    const withSlash = route.path.endsWith("/") ? route.path : `${route.path}/`;
    const paths = [withSlash, withSlash.slice(0, -1)];
    for (const path of paths) {
      app.post(path, bodyLimit, jsonBody(errorText), handler);
      app.all(path, methodNotAllowed(["POST"]));
    }
  };
}
