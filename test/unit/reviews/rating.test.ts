import { describe, expect, it } from "vitest";
import { fiveStarRating } from "../../../src/core/reviews/rating";

describe("rating mapped onto 1..5", () => {
  it.each([
    [{ value: 4 }, 4],
    [{ value: "5" }, 5],
    [{ value: "4.5" }, 5],
    [{ value: "3,5" }, 4],
    [{ value: 3.49 }, 3],
    [{ value: "4/5" }, 4],
    [{ value: "8 out of 10" }, 4],
    [{ value: "Rated 2 of 5 stars" }, 2],
  ])("1–5 scale: %j → %i", (rating, expected) => {
    expect(fiveStarRating(rating)).toBe(expected);
  });

  it("1–10 maps as round(x / 2) for whole numbers", () => {
    for (let x = 1; x <= 10; x += 1) {
      expect(fiveStarRating({ value: x, best: 10 }), `x=${x}`).toBe(
        Math.min(5, Math.max(1, Math.floor(x / 2 + 0.5))),
      );
    }
  });

  it.each([
    [{ value: 80, best: 100, worst: 0 }, 4],
    [{ value: "90%" }, 5],
    [{ value: 50, best: 100, worst: 0 }, 3],
    [{ value: 10, best: 100, worst: 0 }, 1],
    [{ value: 7 }, 4], // no bestRating: a value above 5 means a 1–10 scale
    [{ value: 0, best: 5, worst: 0 }, 1],
    [{ value: 2.5, best: 5, worst: 0 }, 3],
    [{ value: 3, best: 3, worst: 1 }, 5],
    [{ value: 2, best: 3, worst: 1 }, 3],
  ])("other scales: %j → %i", (rating, expected) => {
    expect(fiveStarRating(rating)).toBe(expected);
  });

  it("values outside the scale are clamped", () => {
    expect(fiveStarRating({ value: 6, best: 5 })).toBe(5);
    expect(fiveStarRating({ value: 0 })).toBe(1);
  });

  it.each([
    [undefined],
    [{ value: "" }],
    [{ value: "five stars" }],
    [{ value: Number.NaN }],
    [{ value: 4, best: 1, worst: 1 }],
    [{ value: 500 }],
  ])("no usable rating: %j", (rating) => {
    expect(fiveStarRating(rating)).toBeNull();
  });
});
