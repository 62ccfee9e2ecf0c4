/** productreview.com.au (profile_key examples: the module's own, run by ../contract.test.ts): the listings reviews API, hostile answers, and end to end through the Worker and scrape-productreview. */
import { describe, expect, it, vi } from "vitest";
import { productreview } from "../../../src/publishers/productreview";
import { parseProductReviewPage, productReviewUrl } from "../../../src/publishers/productreview/reviews";
import { ScrapeError } from "../../../src/scraping/errors";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureJson, parseContext } from "../walk-support";
import fixture, { JACARANDA } from "./site";

const KEY = "jacaranda-finance";
const PAGE = `https://www.productreview.com.au/listings/${KEY}`;
const answer = (slug: string, page: number) =>
  fixtureJson(fixture, productReviewUrl(slug, { page, token: null }));
const ctx = (page: number, token: string | null = null) => parseContext(KEY, PAGE, { page, token });

describe("productreview listings reviews API", () => {
  it("asks the API for 100 reviews a page, newest first", () => {
    expect(productReviewUrl(KEY, { page: 2, token: null })).toBe(
      "https://api.productreview.com.au/api/au/listings/jacaranda-finance/reviews?sort=firstPublishedAt&order=DESC&page=2&limit=100",
    );
  });

  it("reads a page exactly: id, the author by reference, rating, title and body, date, likes, verified purchase", () => {
    const page = parseProductReviewPage(answer(KEY, 1), ctx(1));
    expect(page.reviews).toHaveLength(100);
    expect(page.next).toEqual({ page: 2, token: JACARANDA[0].id });
    expect(page.reviews[0]).toEqual({
      id: "6a0f100000-rev",
      author_name: "Reviewer 0",
      rating: { value: 5, best: 5, worst: 1 },
      title: "Loan 0",
      text: "Loan 0\n\nApproved in two days; the fees were as quoted.",
      url: PAGE,
      date: "2026-10-31T09:30:00.000Z",
      likes: 0,
      author_badges: ["verified_purchase"],
    });
    // No title (i % 4 === 3), not a verified purchase: the body alone, no badge.
    expect(page.reviews[3]).toEqual({
      id: "6a0f100003-rev",
      author_name: "Reviewer 3",
      rating: { value: 2, best: 5, worst: 1 },
      text: "Review 3 of the loan.",
      url: PAGE,
      date: "2026-10-31T06:30:00.000Z",
      likes: 3,
    });
    expect(page.reviews[1].author_name).toBe("Mei L.");
  });

  it("a page with fewer than 100 reviews is the last; a review without a rating is skipped, not the page", () => {
    const last = parseProductReviewPage(answer(KEY, 3), ctx(3, JACARANDA[100].id));
    expect(last.next).toBeNull();
    expect(last.reviews).toHaveLength(29);
    expect(last.reviews.map((r) => r.id)).not.toContain(JACARANDA[225].id);
  });

  it("an empty listing completes on its first page", () => {
    expect(parseProductReviewPage(answer("quiet-listing", 1), ctx(1))).toEqual({ reviews: [], next: null });
  });

  it("an answer without collection.items is publisher_error naming the path", () => {
    expect(scrapeError(() => parseProductReviewPage(answer("moved-listing", 1), ctx(1)))).toMatchObject({
      reason: "publisher_error",
      message: expect.stringMatching(/^ProductReview reviews: unexpected answer at collection/),
    });
  });

  it("a page of reviews none of which has the assumed fields is publisher_error naming them", () => {
    expect(scrapeError(() => parseProductReviewPage(answer("renamed-listing", 1), ctx(1))).message).toBe(
      "ProductReview reviews: none of the 100 reviews has the assumed fields (id, rating (1–5), firstPublishedAt)",
    );
  });

  it("a page that repeats the page before (the API ignoring `page`) is publisher_error, not a loop", () => {
    expect(
      scrapeError(() => parseProductReviewPage(answer("clamped-listing", 2), ctx(2, JACARANDA[0].id)))
        .message,
    ).toBe("ProductReview reviews: page 2 repeats the page before it (the API does not page by `page`)");
  });

  it("hostile answers end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseProductReviewPage);
    expectHostileInputHandled(parseProductReviewPage, (items) => ({ collection: { items, authors: [] } }), {
      wrapsItems: true,
    });
    // An author reference past the list, or to a non-author, leaves the review without a name.
    const odd = parseProductReviewPage(
      {
        collection: {
          items: [
            { id: "a", rating: 4, firstPublishedAt: "2026-01-01T00:00:00Z", _authorReference: 9 },
            { id: "b", rating: 4, firstPublishedAt: "2026-01-01T00:00:00Z", _authorReference: 0 },
          ],
          authors: [{ displayName: 42 }],
        },
      },
      ctx(1),
    );
    expect(odd.reviews.map((r) => r.author_name)).toEqual([undefined, undefined]);
    expect(() =>
      parseProductReviewPage(
        { collection: { items: Array(20), authors: [] } },
        parseContext(KEY, PAGE, { page: 1, token: null }, 10),
      ),
    ).toThrow(ScrapeError);
  });

  it("states its evidence date", () => {
    expect(productreview.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
  });
});

describe("productreview end to end", () => {
  const queue = queuePerTest();

  it("walks the API newest first over three pages and returns each review exactly", async () => {
    const task = await submitScrape("productreview.com.au", `${PAGE}?page=2#reviews`);
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-productreview", "ack"]]);
    expect(await fixtureRequests("productreview.com.au", `/api/au/listings/${KEY}/`)).toEqual(
      Object.fromEntries(
        [1, 2, 3].map((page) => [
          `/api/au/listings/${KEY}/reviews?sort=firstPublishedAt&order=DESC&page=${page}&limit=100`,
          1,
        ]),
      ),
    );
    const body = await retrieve(task, 1, 300);
    expect(body.business.profile_key).toBe(PAGE);
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(JACARANDA.filter((r) => r.rating > 0).map((r) => r.id));
    expect(reviews[1]).toMatchObject({
      review_id: "6a0f100001-rev",
      author_name: "Mei L.",
      rating: 4,
      title: "Loan 1",
      text: "Loan 1\n\nReview 1 of the loan.",
      url: PAGE,
      posted_at: Date.UTC(2026, 9, 31, 8, 30, 0),
      likes: 1,
    });
    expect(reviews[0]).toMatchObject({ review_id: "6a0f100000-rev", author_badges: ["verified_purchase"] });
  });

  it("an unknown listing is profile_not_found; a challenge is blocked; a changed answer is publisher_error naming what is missing", async () => {
    const gone = await submitScrape(
      "productreview.com.au",
      "https://www.productreview.com.au/listings/gone-listing",
    );
    const walled = await submitScrape(
      "productreview.com.au",
      "https://www.productreview.com.au/listings/walled-listing",
    );
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const moved = await submitScrape(
      "productreview.com.au",
      "https://www.productreview.com.au/listings/renamed-listing",
    );
    await queue().drain();
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    expect((await retrieve(walled)).response_message).toEqual(failed("blocked"));
    expect((await retrieve(moved)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, moved.taskId)).toContain("none of the 100 reviews has the assumed fields");
  });
});
