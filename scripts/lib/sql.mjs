// `wrangler d1 execute` takes no bound parameters, so every value written into SQL goes through
// these: strings become quoted literals with quotes doubled, numbers must be finite integers.

export function sqlText(value) {
  if (typeof value !== "string") throw new TypeError("sqlText expects a string");
  if (value.includes("\0")) throw new Error("NUL characters are not allowed in SQL text");
  return `'${value.replaceAll("'", "''")}'`;
}

export function sqlInteger(value) {
  if (value === null || value === undefined) return "NULL";
  if (!Number.isSafeInteger(value)) throw new TypeError(`Not an integer: ${value}`);
  return String(value);
}
