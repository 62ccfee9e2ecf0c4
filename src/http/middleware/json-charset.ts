import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../context";

/** States the charset of every JSON answer, errors included, so no client has to assume it. */
export const jsonCharset = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (c.res.headers.get("Content-Type") === "application/json") c.header("Content-Type", "application/json; charset=UTF-8");
});
