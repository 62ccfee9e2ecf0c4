import { describe, expect, it } from "vitest";
import { clearlyFewer, taskCoverage, type WalkRecord } from "../../../src/core/tasks/coverage";

const walk = (over: Partial<WalkRecord>): WalkRecord => ({
  publisherTotal: null,
  limitedView: null,
  fullWalk: true,
  stopReason: null,
  collected: 0,
  ...over,
});

describe("coverage of a completed task", () => {
  it.each([
    // collected, total, clearly fewer?
    [90, 100, false], // exactly 90 %
    [89, 100, true],
    [0, 4, false], // under 5 short: a publisher's count of hidden reviews, not a missed page
    [0, 5, true],
    [45, 50, false],
    [44, 50, true],
    [120, 100, false],
    [1_000, 1_200, true],
  ])("%i collected of %i stated: clearly fewer is %s", (collected, total, expected) => {
    expect(clearlyFewer(collected, total)).toBe(expected);
  });

  it("a full walk collecting clearly fewer than stated is incomplete", () => {
    expect(taskCoverage(walk({ publisherTotal: 100, collected: 20 }))).toEqual({
      publisher_total: 100,
      collected: 20,
      complete: false,
      stop_reason:
        "fewer_than_stated: the walk reached the last page with 20 of the 100 reviews the publisher states",
    });
  });

  it("a walk stopped early by the client's choice is not compared with the total", () => {
    expect(taskCoverage(walk({ publisherTotal: 100, collected: 20, fullWalk: false }))).toMatchObject({
      complete: true,
      stop_reason: null,
    });
  });

  it("a limited view is incomplete whatever the counts", () => {
    expect(
      taskCoverage(walk({ publisherTotal: 5, collected: 5, limitedView: "signed-out view shows 5 reviews" })),
    ).toMatchObject({
      complete: false,
      stop_reason: "limited_view: signed-out view shows 5 reviews",
    });
  });

  it("a recorded stop reason (page budget, failure after page 1) wins and is incomplete", () => {
    expect(
      taskCoverage(
        walk({ stopReason: "blocked: HTTP 403", limitedView: "x", collected: 3, fullWalk: false }),
      ),
    ).toEqual({
      publisher_total: null,
      collected: 3,
      complete: false,
      stop_reason: "blocked: HTTP 403",
    });
  });

  it("a total that is not a sane count is shown as null and not compared", () => {
    expect(taskCoverage(walk({ publisherTotal: -3, collected: 1 }))).toMatchObject({
      publisher_total: null,
      complete: true,
    });
  });
});
