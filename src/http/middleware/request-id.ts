import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../context";

/** Gives every request an id, echoed in `X-Request-Id` and in every log line about it. */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const id = c.req.header("cf-ray") ?? crypto.randomUUID();
  c.set("requestId", id);
  await next();
  c.header("X-Request-Id", id);
});
