/**
 * Google Maps answers with positional arrays (protobuf rendered as JSON, "JSPB"): a field is an
 * index, an unset field is null or missing. These read one field by its index path.
 */

/** The value at an index path, or undefined where any step is not an array or out of range. */
export function at(value: unknown, ...path: number[]): unknown {
  let current = value;
  for (const index of path) {
    if (!Array.isArray(current) || index >= current.length) return undefined;
    current = current[index];
  }
  return current;
}

/** A non-empty string at an index path, or undefined. */
export function stringAt(value: unknown, ...path: number[]): string | undefined {
  const found = at(value, ...path);
  return typeof found === "string" && found.trim() !== "" ? found : undefined;
}

/** A finite number at an index path, or undefined. */
export function numberAt(value: unknown, ...path: number[]): number | undefined {
  const found = at(value, ...path);
  return typeof found === "number" && Number.isFinite(found) ? found : undefined;
}

/** How a path is written in log messages: `[1][4][5][0]`. */
export function pathText(path: readonly number[]): string {
  return path.map((i) => `[${i}]`).join("");
}
