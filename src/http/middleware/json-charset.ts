import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../context";

const JSON_TYPE = "application/json";
const JSON_UTF8 = "application/json; charset=UTF-8";

/**
 * States the charset of every JSON answer, errors included, so no client has to assume it. The
 * header is set on the finished answer itself: Hono's `c.header()` after the handler re-creates the
 * Response around its body as a stream, which made every JSON answer (a 1,000-review page is 0.5 MB)
 * a streamed copy of unknown length instead of the string the handler built.
 */
export const jsonCharset = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const res = c.res;
  if (res.headers.get("Content-Type") !== JSON_TYPE) return;
  try {
    res.headers.set("Content-Type", JSON_UTF8);
  } catch {
    // An answer with immutable headers (one passed through from a fetch): re-created by Hono.
    c.header("Content-Type", JSON_UTF8);
  }
});
