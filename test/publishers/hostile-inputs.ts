/**
 * Hostile publisher answers for the modules' property tests (issue 23): pages that would drive a
 * careless parser past linear work. A parser given one must return or fail with `publisher_error`,
 * and the work it counted in its WorkBudget must stay within the budget's limit (work counted in
 * operations, not wall time). The fragments are invented; each module adds its own vocabulary.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { ScrapeError } from "../../src/scraping/errors";
import { WorkBudget } from "../../src/publishers/work-budget";

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
    pages[`the module's markup nested 50,000 deep with text at every level (${i})`] = repeatTo(`${fragment}x`, 50_000 * (fragment.length + 1));
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
  return fc.tuple(fc.array(piece, { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 400 })).map(([pieces, times]) => pieces.join("").repeat(times));
}

/**
 * Runs `parse` on `input` with a budget of `limit` and checks the outcome: a result, or a
 * `publisher_error` (a budget overrun is one); never another error. Returns the budget so tests can
 * assert more about `used`.
 */
export async function withinBudget(parse: (budget: WorkBudget) => unknown, limit = 200_000): Promise<WorkBudget> {
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
