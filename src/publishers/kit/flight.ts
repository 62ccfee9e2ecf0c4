import { MAX_WALK_DEPTH, type WorkBudget } from "./work-budget";

/**
 * React Server Components payloads as Next.js's App Router embeds them: inline scripts
 * `self.__next_f.push([1,"<chunk>"])` whose string chunks, joined in order, are the "flight" stream.
 * The stream is rows `<hex id>:<row>`, one a line: JSON rows (`{…}`, `[…]`, `"…"`), tagged rows
 * (`I[…]` modules, `HL[…]` hints, `E{…}` errors) and text rows `T<hex byte length>,<text>`, whose text
 * may hold new lines. Values refer to other rows as `"$<hex id>"` (also `"$@<id>"`, `"$L<id>"`); long
 * strings (a review over about a thousand characters) are such text rows. `"$$…"` is an escaped `$`.
 */

/** Rows of a flight stream by id: parsed JSON rows and text rows; others are skipped. */
export function flightRows(stream: string, budget: WorkBudget): Map<string, unknown> {
  const rows = new Map<string, unknown>();
  const bytes = new TextEncoder().encode(stream);
  const decoder = new TextDecoder();
  let at = 0;
  while (at < bytes.length) {
    budget.spend();
    const colon = bytes.indexOf(0x3a, at);
    if (colon < 0) break;
    const id = decoder.decode(bytes.subarray(at, colon));
    if (!/^[0-9a-f]{1,8}$/i.test(id)) {
      // Not a row start (a stream cut in the middle): go on at the next line.
      const newline = bytes.indexOf(0x0a, at);
      if (newline < 0) break;
      at = newline + 1;
      continue;
    }
    if (bytes[colon + 1] === 0x54 /* T */) {
      const comma = bytes.indexOf(0x2c, colon + 2);
      const length = comma < 0 ? NaN : parseInt(decoder.decode(bytes.subarray(colon + 2, comma)), 16);
      if (!Number.isSafeInteger(length) || length < 0) break;
      rows.set(id.toLowerCase(), decoder.decode(bytes.subarray(comma + 1, comma + 1 + length)));
      at = comma + 1 + length;
      continue;
    }
    const newline = bytes.indexOf(0x0a, colon + 1);
    const end = newline < 0 ? bytes.length : newline;
    const first = bytes[colon + 1];
    if (first === 0x7b /* { */ || first === 0x5b /* [ */ || first === 0x22 /* " */) {
      try {
        rows.set(id.toLowerCase(), JSON.parse(decoder.decode(bytes.subarray(colon + 1, end))));
      } catch {
        // A row that is not JSON (a truncated stream) is left out.
      }
    }
    at = end + 1;
  }
  return rows;
}

const REFERENCE = /^\$[@L]?([0-9a-f]{1,8})$/i;

/**
 * The stream's rows with `"$<id>"` references replaced by the rows they name, each row resolved
 * once and shared (cycles become null, nesting past MAX_WALK_DEPTH is cut), every step counted.
 * Returns the rows that no other row refers to: the roots a walk starts from.
 */
export function resolvedFlight(stream: string, budget: WorkBudget): unknown[] {
  const rows = flightRows(stream, budget);
  const done = new Map<string, unknown>();
  const resolving = new Set<string>();
  const referenced = new Set<string>();
  const walk = (node: unknown, depth: number): unknown => {
    budget.spend();
    if (depth > MAX_WALK_DEPTH) return null;
    if (typeof node === "string") {
      const match = REFERENCE.exec(node);
      if (match) {
        const id = match[1].toLowerCase();
        referenced.add(id);
        return row(id, depth);
      }
      return node.startsWith("$$") ? node.slice(1) : node;
    }
    if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1));
    if (typeof node !== "object" || node === null) return node;
    const copy = Object.create(null) as Record<string, unknown>;
    for (const [key, child] of Object.entries(node)) copy[key] = walk(child, depth + 1);
    return copy;
  };
  const row = (id: string, depth: number): unknown => {
    if (done.has(id)) return done.get(id);
    if (resolving.has(id) || !rows.has(id)) return null;
    resolving.add(id);
    const value = walk(rows.get(id), depth + 1);
    resolving.delete(id);
    done.set(id, value);
    return value;
  };
  const all = [...rows.keys()].map((id) => [id, row(id, 0)] as const);
  return all.filter(([id]) => !referenced.has(id)).map(([, value]) => value);
}
