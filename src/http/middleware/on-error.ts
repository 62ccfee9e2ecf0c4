import type { ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { errorText, log } from "../../log";
import type { AppEnv } from "../context";
import { ApiError, INTERNAL_ERROR } from "../errors";

/** Turns anything thrown below a route into the documented JSON body; a 500 never shows a stack. */
export const onError: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof ApiError) return c.json(err.body, err.status, err.headers);
  if (err instanceof HTTPException && err.status < 500) {
    return c.json({ error: err.message || "Bad request" }, err.status);
  }
  // Only the name and message: bodies, keys and cookies never reach the log.
  log("error", "request failed", {
    request_id: c.get("requestId"),
    method: c.req.method,
    path: new URL(c.req.url).pathname,
    error: errorText(err),
  });
  return c.json(INTERNAL_ERROR, 500);
};
