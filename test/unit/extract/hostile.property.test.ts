/**
 * Issue 23: no publisher answer can drive the generic module's parser past linear work. Hostile
 * pages (2 MB of unclosed tags, deep nesting, `__proto__` keys) are read with a WorkBudget; the
 * parser returns or fails with `publisher_error`, and the work it did is counted in operations
 * (elements, text chunks, nodes), never in wall time.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extractStructuredData } from "../../../src/scraping/extract";
import { ScrapeError } from "../../../src/scraping/errors";
import { DEFAULT_WORK_LIMIT, WorkBudget } from "../../../src/publishers/kit/work-budget";
import { MAX_OPEN_TEXTS } from "../../../src/scraping/extract/item-tree";
import { ElementStream } from "../../../src/scraping/extract/element-stream";
import { collectMicrodata } from "../../../src/scraping/extract/microdata";

const PAGE = "https://example.com/biz/blue-door";
const MB = 1024 * 1024;
const GOOD = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Review","author":{"@type":"Person","name":"Ann"},"reviewBody":"Fine coffee","reviewRating":{"@type":"Rating","ratingValue":4}}</script>`;

/** `unit` repeated to about `bytes` characters. */
const fill = (unit: string, bytes: number) => unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));

const page = (body: string) =>
  `<!doctype html><html lang="en"><head>${GOOD}</head><body>${body}</body></html>`;

/** Hostile bodies of about `bytes` characters each. */
const hostile = {
  unclosedScript: (bytes: number) => fill("<script ", bytes),
  unclosedJsonLd: (bytes: number) => fill('<script type="application/ld+json">{"a":', bytes),
  unclosedTextProperty: (bytes: number) =>
    `<div itemscope itemtype="https://schema.org/Review">${fill('<span itemprop="reviewBody">x', bytes)}`,
  unclosedItems: (bytes: number) =>
    fill('<div itemscope itemtype="https://schema.org/Review" itemprop="review">', bytes),
  unclosedLang: (bytes: number) =>
    `<div itemscope itemtype="https://schema.org/Review"><p itemprop="text">${fill('<p lang="de">w', bytes)}`,
  unclosedAnchors: (bytes: number) => fill('<a rel="next" href="', bytes),
  deepJsonLd: (bytes: number) => `<script type="application/ld+json">${fill('{"review":[', bytes)}</script>`,
  deepMicrodata: (bytes: number) =>
    fill('<i itemscope itemtype="https://schema.org/Thing" itemprop="x">', bytes),
  protoKeys: (bytes: number) =>
    fill(
      `<script type="application/ld+json">{"@type":"Review","__proto__":{"polluted":1,"@type":"Review"},"constructor":{"prototype":{"polluted":1}},"reviewBody":"p","author":"q"}</script>` +
        `<div itemscope itemtype="https://schema.org/Review"><span itemprop="__proto__">p</span><div itemprop="__proto__" itemscope><b itemprop="polluted">1</b></div><span itemprop="reviewBody">r</span></div>`,
      bytes,
    ),
  manyValues: (bytes: number) =>
    `<div itemscope itemtype="https://schema.org/LocalBusiness">${fill('<meta itemprop="review" content="x">', bytes)}</div>`,
};
type Kind = keyof typeof hostile;

/** Reads a page with a budget: the result or the error, and the work done. */
async function read(html: string) {
  const budget = new WorkBudget("structured data");
  try {
    return { page: await extractStructuredData(html, PAGE, budget), error: null, used: budget.used };
  } catch (error) {
    return { page: null, error, used: budget.used };
  }
}

