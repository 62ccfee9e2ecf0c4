/** The shared JSON walk: cursor, page order, the guards against walks that do not move or do not end. */
import { describe, expect, it } from "vitest";
import {
  jsonWalkAdapter,
  nextByNumber,
  countOf,
  type JsonWalkSpec,
  type JsonWalkCursor,
} from "../../src/publishers/kit/json-walk";
import type { ScrapeContext } from "../../src/publishers/types";
import { ScrapeError } from "../../src/scraping/errors";
import type { PublisherClient } from "../../src/scraping/client";

/** A client whose JSON answers come from a function of the URL; every requested URL is recorded. */
function fakeContext(answer: (url: string) => unknown): { ctx: ScrapeContext; urls: string[] } {
  const urls: string[] = [];
  const client = {
    json: async (url: string) => (urls.push(url), { url: new URL(url), data: answer(url) }),
  } as unknown as PublisherClient;
  return { ctx: { publisherKey: "example.com", client }, urls };
}

function spec(overrides: Partial<JsonWalkSpec> = {}): JsonWalkSpec {
  return {
    what: "Example reviews",
    keyOf: (url) => /^\/p\/(\w+)$/.exec(url.pathname)?.[1] ?? null,
    firstPage: 1,
    request: (key, position) => ({
      url: `https://api.example.com/${key}?page=${position.page}${position.token ? `&t=${position.token}` : ""}`,
    }),
    parse: (data) => data as ReturnType<JsonWalkSpec["parse"]>,
    maxPages: 5,
    ...overrides,
  };
}

async function walk(
  adapter: ReturnType<typeof jsonWalkAdapter>,
  ctx: ScrapeContext,
  profileUrl: string,
): Promise<JsonWalkCursor[]> {
  const { cursor } = await adapter.start(profileUrl, ctx);
  const cursors = [cursor];
  for (let next: JsonWalkCursor | null = cursor; next;) {
    next = (await adapter.page(adapter.cursor.parse(next), ctx)).next;
    if (next) cursors.push(next);
  }
  return cursors;
}

describe("jsonWalkAdapter", () => {
  it("starts from the profile's key on the first page and follows the parser's next positions, counting pages", async () => {
    const { ctx, urls } = fakeContext((url) => ({
      reviews: [{ id: url }],
      next: url.endsWith("page=1")
        ? { page: 2, token: null }
        : url.includes("page=2")
          ? { page: 3, token: "abc" }
          : null,
    }));
    const cursors = await walk(jsonWalkAdapter(spec()), ctx, "https://example.com/p/acme");
    expect(urls).toEqual([
      "https://api.example.com/acme?page=1",
      "https://api.example.com/acme?page=2",
      "https://api.example.com/acme?page=3&t=abc",
    ]);
    expect(cursors.map((c) => [c.page, c.token, c.pagesRead])).toEqual([
      [1, null, 0],
      [2, null, 1],
      [3, "abc", 2],
    ]);
  });

  it("a profile URL that names no profile is profile_not_found", async () => {
    const { ctx } = fakeContext(() => null);
    await expect(jsonWalkAdapter(spec()).start("https://example.com/about", ctx)).rejects.toMatchObject({
      reason: "profile_not_found",
    });
  });

  it("a next position equal to the page just read is publisher_error, not an endless loop", async () => {
    const { ctx } = fakeContext(() => ({ reviews: [], next: { page: 1, token: null } }));
    await expect(walk(jsonWalkAdapter(spec()), ctx, "https://example.com/p/acme")).rejects.toMatchObject({
      reason: "publisher_error",
      message: "Example reviews: the next page is the page just read (page 1)",
    });
  });

  it("a next position the cursor could not store (an endless token) is publisher_error", async () => {
    const { ctx } = fakeContext(() => ({ reviews: [], next: { page: 2, token: "t".repeat(5_000) } }));
    await expect(walk(jsonWalkAdapter(spec()), ctx, "https://example.com/p/acme")).rejects.toMatchObject({
      reason: "publisher_error",
      message: "Example reviews: the next page's position is out of range",
    });
  });

  it("a walk past maxPages is publisher_error naming the limit", async () => {
    const { ctx, urls } = fakeContext((url) => ({
      reviews: [],
      next: { page: Number(/page=(\d+)/.exec(url)![1]) + 1, token: null },
    }));
    await expect(walk(jsonWalkAdapter(spec()), ctx, "https://example.com/p/acme")).rejects.toMatchObject({
      reason: "publisher_error",
      message: "Example reviews: still more pages after 5; the walk does not end",
    });
    expect(urls).toHaveLength(5);
  });

  it("refuses a stored cursor of another shape", () => {
    const adapter = jsonWalkAdapter(spec());
    expect(
      adapter.cursor.safeParse({
        key: "acme",
        pageUrl: "https://example.com/p/acme",
        page: -1,
        token: null,
        pagesRead: 0,
      }).success,
    ).toBe(false);
  });
});

describe("walk helpers", () => {
  it("nextByNumber: the next page until the last; an empty page before the last is publisher_error", () => {
    expect(nextByNumber("X", 1, 3, 10)).toEqual({ page: 2, token: null });
    expect(nextByNumber("X", 3, 3, 10)).toBeNull();
    expect(nextByNumber("X", 0, 0, 0)).toBeNull();
    expect(() => nextByNumber("X", 1, 3, 0)).toThrow(ScrapeError);
  });

  it("countOf: whole counts from numbers or digit strings, nothing else", () => {
    expect([
      countOf(12),
      countOf("12"),
      countOf(" 7 "),
      countOf(-1),
      countOf(1.5),
      countOf("1e3"),
      countOf(null),
      countOf(2 ** 60),
    ]).toEqual([12, 12, 7, null, null, null, null, null]);
  });
});
