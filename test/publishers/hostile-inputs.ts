/**
 * Hostile publisher answers shared by the modules' hostile.test.ts (issue 23): what a publisher (or
 * whoever sits in its place) can send to drive a parser past linear work or into a RangeError.
 * Invented on purpose; no real publisher serves these. A parser given one must return or fail with
 * `publisher_error`, and the work it counted in its WorkBudget must stay within the limit.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { ScrapeError } from "../../src/scraping/errors";
import { WorkBudget } from "../../src/publishers/kit/work-budget";

/** About `size` characters of tag openings that never close: `<script `, `<input `, `<meta `, `<form `. */
export function unclosedTags(size: number): string {
  const unit =
    '<script data-sjs id="__NEXT_DATA__" <input name="hotel_id" value="1" <meta content="fb://profile/1" <form id="login_form" ';
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
  const key = fc.oneof(
    fc.constantFrom("__proto__", "constructor", "prototype", ...names),
    fc.string({ maxLength: 6 }),
  );
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
 * The answer is "returned" or the failure's reason.
 */
export function returnsOrFailsAs(allowed: readonly string[], fn: () => unknown): string {
  try {
    fn();
    return "returned";
  } catch (err) {
    if (err instanceof ScrapeError && allowed.includes(err.reason)) return err.reason;
    throw err;
  }
}

/** The same for an async parser. */
export async function resolvesOrFailsAs(
  allowed: readonly string[],
  fn: () => Promise<unknown>,
): Promise<string> {
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
  return (
    !("polluted" in probe) &&
    !("leaf" in probe) &&
    !("__ref" in probe) &&
    Object.getPrototypeOf(probe) === Object.prototype
  );
}

// Helpers of the second set of modules' hostile tests (g2, tripadvisor, trustpilot, airbnb, capterra).

/** Two megabytes, the size issue 23 names. */
export const TWO_MB = 2 * 1024 * 1024;

/** `fragment` repeated up to about `size` characters. */
export function repeatTo(fragment: string, size = TWO_MB): string {
  return fragment.repeat(Math.max(1, Math.floor(size / fragment.length)));
}

/** The fixed hostile pages every HTML parser is fed, built around the module's own markup. */
export function hostilePages(vocabulary: readonly string[]): Record<string, string> {
  const pages: Record<string, string> = {
    "2 MB of unclosed <script openings": repeatTo("<script "),
    "2 MB of unclosed <script id=__NEXT_DATA__ openings": repeatTo('<script id="__NEXT_DATA__" '),
    "2 MB of unclosed <input openings": repeatTo("<input "),
    "2 MB of unclosed <article and <div openings": repeatTo("<article><div>"),
    "deep nesting: 200,000 open <div>": repeatTo("<div>", 1_000_000),
    "2 MB of unclosed comments and CDATA": repeatTo("<!-- <![CDATA[ "),
  };
  vocabulary.forEach((fragment, i) => {
    pages[`2 MB of the module's markup, unclosed (${i})`] = repeatTo(fragment);
    pages[`the module's markup nested 50,000 deep with text at every level (${i})`] = repeatTo(
      `${fragment}x`,
      50_000 * (fragment.length + 1),
    );
  });
  return pages;
}

/** Random pages of the module's markup, odd fragments and `__proto__` JSON, up to ~64 KB. */
export function hostilePage(vocabulary: readonly string[]): fc.Arbitrary<string> {
  const odd = fc.constantFrom(
    "<",
    ">",
    '"',
    "'",
    "</",
    "<!--",
    "-->",
    "<script>",
    "</script>",
    "&amp;",
    "&#x0;",
    "\u0000",
    '{"__proto__":{"polluted":1}}',
    "x".repeat(100),
  );
  const piece = fc.oneof(fc.constantFrom(...vocabulary), odd, fc.string({ maxLength: 20 }));
  return fc
    .tuple(fc.array(piece, { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 400 }))
    .map(([pieces, times]) => pieces.join("").repeat(times));
}

/**
 * Runs `parse` on `input` with a budget of `limit` and checks the outcome: a result, or a
 * `publisher_error` (a budget overrun is one); never another error. Returns the budget so tests can
 * assert more about `used`.
 */
export async function withinBudget(
  parse: (budget: WorkBudget) => unknown,
  limit = 200_000,
): Promise<WorkBudget> {
  const budget = new WorkBudget("hostile page", limit);
  try {
    await parse(budget);
  } catch (err) {
    if (!(err instanceof ScrapeError)) throw err;
    expect(err.reason).toBe("publisher_error");
  }
  // The budget stops the parser at its first step past the limit.
  expect(budget.used).toBeLessThanOrEqual(limit + 1);
  // Nothing leaked onto Object.prototype through a `__proto__` key.
  expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  return budget;
}

/** JSON that nests `depth` arrays or objects deep, as a string and parsed. */
export function deepJson(depth: number, open = '{"a":', close = "}"): string {
  return `${open.repeat(depth)}1${close.repeat(depth)}`;
}
