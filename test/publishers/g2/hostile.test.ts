/** g2.com's review page reader on hostile pages (issue 23): linear work, publisher_error or a result, never another error. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cardReview, readG2Page } from "../../../src/publishers/g2/cards";
import { WorkBudget } from "../../../src/publishers/kit/work-budget";
import { hostilePage, hostilePages, repeatTo, TWO_MB, withinBudget } from "../hostile-inputs";

const G2_MARKUP = [
  '<article id="acme-review-1">',
  '<span class="elv-star-wrapper__desc__rating">4.5/5',
  '<meta content="2026-01-01">',
  "<section><div>What do you like best?",
  "<p>",
  '<div class="elv-text-base elv-font-bold">',
  '<div class="elv-text-lg elv-font-bold">',
  '<div itemprop="review" id="survey-response-1">',
  '<div itemprop="reviewBody"><h5>',
  '<div class="stars stars-9">',
  '<div itemprop="comment"><div itemprop="text">',
  '<span class="elv-star-wrapper__desc__count">(12,345)',
  '<a rel="next" href="?page=2">',
  '<button data-clipboard-text="https://www.g2.com/products/a/reviews/a-review-9">',
];

/** What the adapter does with a page: read it, then turn each card into a review. */
async function readAll(html: string, budget: WorkBudget) {
  const page = await readG2Page(html, budget);
  return page.cards.map((card, i) => cardReview(card, i, "acme"));
}

describe("g2 review pages under hostile input", () => {
  it.each(Object.entries(hostilePages(G2_MARKUP)))(
    "%s: a result or publisher_error within the work budget",
    async (_, html) => {
      await withinBudget((budget) => readAll(html, budget));
    },
  );

  it("random pages of G2's markup, odd fragments and __proto__ keys: a result or publisher_error within the work budget", async () => {
    await fc.assert(
      fc.asyncProperty(hostilePage(G2_MARKUP), async (html) => {
        await withinBudget((budget) => readAll(html, budget));
      }),
      { numRuns: 40 },
    );
  });

  it("a fan of 2 MB of well-formed cards is read in work linear in the cards, under the default limit", async () => {
    const card =
      '<article id="acme-review-7"><span class="elv-star-wrapper__desc__rating">5/5</span><meta content="2026-01-01"></article>';
    const html = repeatTo(card, TWO_MB);
    const budget = new WorkBudget("fan");
    const page = await readG2Page(html, budget);
    expect(page.cards).toHaveLength(Math.floor(TWO_MB / card.length));
    // Per card: the article, the rating span and its text, the meta: a handful of steps.
    expect(budget.used / page.cards.length).toBeLessThanOrEqual(6);
  });

  it("text nested under 50,000 open answer sections stops at the budget as publisher_error", async () => {
    const html = repeatTo('<article id="a-review-1"><section><div>heading</div><p>answer', 50_000 * 60);
    const budget = await withinBudget((b) => readAll(html, b), 100_000);
    expect(budget.used).toBeLessThanOrEqual(100_001);
  });
});
