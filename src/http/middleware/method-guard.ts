import type { Handler } from "hono";
import type { AppEnv } from "../context";

/** Answers 405 with an Allow header for any method a path does not serve. */
export function methodNotAllowed(allow: string[]): Handler<AppEnv> {
  return (c) => c.json({ error: `Method "${c.req.method}" not allowed.` }, 405, { Allow: allow.join(", ") });
}
