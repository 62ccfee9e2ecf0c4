import { describe, expect, it } from "vitest";
import { checkedSummary, publisherSummary } from "../../../src/core/tasks/publisher-summary";

describe("the publisher's totals as a page shows them", () => {
  it("keeps a rating on its scale and a histogram of counts", () => {
    expect(
      checkedSummary({ rating: 4.349, ratingScale: "1-5", histogram: { 1: 1, 2: 0, 3: 2, 4: 10, 5: 40 } }),
    ).toEqual({ rating: 4.35, rating_scale: "1-5", histogram: { 1: 1, 2: 0, 3: 2, 4: 10, 5: 40 } });
    expect(checkedSummary({ rating: 8.7, ratingScale: "1-10" })).toEqual({
      rating: 8.7,
      rating_scale: "1-10",
      histogram: null,
    });
  });

  it("drops what is no rating or no count (page content is hostile), never failing", () => {
    expect(checkedSummary({ rating: 7, ratingScale: "1-5" })).toBeNull();
    expect(checkedSummary({ rating: Number.NaN, ratingScale: "1-5" })).toBeNull();
    expect(checkedSummary({ rating: 4, ratingScale: "stars" })).toBeNull();
    expect(
      checkedSummary({ rating: 4.2, ratingScale: "1-5", histogram: { 1: 1, 2: -1, 3: 2, 4: 3, 5: 4 } }),
    ).toEqual({
      rating: 4.2,
      rating_scale: "1-5",
      histogram: null,
    });
    expect(
      checkedSummary({ rating: null, ratingScale: "1-5", histogram: { 1: 1, 2: 2, 3: 3, 4: 4 } }),
    ).toBeNull();
    expect(checkedSummary(undefined)).toBeNull();
  });

  it("is null where the publisher showed nothing, and carries the stated count alone where it showed only that", () => {
    expect(publisherSummary(null, null)).toBeNull();
    expect(publisherSummary(null, 23)).toEqual({
      rating: null,
      rating_scale: null,
      review_count: 23,
      histogram: null,
    });
    expect(publisherSummary({ rating: 4.4, rating_scale: "1-5", histogram: null }, 30)).toEqual({
      rating: 4.4,
      rating_scale: "1-5",
      review_count: 30,
      histogram: null,
    });
  });
});
