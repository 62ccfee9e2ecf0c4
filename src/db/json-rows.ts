import { getTableColumns, getTableName } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

/** A D1 database or a request's D1 session: what prepares and batches statements. */
export type D1Runner = Pick<D1Database, "prepare" | "batch">;

/**
 * JSON carried by one statement at most, in bytes: under D1's limit of 2,000,000 bytes for one
 * string value, with room to spare.
 */
export const JSON_ROWS_MAX_BYTES = 900_000;

const UTF8 = new TextEncoder();

/**
 * Multi-row INSERTs that bind one parameter each: the rows travel as one JSON array that SQLite's
 * `json_each` unpacks, so a statement stays far inside D1's 100 bound parameters whatever the
 * number of rows. Drizzle's own multi-row insert binds a parameter for every column of every row
 * (three task rows per statement), so 500 tasks would take 167 statements, and D1 counts each
 * statement of a batch against the 1,000 queries one Worker invocation may make; here they take
 * one or two. Values are converted by the columns' own drizzle mappers (JSON columns stringified,
 * booleans 0/1), so a row is stored exactly as `db.insert(table).values(row)` would store it;
 * columns a row leaves out get their SQL default. Every row must give the same columns.
 */
export function insertJsonRows<T extends SQLiteTable>(
  d1: D1Runner,
  table: T,
  rows: readonly T["$inferInsert"][],
  maxBytes = JSON_ROWS_MAX_BYTES,
): D1PreparedStatement[] {
  if (!rows.length) return [];
  const columns = Object.entries(getTableColumns(table)).filter(
    ([key]) => (rows[0] as Record<string, unknown>)[key] !== undefined,
  );
  const encoded = rows.map((row) => {
    const values: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = (row as Record<string, unknown>)[key];
      values[column.name] = value === null || value === undefined ? null : column.mapToDriverValue(value);
    }
    return JSON.stringify(values);
  });
  // Table and column names come from the schema, never from input: safe to inline.
  const names = columns.map(([, column]) => `"${column.name}"`).join(", ");
  const picks = columns.map(([, column]) => `value ->> '$.${column.name}'`).join(", ");
  const text = `INSERT INTO "${getTableName(table)}" (${names}) SELECT ${picks} FROM json_each(?1)`;
  const statements: D1PreparedStatement[] = [];
  let part: string[] = [];
  let bytes = 2;
  const flush = () => statements.push(d1.prepare(text).bind(`[${part.join(",")}]`));
  for (const row of encoded) {
    const size = UTF8.encode(row).length + 1;
    if (part.length && bytes + size > maxBytes) {
      flush();
      part = [];
      bytes = 2;
    }
    part.push(row);
    bytes += size;
  }
  flush();
  return statements;
}
