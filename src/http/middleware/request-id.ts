import { createMiddleware } from "hono/factory";
import { requestId as honoRequestId } from "hono/request-id";
import { log } from "../../log";
import { settings } from "../../settings";
import type { AppEnv } from "../context";

/**
 * Gives every request an id, echoed in `X-Request-Id` and in every log line about it: Cloudflare's
 * ray id where there is one (so our lines match the platform's), else a random UUID.
 */
export const requestId = honoRequestId({ generator: (c) => c.req.header("cf-ray") ?? crypto.randomUUID() });

/** One log line per request. Only the method and path are logged: bodies carry keys and cookies. */
export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = Date.now();
  await next();
  if (settings(c.env).logRequests) {
    log("info", "request", {
      request_id: c.get("requestId"),
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      status: c.res.status,
      ms: Date.now() - started,
    });
  }
});
