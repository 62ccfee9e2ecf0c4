import { drizzle } from "drizzle-orm/d1";

export type Database = ReturnType<typeof database>;

/**
 * Drizzle over a D1 binding or session, made per request (a session is per request). Without a
 * `schema`: the service uses the query builder only, never relational queries, and a schema would
 * make every construction walk all tables, their columns and index builders again.
 */
export function database(d1: D1Database) {
  return drizzle(d1);
}
