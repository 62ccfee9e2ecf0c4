/** Tripadvisor's review page and review list readers on hostile answers (issue 23). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cardReview, readReviewCards } from "../../../src/publishers/tripadvisor/cards";
import { parseReviewListResponse } from "../../../src/publishers/tripadvisor/reviews";
import { WorkBudget } from "../../../src/publishers/kit/work-budget";
import { deepJson, hostilePage, hostilePages, repeatTo, TWO_MB, withinBudget } from "../hostile-inputs";

const PROFILE = "https://www.tripadvisor.com/Hotel_Review-g1-d2-Reviews-X.html";
const TA_MARKUP = [
  '<div data-test-target="HR_CC_CARD">',
  '<div data-automation="reviewCard">',
  '<a href="/ShowUserReviews-g1-d2-r3-X.html">',
  "<svg><title>5.0 of 5 bubbles",
  '<span aria-label="4.0 of 5 bubbles">',
  '<div data-test-target="review-title">',
  '<div data-test-target="review-body"><span>',
  "<br>",
  '<div data-test-target="review-date">Written November 3, 2026',
  '<a href="/Profile/someone">',
];

async function readAll(html: string, budget: WorkBudget) {
  const cards = await readReviewCards(html, budget);
  return cards.map((card, i) => cardReview(card, i, "https://www.tripadvisor.com", PROFILE));
}

const review = (id: number) => ({ id, rating: 5, text: "ok", title: "t", publishedDate: "2026-11-01" });
const answer = (page: unknown) => [{ data: { ReviewsProxy_getReviewListPageForLocation: [page] } }];

describe("tripadvisor review pages under hostile input", () => {
  it.each(Object.entries(hostilePages(TA_MARKUP)))(
    "%s: a result or publisher_error within the work budget",
    async (_, html) => {
      await withinBudget((budget) => readAll(html, budget));
    },
  );

  it("random pages of the review cards' markup: a result or publisher_error within the work budget", async () => {
    await fc.assert(
      fc.asyncProperty(hostilePage(TA_MARKUP), async (html) => {
        await withinBudget((budget) => readAll(html, budget));
      }),
      { numRuns: 40 },
    );
  });

  it("a fan of 2 MB of cards is read in work linear in the cards", async () => {
    const card =
      '<div data-test-target="HR_CC_CARD"><a href="/ShowUserReviews-g1-d2-r3-X.html">t</a><span aria-label="5 of 5 bubbles"></span></div>';
    const budget = new WorkBudget("fan");
    const cards = await readReviewCards(repeatTo(card, TWO_MB), budget);
    expect(cards).toHaveLength(Math.floor(TWO_MB / card.length));
    expect(budget.used / cards.length).toBeLessThanOrEqual(4);
  });
});

describe("tripadvisor review list under hostile answers", () => {
  it.each([
    [
      "deep nesting in a review's field",
      answer({ totalCount: 1, reviews: [{ ...review(1), userProfile: JSON.parse(deepJson(50_000)) }] }),
    ],
    [
      "deep nesting in place of the list",
      [{ data: { ReviewsProxy_getReviewListPageForLocation: JSON.parse(deepJson(50_000, "[", "]")) } }],
    ],
    [
      "__proto__ keys",
      JSON.parse(
        '[{"data":{"ReviewsProxy_getReviewListPageForLocation":[{"__proto__":{"totalCount":1,"reviews":[]},"totalCount":1,"reviews":[{"__proto__":{"rating":5},"id":1}]}]}}]',
      ),
    ],
    ["a rating that is a string", answer({ totalCount: 1, reviews: [{ ...review(1), rating: "5" }] })],
    [
      "a fan of 300,000 reviews",
      answer({ totalCount: 300_000, reviews: Array.from({ length: 300_000 }, (_, i) => review(i + 1)) }),
    ],
  ])("%s: a result or publisher_error within the work budget", async (_, body) => {
    await withinBudget((budget) => parseReviewListResponse(body, budget));
  });

  it("any JSON in place of a review, the page or the whole answer: a result or publisher_error", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.constantFrom("review", "page", "answer"), async (value, where) => {
        const body =
          where === "review"
            ? answer({ totalCount: 1, reviews: [value] })
            : where === "page"
              ? answer(value)
              : value;
        await withinBudget((budget) => parseReviewListResponse(body, budget));
      }),
      { numRuns: 200 },
    );
  });
});
