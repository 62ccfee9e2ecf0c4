import { createMiddleware } from "hono/factory";
import { readAtMost } from "../../streams";
import { ApiError } from "../errors";
import type { AppEnv } from "../context";

export const MAX_BODY_BYTES = 1024 * 1024;

const tooLarge = () => new ApiError(413, { error: "Payload too large" });

/**
 * Reads and parses the JSON body whatever its Content-Type (clients of the hosted API send it with
 * and without one), refusing bodies over 1 MiB and answering parse errors in the endpoint's shape.
 */
export function jsonBody(errorText: string) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const declared = Number(c.req.header("content-length"));
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw tooLarge();
    const bytes = await readAtMost(c.req.raw.body, MAX_BODY_BYTES);
    if (!bytes) throw tooLarge();
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      throw new ApiError(400, { error: errorText, details: { non_field_errors: ["JSON parse error - body is not valid UTF-8"] } });
    }
    try {
      c.set("body", JSON.parse(text));
    } catch (err) {
      const reason = text.trim() === "" ? "empty body" : err instanceof Error ? err.message : String(err);
      throw new ApiError(400, { error: errorText, details: { non_field_errors: [`JSON parse error - ${reason}`] } });
    }
    await next();
  });
}
