/** Airbnb's review answer reader on hostile answers (issue 23). */
import fc from "fast-check";
import { describe, it } from "vitest";
import { parseReviews } from "../../../src/publishers/airbnb/feed";
import { deepJson, withinBudget } from "../hostile-inputs";

const review = (id: number) => ({
  id: String(id),
  comments: "ok",
  language: "en",
  createdAt: "2026-09-15T14:30:10Z",
  rating: 5,
  reviewer: { id: "1", firstName: "A" },
});
const answer = (reviews: unknown, metadata: unknown = { reviewsCount: 1 }) => ({
  data: { presentation: { stayProductDetailPage: { reviews: { reviews, metadata } } } },
});

describe("airbnb answers under hostile input", () => {
  it.each([
    ["deep nesting in a review's field", answer([{ ...review(1), reviewer: JSON.parse(deepJson(50_000)) }])],
    ["deep nesting in place of the list", answer(JSON.parse(deepJson(50_000, "[", "]")))],
    [
      "__proto__ keys",
      JSON.parse(
        '{"data":{"presentation":{"stayProductDetailPage":{"reviews":{"__proto__":{"reviews":[]},"reviews":[{"__proto__":{"rating":5},"id":"1"}]}}}}}',
      ),
    ],
    ["a date that is no date", answer([{ ...review(1), createdAt: "yesterday-ish" }])],
    ["a count that is a string", answer([review(1)], { reviewsCount: "490" })],
    [
      "a fan of 300,000 reviews",
      answer(
        Array.from({ length: 300_000 }, (_, i) => review(i + 1)),
        { reviewsCount: 300_000 },
      ),
    ],
  ])("%s: a result or publisher_error within the work budget", async (_, data) => {
    await withinBudget((budget) => parseReviews(data, 0, budget));
  });

  it("any JSON in place of a review, the list, the metadata or the whole answer: a result or publisher_error", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue(),
        fc.constantFrom("review", "list", "metadata", "answer"),
        async (value, where) => {
          const data =
            where === "review"
              ? answer([value])
              : where === "list"
                ? answer(value)
                : where === "metadata"
                  ? answer([review(1)], value)
                  : value;
          await withinBudget((budget) => parseReviews(data, 0, budget));
        },
      ),
      { numRuns: 200 },
    );
  });
});
