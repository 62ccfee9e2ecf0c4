/** reviews.io (profile_key cases: the module's examples, run by ../contract.test.ts): the merchant reviews answer, and end to end through the Worker and scrape-reviews-io. */
import { describe, expect, it, vi } from "vitest";
import { reviewsIo } from "../../../src/publishers/reviews-io";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureJson, parseContext } from "../walk-support";
import fixture, { BIG_STORE } from "./site";

const { url: reviewsIoUrl, parse: parseReviewsIoPage } = reviewsIo.api;
const PAGE = "https://www.reviews.io/company-reviews/store/big-store";
const answer = (store: string, page: number) =>
  fixtureJson(fixture, reviewsIoUrl(store, { page, token: null }));
const ctx = (page: number) => parseContext("big-store", PAGE, { page, token: null });

describe("reviews.io merchant reviews answer", () => {
  it("asks for 100 of the store's reviews from a page counted from 0, newest first (sort=date_created)", () => {
    const url = new URL(reviewsIoUrl("big-store", { page: 0, token: null }));
    expect(url.origin + url.pathname).toBe("https://api.reviews.io/merchant/reviews");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      store: "big-store",
      per_page: "100",
      page: "0",
      sort: "date_created",
    });
  });

  it("reads a page: ids, reviewer names, ratings, comments, the date as printed, the total, the next page", () => {
    const page = parseReviewsIoPage(answer("big-store", 0), ctx(0));
    expect(page.publisherTotal).toBe(230);
    expect(page.next).toEqual({ page: 1, token: null });
    expect(page.reviews).toHaveLength(100);
    expect(page.reviews[0]).toEqual({
      id: "48000000",
      author_name: "Olivia M.",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Review 0 of the big store.",
      url: PAGE,
      date: "2026-11-20 18:00:00",
    });
    expect(page.reviews[1]).toEqual({
      id: "47999999",
      author_name: "Buyer1",
      rating: { value: 4, best: 5, worst: 1 },
      text: "Fast delivery, cooker works perfectly.",
      url: PAGE,
      date: "2026-11-20 13:00:00",
    });
    expect(parseReviewsIoPage(answer("big-store", 2), ctx(2)).next).toBeNull();
    expect(parseReviewsIoPage(answer("empty-store", 0), ctx(0))).toEqual({
      reviews: [],
      next: null,
      publisherTotal: 0,
    });
  });

  it("reviews moved out of `reviews`, and an empty page before the last, are publisher_error", () => {
    expect(scrapeError(() => parseReviewsIoPage(answer("renamed", 0), ctx(0))).message).toContain(
      "unexpected answer at reviews",
    );
    const hollow = { stats: { total_reviews: 300 }, reviews: [], total_pages: 3 };
    expect(scrapeError(() => parseReviewsIoPage(hollow, ctx(0))).message).toBe(
      "REVIEWS.io reviews: page 0 is empty although the answer counts pages up to 2",
    );
  });

  it("hostile answers end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseReviewsIoPage);
    expectHostileInputHandled(
      parseReviewsIoPage,
      (reviews) => ({ stats: { total_reviews: 5 }, reviews, total_pages: 1 }),
      { wrapsItems: true },
    );
  });
});

describe("reviews.io end to end", () => {
  const queue = queuePerTest();

  it("walks three pages from page 0 and returns each review exactly", async () => {
    const task = await submitScrape("reviews.io", "big-store");
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-reviews-io", "ack"]]);
    expect(await fixtureRequests("reviews.io", "/merchant/reviews?store=big-store&")).toEqual(
      Object.fromEntries(
        [0, 1, 2].map((page) => [
          `/merchant/reviews?store=big-store&per_page=100&page=${page}&sort=date_created`,
          1,
        ]),
      ),
    );
    const body = await retrieve(task, 1, 300);
    expect(body.business.profile_key).toBe(PAGE);
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(BIG_STORE.map((r) => String(r.store_review_id)));
    expect(reviews[1]).toMatchObject({
      review_id: "47999999",
      author_name: "Buyer1",
      rating: 4,
      text: "Fast delivery, cooker works perfectly.",
      url: PAGE,
      posted_at: Date.UTC(2026, 10, 20, 13, 0, 0),
    });
    expect(reviews[229]).toMatchObject({
      review_id: "47999771",
      posted_at: Date.UTC(2026, 10, 20, 18) - 229 * 5 * 3_600_000,
    });
  });

  it("an unknown store is profile_not_found; a changed answer is publisher_error", async () => {
    const gone = await submitScrape("reviews.io", "gone-store");
    await queue().drain();
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const renamed = await submitScrape("reviews.io", "renamed");
    await queue().drain();
    expect((await retrieve(renamed)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, renamed.taskId)).toContain(
      "REVIEWS.io reviews: unexpected answer at reviews",
    );
  });
});
