import { createMiddleware } from "hono/factory";
import { settings } from "../../settings";
import type { AppEnv } from "../context";

/**
 * Gives every request an id, echoed in `X-Request-Id` and in every log line about it, and logs one
 * line per request. Only the method and path are logged: bodies carry keys and cookies.
 */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const id = c.req.header("cf-ray") ?? crypto.randomUUID();
  const started = Date.now();
  c.set("requestId", id);
  await next();
  c.header("X-Request-Id", id);
  if (settings(c.env).logRequests) {
    console.log(
      JSON.stringify({ request_id: id, method: c.req.method, path: new URL(c.req.url).pathname, status: c.res.status, ms: Date.now() - started }),
    );
  }
});
