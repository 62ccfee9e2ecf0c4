/** Capterra's reviews page reader on hostile pages (issue 23): its RSC payload is page-controlled. */
import fc from "fast-check";
import { describe, it } from "vitest";
import { parseReviewsPage } from "../../../src/publishers/capterra/reviews";
import { deepJson, TWO_MB_OF_UNCLOSED_TAGS, withinBudget } from "../hostile-inputs";

const PAGE = "https://www.capterra.com/p/1/Acme/reviews/";
const review = (id: number) => ({
  reviewId: `Capterra___${id}`,
  overallRating: "5.0",
  title: "t",
  writtenOn: "August 13, 2026",
  reviewer: { fullName: "A" },
  vendorResponse: {},
});
/** A page whose flight payload holds `product` in one row. */
const pageWith = (product: unknown) =>
  `<html><body><script>self.__next_f.push([1,${JSON.stringify(`0:${JSON.stringify({ product })}\n`)}])</script></body></html>`;
const product = (
  textReviews: unknown,
  reviewSummary: unknown = { overallRating: "4.0", totalReviews: 1 },
) => ({
  reviewSummary,
  textReviews,
});

describe("capterra pages under hostile input", () => {
  it.each([
    [
      "deep nesting in a review's field",
      pageWith(product([{ ...review(1), reviewer: JSON.parse(deepJson(50_000)) }])),
    ],
    ["deep nesting in place of the reviews", pageWith(product(JSON.parse(deepJson(50_000, "[", "]"))))],
    [
      "__proto__ keys",
      pageWith(
        JSON.parse(
          '{"__proto__":{"textReviews":[]},"reviewSummary":{},"textReviews":[{"__proto__":{"overallRating":"5"},"reviewId":1}]}',
        ),
      ),
    ],
    ["a rating out of range", pageWith(product([{ ...review(1), overallRating: "50.0" }]))],
    ["a fan of 300,000 reviews", pageWith(product(Array.from({ length: 300_000 }, (_, i) => review(i + 1))))],
    ["2 MB of unclosed tags", TWO_MB_OF_UNCLOSED_TAGS],
  ])("%s: a result or publisher_error within the work budget", async (_, html) => {
    await withinBudget((budget) => parseReviewsPage(html, PAGE, budget));
  });

  it("any JSON in place of a review, the reviews, the summary or the product: a result or publisher_error", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue(),
        fc.constantFrom("review", "reviews", "summary", "product"),
        async (value, where) => {
          const html =
            where === "review"
              ? pageWith(product([value]))
              : where === "reviews"
                ? pageWith(product(value))
                : where === "summary"
                  ? pageWith(product([review(1)], value))
                  : pageWith(value);
          await withinBudget((budget) => parseReviewsPage(html, PAGE, budget));
        },
      ),
      { numRuns: 100 },
    );
  });
});
