/** Capterra's reviews answer reader on hostile answers (issue 23). */
import fc from "fast-check";
import { describe, it } from "vitest";
import { parseReviews } from "../../../src/publishers/capterra/reviews";
import { deepJson, withinBudget } from "../hostile-inputs";

const PAGE = "https://www.capterra.com/p/1/Acme/reviews/";
const hit = (id: number) => ({
  reviewId: id,
  overallRating: 5,
  title: "t",
  writtenOn: "2019-04-12 17:24:23 -0400",
  reviewer: { fullName: "A" },
});
const answer = (hits: unknown, totalHits: unknown = { value: 1, relation: "eq" }) => ({ hits, totalHits });

describe("capterra answers under hostile input", () => {
  it.each([
    ["deep nesting in a hit's field", answer([{ ...hit(1), reviewer: JSON.parse(deepJson(50_000)) }])],
    ["deep nesting in place of the hits", answer(JSON.parse(deepJson(50_000, "[", "]")))],
    [
      "__proto__ keys",
      JSON.parse(
        '{"__proto__":{"hits":[]},"hits":[{"__proto__":{"overallRating":5},"reviewId":1}],"totalHits":{"value":1}}',
      ),
    ],
    ["a writtenOn that is no date", answer([{ ...hit(1), writtenOn: "2019-04-12" }])],
    ["a rating out of range", answer([{ ...hit(1), overallRating: 50 }])],
    [
      "a fan of 300,000 hits",
      answer(
        Array.from({ length: 300_000 }, (_, i) => hit(i + 1)),
        { value: 300_000 },
      ),
    ],
  ])("%s: a result or publisher_error within the work budget", async (_, data) => {
    await withinBudget((budget) => parseReviews(data, 0, PAGE, budget));
  });

  it("any JSON in place of a hit, the hits, the total or the whole answer: a result or publisher_error", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue(),
        fc.constantFrom("hit", "hits", "total", "answer"),
        async (value, where) => {
          const data =
            where === "hit"
              ? answer([value])
              : where === "hits"
                ? answer(value)
                : where === "total"
                  ? answer([hit(1)], value)
                  : value;
          await withinBudget((budget) => parseReviews(data, 0, PAGE, budget));
        },
      ),
      { numRuns: 200 },
    );
  });
});
