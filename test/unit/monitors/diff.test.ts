import { describe, expect, it } from "vitest";
import { diffRun, eventBatches, isFullWalk, type KnownReview } from "../../../src/core/monitors/diff";
import type { Review } from "../../../src/core/reviews/review";

function review(id: string, postedAt: number, extra: Partial<Review> = {}): Review {
  return {
    review_id: id,
    author_name: `Author ${id}`,
    author_id: null,
    rating: 4,
    text: `Text of ${id}`,
    url: "https://example.com/biz/x",
    posted_at: postedAt,
    review_hash: `hash-${id}`,
    language: "en",
    ...extra,
  };
}

const known = (...reviews: Review[]) =>
  new Map<string, KnownReview>(
    reviews.map((r) => [r.review_id, { review_id: r.review_id, review_hash: r.review_hash, data: r }]),
  );

describe("diffRun", () => {
  it("orders new reviews oldest first, then edits, then deletions oldest first", () => {
    const a = review("a", 1);
    const b = review("b", 2);
    const c = review("c", 3);
    const changes = diffRun({
      seen: [review("new2", 20), review("new1", 10), { ...c, rating: 2 }],
      known: known(a, b, c),
      completeWalk: true,
      baseline: false,
    });
    expect(changes.map((ch) => [ch.type, ch.review_id])).toEqual([
      ["review.created", "new1"],
      ["review.created", "new2"],
      ["review.updated", "c"],
      ["review.deleted", "a"],
      ["review.deleted", "b"],
    ]);
  });

  it("infers no deletion from an incomplete walk and announces nothing on a baseline", () => {
    const a = review("a", 1);
    expect(diffRun({ seen: [], known: known(a), completeWalk: false, baseline: false })).toEqual([]);
    expect(diffRun({ seen: [review("n", 5)], known: known(a), completeWalk: true, baseline: true })).toEqual(
      [],
    );
  });

  it("calls a review updated only when its rating, text or owner reply changed", () => {
    const a = review("a", 1);
    const renamed = { ...a, author_name: "New display name", review_hash: "other" };
    expect(diffRun({ seen: [renamed], known: known(a), completeWalk: false, baseline: false })).toEqual([]);
    const replied = { ...a, owner_reply: { text: "Thanks", posted_at: null } };
    expect(diffRun({ seen: [replied], known: known(a), completeWalk: false, baseline: false })).toEqual([
      { type: "review.updated", review_id: "a", before: a, after: replied },
    ]);
  });
});

describe("eventBatches", () => {
  it("groups consecutive changes of one type, at most 100 each", () => {
    const changes = [...Array(150).fill({ type: "x" }), { type: "y" }, { type: "x" }];
    expect(eventBatches(changes).map((b) => [b[0].type, b.length])).toEqual([
      ["x", 100],
      ["x", 50],
      ["y", 1],
      ["x", 1],
    ]);
  });
});

describe("isFullWalk", () => {
  it("walks all pages on the first run and every Nth after it", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].filter((run) => isFullWalk(run, 4))).toEqual([1, 5, 9]);
    expect([1, 2, 3].every((run) => isFullWalk(run, 1))).toBe(true);
  });
});
