/**
 * Hostile publisher answers shared by the modules' hostile.test.ts (issue 23): what a publisher (or
 * whoever sits in its place) can send to drive a parser past linear work or into a RangeError.
 * Invented on purpose; no real publisher serves these.
 */
import fc from "fast-check";
import { ScrapeError } from "../../src/scraping/errors";

/** About `size` characters of tag openings that never close: `<script `, `<input `, `<meta `, `<form `. */
export function unclosedTags(size: number): string {
  const unit = '<script data-sjs id="__NEXT_DATA__" <input name="hotel_id" value="1" <meta content="fb://profile/1" <form id="login_form" ';
  return unit.repeat(Math.ceil(size / unit.length));
}

/** 2 MB of unclosed tags, built once per file. */
export const TWO_MB_OF_UNCLOSED_TAGS = unclosedTags(2_000_000);

/** An object nested `depth` levels deep (`{"a":{"a":…}}`), built without recursion. */
export function deeplyNested(depth: number, leaf: unknown = 1): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = { a: value, list: [value === leaf ? 0 : 1] };
  return value;
}

/** The same as JSON text, so JSON.parse makes a tree (no sharing). */
export function deeplyNestedJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

/**
 * An in-memory fan: each level holds the next level twice (`{a: next, b: next}`). `depth` objects,
 * 2^depth paths: a walk that does not stop at shared objects (or count its steps) never ends.
 */
export function sharedFan(depth: number, leaf: unknown = { leaf: true }): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = { a: value, b: value };
  return value;
}

/** JSON values whose object keys include `__proto__`, `constructor` and the field names parsers look for. */
export function hostileJson(names: readonly string[]) {
  const key = fc.oneof(fc.constantFrom("__proto__", "constructor", "prototype", ...names), fc.string({ maxLength: 6 }));
  return fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom(null, true, false, 0, -1, 1.5, "", "POSITIVE", "NEGATIVE", "x"),
      fc.string({ maxLength: 12 }),
      fc.integer(),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(key, tie("value"), { maxKeys: 5 }),
    ),
  })).value;
}

/** Parses text the way the modules get answers: `__proto__` stays an own key (JSON.parse semantics). */
export const asParsed = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/**
 * Runs a parser on a hostile input: it must return, or fail with a ScrapeError whose reason is one
 * of `allowed` (a publisher answer is never `internal`). Anything else (RangeError, TypeError) throws.
 */
export function returnsOrFailsAs(allowed: readonly string[], fn: () => unknown): "returned" | string {
  try {
    fn();
    return "returned";
  } catch (err) {
    if (err instanceof ScrapeError && allowed.includes(err.reason)) return err.reason;
    throw err;
  }
}

/** The same for an async parser. */
export async function resolvesOrFailsAs(allowed: readonly string[], fn: () => Promise<unknown>): Promise<"returned" | string> {
  try {
    await fn();
    return "returned";
  } catch (err) {
    if (err instanceof ScrapeError && allowed.includes(err.reason)) return err.reason;
    throw err;
  }
}

/** Object.prototype untouched (a `__proto__` key must stay a plain key, never a prototype write). */
export function prototypeIntact(): boolean {
  const probe: Record<string, unknown> = {};
  return !("polluted" in probe) && !("leaf" in probe) && !("__ref" in probe) && Object.getPrototypeOf(probe) === Object.prototype;
}
