import { createMiddleware } from "hono/factory";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../errors";
import type { AppEnv } from "../context";

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The 1 MiB cap, before anything reads the body: a declared Content-Length over it is refused
 * unread, a body without one (chunked) is counted as it streams and refused the moment it passes
 * the cap. Hono's default answer is a plain-text 413 thrown as an HTTPException without a message,
 * which the app's error handler would turn into `{"error": "Bad request"}`; the documented JSON body
 * is thrown as an ApiError instead, through the same error handler as every other refusal.
 */
export const apiBodyLimit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new ApiError(413, { error: "Payload too large" });
  },
});

/** One decoder for every request: a non-streaming decode() keeps no state between calls. */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Parses the JSON body whatever its Content-Type (clients of the hosted API send it with and
 * without one), answering parse errors in the endpoint's shape. Runs after `apiBodyLimit`, which
 * has bounded the body already (a chunked one it buffered; a declared one the runtime holds to its
 * Content-Length), so reading it whole here is safe.
 */
export function jsonBody(errorText: string) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const bytes = await c.req.raw.arrayBuffer();
    let text: string;
    try {
      text = UTF8.decode(bytes);
    } catch {
      throw new ApiError(400, {
        error: errorText,
        details: { non_field_errors: ["JSON parse error - body is not valid UTF-8"] },
      });
    }
    try {
      c.set("body", JSON.parse(text));
    } catch (err) {
      const reason = text.trim() === "" ? "empty body" : err instanceof Error ? err.message : String(err);
      throw new ApiError(400, {
        error: errorText,
        details: { non_field_errors: [`JSON parse error - ${reason}`] },
      });
    }
    await next();
  });
}