describe("generic module: hostile pages cost bounded work", () => {
  it("returns or fails with publisher_error within the work budget, whatever the mix of hostile markup (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...(Object.keys(hostile) as Kind[])), { minLength: 1, maxLength: 3 }),
        async (kinds) => {
          const html = page(kinds.map((k) => hostile[k]((2 * MB) / kinds.length)).join(""));
          const { page: read_, error, used } = await read(html);
          // A single spend is at most one per open text property, so the count never runs past the limit by more.
          expect(used).toBeLessThanOrEqual(DEFAULT_WORK_LIMIT + MAX_OPEN_TEXTS);
          if (error) {
            expect(error).toBeInstanceOf(ScrapeError);
            expect(error).toMatchObject({ reason: "publisher_error", transient: false });
          } else {
            expect(read_!.reviews).toContainEqual(
              expect.objectContaining({ author_name: "Ann", text: "Fine coffee" }),
            );
          }
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);

  // Markup the HTML parser itself refuses: tens of thousands of elements left open pass its memory
  // limit. That fails the page with publisher_error (not a TypeError that would end as `internal`).
  const PARSER_REFUSES: Kind[] = ["unclosedTextProperty", "unclosedItems", "unclosedLang", "deepMicrodata"];

  it.each((Object.keys(hostile) as Kind[]).filter((k) => !PARSER_REFUSES.includes(k)))(
    "2 MB of %s: reads the page's good review with work linear in the page",
    async (kind) => {
      const small = await read(page(hostile[kind](MB)));
      const large = await read(page(hostile[kind](2 * MB)));
      expect(large.error).toBeNull();
      expect(large.page!.reviews).toContainEqual(
        expect.objectContaining({ author_name: "Ann", text: "Fine coffee" }),
      );
      // Twice the page, about twice the work (a quadratic reader would do four times as much).
      expect(large.used).toBeLessThanOrEqual(small.used * 2.2 + 100);
      expect(large.used).toBeLessThanOrEqual(DEFAULT_WORK_LIMIT);
    },
    60_000,
  );

  it.each(PARSER_REFUSES)(
    "2 MB of %s: fails with publisher_error, not a TypeError",
    async (kind) => {
      const { error, used } = await read(page(hostile[kind](2 * MB)));
      expect(error).toBeInstanceOf(ScrapeError);
      expect(error).toMatchObject({ reason: "publisher_error", transient: false });
      expect(used).toBeLessThanOrEqual(DEFAULT_WORK_LIMIT + MAX_OPEN_TEXTS);
    },
    60_000,
  );

  it("many text properties left open inside an item: below the parser's limit, linear work and the good review kept", async () => {
    const body = (n: number) =>
      `<div itemscope itemtype="https://schema.org/Review">${'<span itemprop="reviewBody">x'.repeat(n)}`;
    const small = await read(page(body(2_000)));
    const large = await read(page(body(4_000)));
    expect(large.error).toBeNull();
    expect(large.page!.reviews).toContainEqual(
      expect.objectContaining({ author_name: "Ann", text: "Fine coffee" }),
    );
    // Each text chunk goes to at most MAX_OPEN_TEXTS open properties: double the page, double the work.
    expect(large.used).toBeLessThanOrEqual(small.used * 2.2 + 100);
  });

  it("reads __proto__ and constructor as ordinary properties and never touches Object.prototype", async () => {
    const { page: result } = await read(page(hostile.protoKeys(2_000)));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(result!.reviews).toContainEqual(expect.objectContaining({ text: "r" }));
    expect(result!.reviews).toContainEqual(expect.objectContaining({ author_name: "q", text: "p" }));
  });

  it("keeps a microdata property named __proto__ as an ordinary key of its item", async () => {
    const rewriter = new HTMLRewriter();
    const stream = new ElementStream(rewriter, new WorkBudget("structured data"));
    const items = collectMicrodata(stream);
    const html = `<div itemscope itemtype="https://schema.org/Review"><span itemprop="__proto__">p</span><span itemprop="reviewBody">r</span></div>`;
    await rewriter.transform(new Response(html)).arrayBuffer();
    const [item] = items();
    expect(Object.getOwnPropertyDescriptor(item, "__proto__")?.value).toEqual(["p"]);
    expect(Object.getPrototypeOf(item)).toBeNull();
    expect(item.reviewBody).toEqual(["r"]);
  });

  it("fails a page that needs more work than the budget allows with publisher_error, counted not timed", async () => {
    const budget = new WorkBudget("structured data", 10_000);
    const error = await extractStructuredData(
      page(hostile.unclosedTextProperty(200_000)),
      PAGE,
      budget,
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({
      reason: "publisher_error",
      message: "structured data: the answer needs more than 10000 steps to read",
    });
    expect(budget.used).toBeLessThanOrEqual(10_000 + MAX_OPEN_TEXTS);
  });
});
