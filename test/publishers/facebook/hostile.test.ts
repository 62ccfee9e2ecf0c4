/**
 * Issue 23: hostile answers cannot drive the Facebook parsers past linear work or into a RangeError.
 * Work is counted in WorkBudget steps, not wall time.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inspectFacebookPage } from "../../../src/publishers/facebook/adapter";
import {
  bboxResults,
  parseGraphqlAnswer,
  parseReviewsTab,
  recommendationType,
  reviewFromNode,
} from "../../../src/publishers/facebook/parse";
import { MAX_WALK_DEPTH, WorkBudget } from "../../../src/publishers/kit/work-budget";
import {
  TWO_MB_OF_UNCLOSED_TAGS,
  asParsed,
  deeplyNested,
  deeplyNestedJson,
  hostileJson,
  prototypeIntact,
  returnsOrFailsAs,
  sharedFan,
} from "../hostile-inputs";

const tab = (block: string) =>
  `<html><head><meta property="al:android:url" content="fb://profile/42"></head><body><script type="application/json" data-sjs>${block}</script></body></html>`;

describe("facebook parsers on hostile answers", () => {
  it("bboxResults: nesting deeper than MAX_WALK_DEPTH is not walked (no RangeError); work stays within the budget", () => {
    const budget = new WorkBudget("test");
    const hidden = deeplyNested(MAX_WALK_DEPTH + 5, { __bbox: { result: { data: { deep: true } } } });
    expect(bboxResults(JSON.parse(deeplyNestedJson(200_000)), budget)).toEqual([]);
    expect(budget.used).toBeLessThanOrEqual(MAX_WALK_DEPTH + 2);
    expect(bboxResults(asParsed(hidden))).toEqual([]);
    // Within the depth cap it walks and finds what is there.
    expect(bboxResults({ a: [{ __bbox: { result: { data: { x: 1 } } } }] })).toEqual([{ x: 1 }]);
  });

  it("bboxResults on a shared fan (2^depth paths): stops at the budget with publisher_error, after exactly limit + 1 steps", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 10, max: 5_000 }), (depth, limit) => {
        const budget = new WorkBudget("Facebook reviews tab", limit);
        const outcome = returnsOrFailsAs(["publisher_error"], () => bboxResults(sharedFan(depth), budget));
        expect(["returned", "publisher_error"]).toContain(outcome);
        expect(budget.used).toBeLessThanOrEqual(limit + 1);
      }),
    );
  });

  it("recommendationType: a fan or deep node costs at most the budget; the answer is found breadth first", () => {
    const budget = new WorkBudget("Facebook review node", 10_000);
    expect(() => recommendationType(sharedFan(40) as Record<string, unknown>, budget)).toThrow(
      "Facebook review node: the answer needs more than 10000 steps to read",
    );
    expect(recommendationType(deeplyNested(10_000) as Record<string, unknown>)).toBeNull();
    expect(
      recommendationType({
        deep: deeplyNested(10, { recommendation_type: "NEGATIVE" }),
        recommendation_type: "POSITIVE",
      }),
    ).toBe(5);
  });

  it("random story nodes with __proto__ keys: a review or publisher_error, never a TypeError; the prototype intact", () => {
    fc.assert(
      fc.property(
        hostileJson([
          "post_id",
          "comet_sections",
          "content",
          "story",
          "actors",
          "name",
          "recommendation_type",
          "title",
          "text",
          "metadata",
          "creation_time",
        ]),
        (node) => {
          const parsed = asParsed(node);
          if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return;
          returnsOrFailsAs(["publisher_error"], () =>
            reviewFromNode(parsed as Record<string, unknown>, "42"),
          );
          expect(prototypeIntact()).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("random GraphQL answers: a chunk or login_required/blocked/publisher_error", () => {
    fc.assert(
      fc.property(
        fc.array(
          hostileJson([
            "data",
            "node",
            "ratings_list_feed_units",
            "reviews_feed",
            "edges",
            "page_info",
            "error",
            "errors",
          ]),
          { maxLength: 4 },
        ),
        (lines) => {
          returnsOrFailsAs(["publisher_error", "login_required", "blocked"], () =>
            parseGraphqlAnswer(lines.map((l) => JSON.stringify(l)).join("\n")),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("the reviews tab: deep data-sjs blocks are read to MAX_WALK_DEPTH only, a wide block stops at the budget", async () => {
    expect((await parseReviewsTab(tab(deeplyNestedJson(100_000)))).feed.sawFeed).toBe(false);
    // A block whose JSON repeats one huge object: each copy is a separate tree after JSON.parse, so
    // the work is the text's size; a small budget shows it is counted.
    const wide = JSON.stringify(Array.from({ length: 2_000 }, () => ({ a: [1, 2, 3] })));
    const budget = new WorkBudget("Facebook reviews tab", 1_000);
    await expect(parseReviewsTab(tab(wide), budget)).rejects.toThrow(
      "Facebook reviews tab: the answer needs more than 1000 steps to read",
    );
    expect(budget.used).toBe(1_001);
  });

  it("2 MB of unclosed tags: the tab reads as empty, the inspector finds no wall, both in one pass", async () => {
    const parsed = await parseReviewsTab(TWO_MB_OF_UNCLOSED_TAGS);
    expect(parsed).toEqual({
      pageId: null,
      fbDtsg: null,
      lsd: null,
      feed: { nodes: [], sawFeed: false, pageInfo: null },
    });
    const page = {
      url: new URL("https://www.facebook.com/x/reviews"),
      status: 200,
      headers: new Headers(),
      text: TWO_MB_OF_UNCLOSED_TAGS,
      rendered: false,
    };
    expect(await inspectFacebookPage(page)).toBeNull();
    // Markers of the inline definitions repeated without values: each costs one short slice.
    const markers =
      '["DTSGInitialData",[],{"token":'.repeat(60_000) +
      '"ProfileCometReviewsTabRoot.react"},"props":{"userID":'.repeat(30_000);
    expect(await parseReviewsTab(markers)).toMatchObject({ pageId: null, fbDtsg: null });
  });
});
