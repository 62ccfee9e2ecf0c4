/**
 * The generic module's embedded-data reader on its own (kit/embedded-json, flight, references,
 * review-records): the shapes it reads, what it refuses, and hostile states that must neither
 * drive it past linear work nor throw anything but `publisher_error`. Work is counted in WorkBudget
 * steps, not wall time.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readGenericPage } from "../../src/publishers/generic/adapter";
import { answerDocument, embeddedDocuments } from "../../src/publishers/kit/embedded-json";
import { unflatten } from "../../src/publishers/kit/devalue";
import { flightRows, resolvedFlight } from "../../src/publishers/kit/flight";
import { resolveCache } from "../../src/publishers/kit/references";
import { findReviewRecords } from "../../src/publishers/kit/review-records";
import { WorkBudget } from "../../src/publishers/kit/work-budget";
import {
  TWO_MB_OF_UNCLOSED_TAGS,
  deeplyNestedJson,
  hostileJson,
  prototypeIntact,
  repeatTo,
  resolvesOrFailsAs,
} from "./hostile-inputs";

const URL_ = "https://example.test/biz/a";
const review = (i: number, extra: Record<string, unknown> = {}) => ({
  id: `r${i}`,
  rating: (i % 5) + 1,
  text: `Review ${i}: a quiet place with good coffee.`,
  createdAt: `2025-03-${String(10 + i).padStart(2, "0")}T10:00:00Z`,
  author: { name: `Reader ${i}` },
  ...extra,
});
const find = (value: unknown, budget = new WorkBudget("test")) =>
  findReviewRecords([{ source: "test", value }], URL_, budget);

describe("embedded documents of a page", () => {
  it("reads JSON scripts, window assignments (also bracketed and through JSON.parse) and skips JavaScript", async () => {
    const html = `<html><body>
      <script type="application/json" id="data">{"a":1}</script>
      <script type="application/ld+json">{"@type":"Review"}</script>
      <script>window["__STATE__"] = {"b":2}; var x = a == b; window.__P__=JSON.parse('{"c":"it\\'s"}');</script>
      <script>window.__NUXT__=(function(a){return {d:a}}(1));</script>
      <script src="/app.js">window.ignored = {"e":5}</script>
    </body></html>`;
    const docs = await embeddedDocuments(html, new WorkBudget("test"));
    expect(docs).toEqual([
      { source: "script#data", value: { a: 1 } },
      { source: 'window["__STATE__"]', value: { b: 2 } },
      { source: "window.__P__", value: { c: "it's" } },
    ]);
  });

  it("joins flight chunks and resolves references, text rows by byte length and escaped dollars", () => {
    const text = "é\nline two";
    const bytes = new TextEncoder().encode(text).length;
    const stream = `1:T${bytes.toString(16)},${text}0:{"t":"$1","d":"$$5","l":"$L9"}\n2:I["x"]\n`;
    expect(flightRows(stream, new WorkBudget("test")).get("1")).toBe(text);
    expect(resolvedFlight(stream, new WorkBudget("test"))).toEqual([{ t: text, d: "$5", l: null }]);
  });

  it("reads a JSON answer behind an XSSI guard, and refuses a non-JSON one", () => {
    expect(answerDocument("u", `)]}'\n{"a":1}`)).toEqual({ source: "u", value: { a: 1 } });
    expect(answerDocument("u", "<html>")).toBeNull();
    expect(answerDocument("u", "42")).toBeNull();
  });
});

describe("what the recogniser takes", () => {
  it("takes the list of review-shaped records, with its stated total and 'more' signal", () => {
    const found = find({
      page: {
        reviews: { totalCount: 40, pageInfo: { hasNextPage: true }, items: [0, 1, 2].map((i) => review(i)) },
      },
    });
    expect(found).toMatchObject({ total: 40, more: true });
    expect(found!.reviews[0]).toEqual({
      id: "r0",
      author_name: "Reader 0",
      rating: { value: 1, best: 5, worst: 1 },
      text: "Review 0: a quiet place with good coffee.",
      date: "2025-03-10T10:00:00Z",
    });
  });

  it("refuses records with a rating but no date, no text, an average rating, or a price", () => {
    const { text: _t, ...noText } = review(1);
    const { createdAt: _d, ...noDate } = review(1);
    for (const records of [
      [noText, noText],
      [noDate, noDate],
      [review(1, { rating: 4.37 }), review(2, { rating: 3.81 })],
      [review(1, { price: 10 }), review(2, { price: 12 })],
      [review(1, { reviewCount: 10 }), review(2, { reviewCount: 12 })],
    ])
      expect(find({ list: records })).toBeNull();
  });

  it("refuses a list where fewer than 60 % of the objects are review-shaped", () => {
    expect(find({ list: [review(1), { a: 1 }, { b: 2 }] })).toBeNull();
    expect(find({ list: [review(1), review(2), { b: 2 }] })!.reviews).toHaveLength(2);
  });

  it("prefers a list under a review-named key with authors and ids over a larger anonymous one", () => {
    const anonymous = [0, 1, 2].map((i) => ({ stars: 4, body: `Other ${i}`, date: "2025-01-01" }));
    const found = find({ feed: anonymous, reviews: [review(1), review(2)] });
    expect(found!.reviews.map((r) => r.id)).toEqual(["r1", "r2"]);
  });

  it("puts a list on one scale: a list with a 7 is out of 10", () => {
    const found = find({ reviews: [review(1, { rating: 7 }), review(2, { rating: 4 })] });
    expect(found!.reviews.map((r) => r.rating)).toEqual([
      { value: 7, best: 10, worst: 1 },
      { value: 4, best: 10, worst: 1 },
    ]);
  });

  it("reads the owner's reply from a nested reply-named object", () => {
    const found = find({
      reviews: [review(1, { businessResponse: { message: "Thanks!", createdAt: "2025-04-01" } })],
    });
    expect(found!.reviews[0]).toMatchObject({ reply_text: "Thanks!", reply_date: "2025-04-01" });
  });
});

describe("hostile embedded states", () => {
  it("resolves an Apollo cache whose entries each point twice to the next (2^60 paths) in linear work", () => {
    const cache: Record<string, unknown> = { ROOT_QUERY: { q: { __ref: "N:0" } } };
    for (let i = 0; i < 60; i++)
      cache[`N:${i}`] = i < 59 ? { a: { __ref: `N:${i + 1}` }, b: { __ref: `N:${i + 1}` } } : { leaf: true };
    const budget = new WorkBudget("test");
    resolveCache(cache, budget);
    expect(budget.used).toBeLessThan(1_000);
    const found = new WorkBudget("test");
    expect(find(cache, found)).toBeNull();
    expect(found.used).toBeLessThan(2_000);
  });

  it("unflattens a Nuxt devalue payload whose entries each point twice to the next in linear work, cycles cut", () => {
    const payload: unknown[] = [];
    for (let i = 0; i < 60; i++) payload.push(i < 59 ? { a: i + 1, b: i + 1 } : "leaf");
    const budget = new WorkBudget("test");
    unflatten(payload, budget);
    expect(budget.used).toBeLessThan(500);
    expect(
      unflatten([{ self: 0, d: 1, n: -1 }, ["Date", "2025-01-01T00:00:00.000Z"]], new WorkBudget("t")),
    ).toEqual({
      self: null,
      d: "2025-01-01T00:00:00.000Z",
      n: null,
    });
  });

  it("cuts reference cycles (Apollo and flight) to null", () => {
    const cache = {
      ROOT_QUERY: { a: { __ref: "A:1" } },
      "A:1": { next: { __ref: "A:2" } },
      "A:2": { next: { __ref: "A:1" } },
    };
    const resolved = resolveCache(cache, new WorkBudget("test")) as Record<
      string,
      { next: { next: unknown } }
    >;
    expect(resolved["A:1"].next.next).toBeNull();
    expect(resolvedFlight(`0:["$1"]\n1:["$0"]\n`, new WorkBudget("test"))).toEqual([]);
  });

  it("walks a state nested 200,000 levels deep without overflowing the stack", async () => {
    const html = `<script>window.__S__ = ${deeplyNestedJson(200_000)};</script>`;
    const budget = new WorkBudget("test");
    const docs = await embeddedDocuments(html, budget);
    expect(find(docs[0].value, budget)).toBeNull();
  });

  it("scans 2 MB of unclosed assignments and flight pushes in linear work, and 2 MB of unclosed tags", async () => {
    for (const html of [
      `<script>${repeatTo("window.a = {")}</script>`,
      `<script>${repeatTo('window.a = JSON.parse("')}</script>`,
      `<script>${repeatTo("self.__next_f.push([1,")}</script>`,
      `<script>${repeatTo("a=[")}</script>`,
      TWO_MB_OF_UNCLOSED_TAGS,
    ]) {
      const budget = new WorkBudget("test");
      const started = Date.now();
      await embeddedDocuments(html, budget);
      expect(budget.used, html.slice(0, 30)).toBeLessThan(100_000);
      expect(Date.now() - started, html.slice(0, 30)).toBeLessThan(5_000);
    }
  });

  it("keeps a page's markup reviews when its embedded state needs more than the work budget, and fails only without them", async () => {
    const many = Array.from({ length: 3_000 }, (_, i) => ({ a: i, b: [i, { c: i }] }));
    const state = `<script>window.__S__ = ${JSON.stringify(Array.from({ length: 200 }, () => many))};</script>`;
    const markup = `<script type="application/ld+json">${JSON.stringify({
      "@type": "Review",
      reviewRating: { ratingValue: 4 },
      reviewBody: "Fine.",
      author: "Ann",
      datePublished: "2025-01-01",
    })}</script>`;
    const withMarkup = await readGenericPage({ url: new URL(URL_), text: markup + state });
    expect(withMarkup.reviews).toHaveLength(1);
    const without = await readGenericPage({ url: new URL(URL_), text: state });
    expect(without.reviews).toEqual([]);
    expect(without.failure?.reason).toBe("publisher_error");
  });

  it("never throws anything but publisher_error on random JSON states, and leaves Object.prototype alone", async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileJson(["__ref", "__refs", "ROOT_QUERY", "rating", "text", "date", "reviews", "node"]),
        async (value) => {
          const html = `<script>window.__S__ = ${JSON.stringify(value)};</script><script type="application/json">${JSON.stringify({ ROOT_QUERY: value, x: { __typename: "X", v: value } })}</script>`;
          expect(
            await resolvesOrFailsAs(["publisher_error"], async () => {
              const budget = new WorkBudget("test");
              findReviewRecords(await embeddedDocuments(html, budget), URL_, budget);
            }),
          ).toMatch(/returned|publisher_error/);
          expect(prototypeIntact()).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
