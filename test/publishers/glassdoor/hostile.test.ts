/**
 * Issue 23: hostile answers cannot drive the Glassdoor parsers past linear work. Work is counted in
 * WorkBudget steps (nodes visited), not wall time; the end-to-end cases (a depth-30 fan page, 2 MB
 * of unclosed tags ending a task within seconds) are in glassdoor.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  apolloCache,
  employerProfileId,
  pageToken,
  readResult,
  rawReview,
  resolveRefs,
  reviewsResult,
  type Json,
  type JsonObject,
} from "../../../src/publishers/glassdoor/apollo";
import { parseEmployerReviewsAnswer } from "../../../src/publishers/glassdoor/graph";
import { MAX_WALK_DEPTH, WorkBudget } from "../../../src/publishers/kit/work-budget";
import { ScrapeError } from "../../../src/scraping/errors";
import {
  TWO_MB_OF_UNCLOSED_TAGS,
  asParsed,
  deeplyNestedJson,
  hostileJson,
  prototypeIntact,
  returnsOrFailsAs,
} from "../hostile-inputs";
import { fanCache } from "./site";

/** How many JSON values a (tree-shaped) value holds: the size a linear walk may spend. */
function size(value: unknown): number {
  let n = 0;
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    n++;
    if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === "object") stack.push(...Object.values(v));
  }
  return n;
}

describe("glassdoor parsers on hostile answers", () => {
  it("resolves a shared-reference fan of any depth in steps linear in the cache (each node once)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), (depth) => {
        const cache = fanCache(depth) as JsonObject;
        const budget = new WorkBudget("test");
        // Past MAX_WALK_DEPTH levels (two per fan level) the walk fails with publisher_error instead.
        const outcome = returnsOrFailsAs(["publisher_error"], () =>
          resolveRefs((cache.ROOT_QUERY as JsonObject).employerReviewsRG, cache, budget),
        );
        expect(["returned", "publisher_error"]).toContain(outcome);
        // 2^depth paths, but every node is resolved once: a handful of steps per node.
        expect(budget.used).toBeLessThanOrEqual(size(cache) + 10);
      }),
    );
    // Depth 30 (2^30 paths): the case, a few dozen steps.
    const budget = new WorkBudget("test");
    const cache = fanCache(30) as JsonObject;
    resolveRefs((cache.ROOT_QUERY as JsonObject).employerReviewsRG, cache, budget);
    expect(budget.used).toBeLessThan(200);
  });

  it("a reference chain deeper than MAX_WALK_DEPTH is publisher_error, never a RangeError", () => {
    const cache: JsonObject = {};
    for (let i = 0; i < 5_000; i++) cache[`N:${i}`] = { next: { __ref: `N:${i + 1}` } };
    const error = (() => {
      try {
        resolveRefs({ __ref: "N:0" }, cache);
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(ScrapeError);
    expect(error).toMatchObject({
      reason: "publisher_error",
      message: `Glassdoor page: the Apollo cache nests deeper than ${MAX_WALK_DEPTH} levels`,
    });
    // Plain nesting (no references) the same way.
    expect(() => resolveRefs(JSON.parse(deeplyNestedJson(100_000)) as Json, {})).toThrow(
      /nests deeper than 64 levels/,
    );
  });

  it("stops at the budget: a wide cache past the limit is publisher_error naming what was read", () => {
    const cache: JsonObject = {
      ROOT_QUERY: {
        employerReviewsRG: {
          reviews: Array.from({ length: 500 }, (_, i) => ({ __ref: `R:${i}` })),
          currentPage: 1,
          numberOfPages: 1,
        },
      },
    };
    for (let i = 0; i < 500; i++)
      cache[`R:${i}`] = { reviewId: i, tags: Array.from({ length: 20 }, () => "x") };
    const budget = new WorkBudget("Glassdoor page's Apollo cache", 1_000);
    expect(() => reviewsResult(cache, budget)).toThrow(
      "Glassdoor page's Apollo cache: the answer needs more than 1000 steps to read",
    );
    expect(budget.used).toBe(1_001);
  });

  it("random caches with cycles, shared references and __proto__ keys: returns or publisher_error, linear work, prototype intact", () => {
    const entry = hostileJson(["__ref", "reviews", "reviewId", "ROOT_QUERY", "employerReviewsRG"]);
    const ref = fc.integer({ min: 0, max: 7 }).map((i) => ({ __ref: `N:${i}` }));
    const node = fc.oneof(
      entry,
      ref,
      fc.array(fc.oneof(entry, ref), { maxLength: 4 }),
      fc.dictionary(fc.constantFrom("__proto__", "a", "b", "reviews"), fc.oneof(entry, ref), { maxKeys: 4 }),
    );
    fc.assert(
      fc.property(fc.array(node, { minLength: 1, maxLength: 8 }), node, (nodes, root) => {
        const cache = asParsed(Object.fromEntries(nodes.map((n, i) => [`N:${i}`, n]))) as JsonObject;
        cache.ROOT_QUERY = asParsed({ employerReviewsRG: root }) as Json;
        const budget = new WorkBudget("test");
        const outcome = returnsOrFailsAs(["publisher_error"], () => {
          const result = reviewsResult(cache, budget);
          result.reviews.forEach((r, i) => rawReview(r, i));
        });
        expect(["returned", "publisher_error"]).toContain(outcome);
        expect(budget.used).toBeLessThanOrEqual(size(cache) + 2);
        expect(prototypeIntact()).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("random answers of the JSON call: returns or publisher_error/login_required, never a TypeError", () => {
    fc.assert(
      fc.property(
        hostileJson([
          "data",
          "employerReviews",
          "reviews",
          "errors",
          "currentPage",
          "numberOfPages",
          "filteredReviewsCount",
        ]),
        (body) => {
          try {
            const result = parseEmployerReviewsAnswer(asParsed(body), 2);
            result.reviews.forEach((r, i) => rawReview(r, i));
            readResult({ reviews: result.reviews }, "x", "y", { page: 2, pageSize: 10 });
          } catch (err) {
            expect(err).toBeInstanceOf(ScrapeError);
            expect(["publisher_error", "login_required"]).toContain((err as ScrapeError).reason);
          }
          expect(prototypeIntact()).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("2 MB of unclosed tags: no cache, no token, no profile id, read in one pass", async () => {
    expect(await apolloCache(TWO_MB_OF_UNCLOSED_TAGS)).toBeNull();
    expect(pageToken(TWO_MB_OF_UNCLOSED_TAGS)).toBeNull();
    expect(employerProfileId(TWO_MB_OF_UNCLOSED_TAGS, 1)).toBeNull();
    // Unclosed markers the bounded readers look for, repeated: each occurrence costs a short slice.
    const markers =
      '"gdToken": "'.repeat(100_000) +
      '"employer":{"id":1,'.repeat(100_000) +
      '"apolloState":{'.repeat(50_000);
    expect(pageToken(markers)).toBeNull();
    expect(employerProfileId(markers, 1)).toBeNull();
    expect(await apolloCache(markers)).toBeNull();
  });
});
