/** What the tests of the JSON-walk modules share: reading a fixture answer, a parse context, hostile input. */
import fc from "fast-check";
import { expect } from "vitest";
import type { ParseContext, WalkPage, WalkPosition } from "../../src/publishers/kit/json-walk";
import { WorkBudget } from "../../src/publishers/kit/work-budget";
import { ScrapeError } from "../../src/scraping/errors";
import type { FixtureRequest, PublisherFixture } from "../fixtures/sites";

/** The fixture site's answer to one request, as the Worker would receive it. */
export function fixtureAnswer(
  fixture: PublisherFixture,
  url: string,
  request: Partial<Pick<FixtureRequest, "method" | "body" | "headers" | "cookie">> = {},
): { status: number; body: string } {
  const parsed = new URL(url);
  const answer = fixture.site({
    url: parsed,
    cookie: request.cookie ?? "",
    count: 1,
    method: request.method ?? "GET",
    host: parsed.host,
    headers: request.headers ?? {},
    body: request.body ?? "",
  });
  return { status: answer.status, body: answer.body };
}

export function fixtureJson(
  fixture: PublisherFixture,
  url: string,
  request?: Parameters<typeof fixtureAnswer>[2],
): unknown {
  const { status, body } = fixtureAnswer(fixture, url, request);
  expect(status, body.slice(0, 200)).toBe(200);
  return JSON.parse(body.replace(/^\)\]\}'[^\n]*\n/, ""));
}

export function parseContext(
  key: string,
  pageUrl: string,
  position: WalkPosition,
  limit?: number,
): ParseContext {
  return { key, pageUrl, position, budget: new WorkBudget("test answer", limit) };
}

/**
 * A parser given any JSON value (and deep or wide hostile structures) either reads it or throws a
 * ScrapeError: never a TypeError or RangeError. When `wrap` puts the value where the answer's list
 * of reviews goes (`wrapsItems`), a list longer than the work budget must stop at the budget.
 */
export function expectHostileInputHandled(
  parse: (data: unknown, ctx: ParseContext) => WalkPage,
  wrap: (value: unknown) => unknown = (v) => v,
  { wrapsItems = false }: { wrapsItems?: boolean } = {},
): void {
  const ctx = () => parseContext("k", "https://example.com/p", { page: 1, token: null }, 10_000);
  const run = (value: unknown) => {
    try {
      const page = parse(wrap(value), ctx());
      expect(Array.isArray(page.reviews)).toBe(true);
    } catch (err) {
      if (!(err instanceof ScrapeError)) throw err;
    }
  };
  fc.assert(fc.property(fc.jsonValue({ maxDepth: 6 }), run), { numRuns: 300 });
  // Deep nesting where a list is expected, and a list far longer than the work budget.
  let deep: unknown = [];
  for (let i = 0; i < 10_000; i++) deep = [deep];
  run(deep);
  run({ deep });
  const wide = Array.from({ length: 20_000 }, () => ({}));
  run(wide);
  if (wrapsItems) expect(() => parse(wrap(wide), ctx())).toThrow(/needs more than 10000 steps to read/);
}
