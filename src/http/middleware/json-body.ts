import { createMiddleware } from "hono/factory";
import { ApiError } from "../errors";
import type { AppEnv } from "../context";

export const MAX_BODY_BYTES = 1024 * 1024;

const tooLarge = () => new ApiError(413, { error: "Payload too large" });

async function readLimited(body: ReadableStream<Uint8Array> | null): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * Reads and parses the JSON body whatever its Content-Type (clients of the hosted API send it with
 * and without one), refusing bodies over 1 MiB and answering parse errors in the endpoint's shape.
 */
export function jsonBody(errorText: string) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const declared = Number(c.req.header("content-length"));
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw tooLarge();
    const bytes = await readLimited(c.req.raw.body);
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
