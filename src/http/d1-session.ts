import type { Context } from "hono";
import { database, type Database } from "../db/client";
import type { AppEnv } from "./context";

/** Request and response header carrying a D1 Sessions bookmark (read-your-writes across requests). */
export const BOOKMARK_HEADER = "X-D1-Bookmark";

// D1 bookmarks are four dash-separated hex fields; anything else is not passed on to D1.
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/i;

export type Consistency = "write" | "read";

export interface RequestSession {
  db: Database;
  session: D1DatabaseSession;
  /** True when the client sent no usable bookmark and reads may come from any replica. */
  unconstrained: boolean;
}

/** Drizzle over a D1 session; drizzle's D1 driver only calls prepare() and batch(), which sessions have. */
export function sessionDatabase(session: D1DatabaseSession): Database {
  return database(session as unknown as D1Database);
}

/**
 * The request's D1 session. A valid bookmark from the client starts the session no older than that
 * bookmark (read-your-writes). Without one, writes start at the primary and reads may be served by
 * the nearest replica; a header that is present but not a bookmark starts at the primary, the safe
 * reading of what the client asked for.
 */
export function requestSession(c: Context<AppEnv>, consistency: Consistency): RequestSession {
  const given = c.req.header(BOOKMARK_HEADER)?.trim();
  let constraint: string;
  if (given && BOOKMARK.test(given)) constraint = given;
  else constraint = given || consistency === "write" ? "first-primary" : "first-unconstrained";
  const session = c.env.DB.withSession(constraint);
  return { db: sessionDatabase(session), session, unconstrained: constraint === "first-unconstrained" };
}

/** A session that starts at the primary, for a read that must not miss a recent write. */
export function primarySession(env: Env): Database {
  return sessionDatabase(env.DB.withSession("first-primary"));
}
