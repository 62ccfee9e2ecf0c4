/** feefo.com (profile_key examples: the module's own, run by ../contract.test.ts): the Reviews API answer, and end to end through the Worker and scrape-feefo. */
import { describe, expect, it, vi } from "vitest";
import { feefo } from "../../../src/publishers/feefo";
import { ScrapeError } from "../../../src/scraping/errors";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureJson, parseContext } from "../walk-support";
import fixture, { ACME_REVIEWS } from "./site";

const { url: feefoReviewsUrl, parse: parseFeefoPage } = feefo.api;
const PAGE = "https://www.feefo.com/en-GB/reviews/acme-travel";
const answer = (merchant: string, page: number) =>
  fixtureJson(fixture, feefoReviewsUrl(merchant, { page, token: null }));
const ctx = (page: number) => parseContext("acme-travel", PAGE, { page, token: null });

describe("feefo Reviews API answer", () => {
  it("asks for the merchant's service reviews, all time, newest first, 100 a page", () => {
    const url = new URL(feefoReviewsUrl("acme-travel", { page: 2, token: null }));
    expect(url.origin + url.pathname).toBe("https://api.feefo.com/api/10/reviews/service");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      merchant_identifier: "acme-travel",
      since_period: "ALL",
      sort: "-created_date",
      page_size: "100",
      page: "2",
    });
  });

  it("reads a page: ids, names, ratings, title and review as text, created_at as an instant, the review URL, the total, the next page", () => {
    const page = parseFeefoPage(answer("acme-travel", 1), ctx(1));
    expect(page.next).toEqual({ page: 2, token: null });
    expect(page.publisherTotal).toBe(130);
    // 100 on the page, one of them (7) a product-only review without a service part.
    expect(page.reviews).toHaveLength(99);
    expect(page.reviews[0]).toEqual({
      id: "6a3bbf38e4b0d81661f29000",
      author_name: "Customer 0",
      rating: { value: 1, best: 5, worst: 1 },
      text: "Trip 0\n\nBooked trip 0, all went to plan.",
      url: "https://www.feefo.com/en-GB/reviews/acme-travel/6a3bbf38e4b0d81661f29000/customer-review",
      date: "2026-11-20T12:00:00.000Z",
    });
    expect(page.reviews[1]).toEqual({
      id: "6a3bbf38e4b0d81661f28999",
      author_name: "Priya",
      rating: { value: 2, best: 5, worst: 1 },
      text: "Booked trip 1, all went to plan.",
      url: "https://www.feefo.com/en-GB/reviews/acme-travel/6a3bbf38e4b0d81661f28999/customer-review",
      date: "2026-11-20T11:00:00.000Z",
    });
    expect(page.reviews.map((r) => r.id)).not.toContain("p-7");
    expect(parseFeefoPage(answer("acme-travel", 2), ctx(2)).next).toBeNull();
  });

  it("an answer without summary, and an empty page before the stated last one, are publisher_error", () => {
    expect(scrapeError(() => parseFeefoPage(answer("moved-summary", 1), ctx(1)))).toMatchObject({
      reason: "publisher_error",
      message: expect.stringContaining("at summary"),
    });
    const hollow = { summary: { meta: { count: 300, pages: 3 } }, reviews: [] };
    expect(scrapeError(() => parseFeefoPage(hollow, ctx(1))).message).toBe(
      "Feefo reviews: page 1 is empty although the answer counts pages up to 3",
    );
  });

  it("hostile answers end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseFeefoPage);
    expectHostileInputHandled(
      parseFeefoPage,
      (reviews) => ({ summary: { meta: { count: 5, pages: 1 } }, reviews }),
      { wrapsItems: true },
    );
    expect(() =>
      parseFeefoPage(
        { summary: { meta: { count: 1, pages: 1 } }, reviews: Array(20) },
        parseContext("m", PAGE, { page: 1, token: null }, 10),
      ),
    ).toThrow(ScrapeError);
  });

  it("states its evidence date", () => {
    expect(feefo.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
  });
});

describe("feefo end to end", () => {
  const queue = queuePerTest();

  it("walks the API newest first over two pages and returns each review exactly", async () => {
    const task = await submitScrape("feefo.com", "acme-travel");
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-feefo", "ack"]]);
    expect(
      await fixtureRequests("feefo.com", "/api/10/reviews/service?merchant_identifier=acme-travel&"),
    ).toEqual(
      Object.fromEntries(
        [1, 2].map((page) => [
          `/api/10/reviews/service?merchant_identifier=acme-travel&since_period=ALL&sort=-created_date&page_size=100&page=${page}`,
          1,
        ]),
      ),
    );
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    expect(body.business.reviews_urls).toHaveLength(2);
    const reviews = body.reviews as Record<string, unknown>[];
    const expected = ACME_REVIEWS.filter((r) => r.service);
    expect(reviews.map((r) => r.review_id)).toEqual(expected.map((r) => r.service!.id));
    expect(reviews[1]).toMatchObject({
      review_id: "6a3bbf38e4b0d81661f28999",
      author_name: "Priya",
      rating: 2,
      text: "Booked trip 1, all went to plan.",
      url: "https://www.feefo.com/en-GB/reviews/acme-travel/6a3bbf38e4b0d81661f28999/customer-review",
      posted_at: Date.UTC(2026, 10, 20, 11, 0, 0),
    });
    expect(reviews[129 - 1]).toMatchObject({
      review_id: expected[128].service!.id,
      posted_at: Date.UTC(2026, 10, 20, 12) - 129 * 3_600_000,
    });
  });

  it("a merchant without reviews completes with none", async () => {
    const task = await submitScrape("feefo.com", "https://www.feefo.com/en-GB/reviews/quiet-shop");
    await queue().drain();
    const body = await retrieve(task);
    expect([body.task_status, body.reviews]).toEqual([200, []]);
  });

  it("an unknown merchant is profile_not_found; a changed answer is publisher_error naming what is missing", async () => {
    const gone = await submitScrape("feefo.com", "gone-merchant");
    await queue().drain();
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const moved = await submitScrape("feefo.com", "moved-summary");
    await queue().drain();
    expect((await retrieve(moved)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, moved.taskId)).toContain("Feefo reviews: unexpected answer at summary");
  });
});
