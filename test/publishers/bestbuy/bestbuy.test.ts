/** bestbuy.com (profile_key examples: the module's own, run by ../contract.test.ts): the ugc/v2 reviews answer, and end to end through the Worker and scrape-bestbuy. */
import { describe, expect, it, vi } from "vitest";
import { bestbuy } from "../../../src/publishers/bestbuy";
import { ScrapeError } from "../../../src/scraping/errors";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureJson, parseContext } from "../walk-support";
import fixture, { CONSOLE } from "./site";

const { url: reviewsUrl, parse: parseReviews } = bestbuy.api;
const PAGE = "https://www.bestbuy.com/site/6565065.p?skuId=6565065";
const answer = (sku: string, page: number) => fixtureJson(fixture, reviewsUrl(sku, { page, token: null }));
const ctx = (page: number) => parseContext("6565065", PAGE, { page, token: null });

describe("bestbuy ugc/v2 reviews answer", () => {
  it("asks for the SKU's reviews, newest first, 20 a page", () => {
    const url = new URL(reviewsUrl("6565065", { page: 2, token: null }));
    expect(url.origin + url.pathname).toBe("https://www.bestbuy.com/ugc/v2/reviews");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      page: "2",
      pageSize: "20",
      sku: "6565065",
      sort: "MOST_RECENT",
    });
  });

  it("reads a page: UUID ids, authors, ratings, title and text as text, submissionTime as printed, the next page", () => {
    const page = parseReviews(answer("6565065", 1), ctx(1));
    expect(page.next).toEqual({ page: 2, token: null });
    expect(page.reviews).toHaveLength(20);
    expect(page.reviews[0]).toEqual({
      id: "7a5862ff-82f7-3dd6-83c4-b481f2e88b1f",
      author_name: "Savannah",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Review 0\n\nFast console, quiet fan.",
      url: PAGE,
      date: "2026-11-20T10:00:00.000-06:00",
    });
    // A review without a title is its text alone.
    expect(page.reviews[2]).toEqual({
      id: "7a5862ff-82f7-3dd6-83c4-b481f2e88b1d",
      author_name: "Buyer2",
      rating: { value: 3, best: 5, worst: 1 },
      text: "Bought it in store, review 2.",
      url: PAGE,
      date: "2026-11-19T20:00:00.000-06:00",
    });
    const last = parseReviews(answer("6565065", 3), ctx(3));
    expect([last.next, last.reviews.length]).toEqual([null, 5]);
  });

  it("an answer without topics, or an empty page before the stated last one, is publisher_error", () => {
    expect(scrapeError(() => parseReviews(answer("7777777", 1), ctx(1)))).toMatchObject({
      reason: "publisher_error",
      message: expect.stringContaining("at topics"),
    });
    expect(scrapeError(() => parseReviews({ totalPages: 3, topics: [] }, ctx(1))).message).toBe(
      "Best Buy reviews: page 1 is empty although the answer counts pages up to 3",
    );
  });

  it("hostile answers end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseReviews);
    expectHostileInputHandled(parseReviews, (topics) => ({ totalPages: 1, topics }), { wrapsItems: true });
    expect(() =>
      parseReviews(
        { totalPages: 1, topics: Array(20) },
        parseContext("6565065", PAGE, { page: 1, token: null }, 10),
      ),
    ).toThrow(ScrapeError);
  });

  it("states its evidence date and a slow queue for a walled site", () => {
    expect(bestbuy.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
    expect(bestbuy.queue).toMatchObject({ concurrency: 1, retries: 4, retryDelay: 120 });
  });
});

describe("bestbuy end to end", () => {
  const queue = queuePerTest();

  it("walks the reviews newest first over three pages and returns each review exactly", async () => {
    const task = await submitScrape(
      "bestbuy.com",
      "https://www.bestbuy.com/site/sony-playstation-5-slim-console-white/6565065.p?skuId=6565065",
    );
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-bestbuy", "ack"]]);
    expect(await fixtureRequests("bestbuy.com", "/ugc/v2/reviews?")).toEqual(
      Object.fromEntries(
        [1, 2, 3].map((page) => [`/ugc/v2/reviews?page=${page}&pageSize=20&sku=6565065&sort=MOST_RECENT`, 1]),
      ),
    );
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    expect(body.business.reviews_urls).toHaveLength(3);
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(CONSOLE.map((t) => t.id));
    expect(reviews[0]).toMatchObject({
      review_id: "7a5862ff-82f7-3dd6-83c4-b481f2e88b1f",
      author_name: "Savannah",
      rating: 5,
      text: "Review 0\n\nFast console, quiet fan.",
      url: PAGE,
      // 10:00 at -06:00 is 16:00 UTC.
      posted_at: Date.UTC(2026, 10, 20, 16, 0, 0),
    });
    expect(reviews[44]).toMatchObject({
      rating: 1,
      posted_at: Date.UTC(2026, 10, 20, 16) - 44 * 7 * 3_600_000,
    });
  });

  it("a product without reviews completes with none", async () => {
    const task = await submitScrape("bestbuy.com", "1000001");
    await queue().drain();
    const body = await retrieve(task);
    expect([body.task_status, body.reviews]).toEqual([200, []]);
  });

  it("an unknown SKU is profile_not_found; a changed answer is publisher_error naming what is missing", async () => {
    const gone = await submitScrape("bestbuy.com", "4040404");
    await queue().drain();
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const moved = await submitScrape("bestbuy.com", "7777777");
    await queue().drain();
    expect((await retrieve(moved)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, moved.taskId)).toContain("Best Buy reviews: unexpected answer at topics");
  });
});
