/** walmart.com (profile_key examples: the module's own, run by ../contract.test.ts): the reviews page's __NEXT_DATA__, hostile pages, and end to end through the Worker and scrape-walmart. */
import { describe, expect, it, vi } from "vitest";
import { walmart, inspectWalmartPage } from "../../../src/publishers/walmart";
import {
  pageData,
  parseWalmartPage,
  submissionDate,
  walmartReviewsUrl,
} from "../../../src/publishers/walmart/reviews";
import { WorkBudget } from "../../../src/publishers/kit/work-budget";
import type { FetchedPage } from "../../../src/scraping/client";
import { ScrapeError } from "../../../src/scraping/errors";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { hostilePages, withinBudget } from "../hostile-inputs";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureAnswer, parseContext } from "../walk-support";
import fixture, { KETTLE } from "./site";

const PAGE = "https://www.walmart.com/reviews/product/5129928603";
const ctx = (page: number, limit?: number) => parseContext("5129928603", PAGE, { page, token: null }, limit);
const data = (itemId: string, page: number) =>
  pageData(fixtureAnswer(fixture, walmartReviewsUrl(itemId, page)).body, new WorkBudget("test"));

describe("walmart reviews page", () => {
  it("asks for the product's reviews page, newest first", () => {
    const url = new URL(walmartReviewsUrl("5129928603", 2));
    expect(url.origin + url.pathname).toBe(PAGE);
    expect(Object.fromEntries(url.searchParams)).toEqual({ page: "2", sort: "submission-desc" });
  });

  it("reads a page exactly: id, author, rating, title apart from the text, M/D/YYYY date, helpful votes, badges, the summary", async () => {
    const page = parseWalmartPage(await data("5129928603", 1), ctx(1));
    // The token carries how many reviews the walk has listed so far.
    expect(page.next).toEqual({ page: 2, token: "10" });
    expect(page.publisherTotal).toBe(23);
    expect(page.summary).toEqual({
      rating: 3.9,
      ratingScale: "1-5",
      histogram: { "1": 4, "2": 1, "3": 4, "4": 6, "5": 15 },
    });
    expect(page.reviews).toHaveLength(10);
    expect(page.reviews[0]).toEqual({
      id: "400000000",
      author_name: "KettleFan",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Boils a full kettle in four minutes. The lid sticks a little.",
      title: "Fast and quiet",
      url: PAGE,
      date: "2026-11-20",
      likes: 12,
      author_badges: ["verified_purchaser"],
    });
    // No title, no badges.
    expect(page.reviews[1]).toEqual({
      id: "399999993",
      author_name: "Shopper1",
      rating: { value: 4, best: 5, worst: 1 },
      text: "Review text 1.",
      url: PAGE,
      date: "2026-11-17",
      likes: 1,
    });
    const last = parseWalmartPage(await data("5129928603", 3), {
      ...ctx(3),
      position: { page: 3, token: "20" },
    });
    expect([last.next, last.reviews.length, last.publisherTotal, last.summary]).toEqual([
      null,
      3,
      undefined,
      undefined,
    ]);
  });

  it("turns Walmart's month-first date into a calendar date and keeps anything else as printed", () => {
    expect(submissionDate("5/20/2023")).toBe("2023-05-20");
    expect(submissionDate("11/7/2026")).toBe("2026-11-07");
    expect(submissionDate("2 days ago")).toBe("2 days ago");
  });

  it("a page without __NEXT_DATA__, or whose counts moved, is publisher_error naming what is missing", async () => {
    await expect(pageData("<html><body>Reviews</body></html>", new WorkBudget("t"))).rejects.toThrow(
      "Walmart reviews page: no __NEXT_DATA__ script",
    );
    await expect(
      pageData('<script id="__NEXT_DATA__" type="application/json">{"props":</script>', new WorkBudget("t")),
    ).rejects.toThrow("Walmart reviews page: __NEXT_DATA__ is not JSON");
    expect(scrapeError(() => parseWalmartPage({ props: { pageProps: {} } }, ctx(1))).message).toMatch(
      /^Walmart reviews page: unexpected answer at props\.pageProps\.initialData/,
    );
    const moved = await data("7777777", 1);
    expect(scrapeError(() => parseWalmartPage(moved, ctx(1))).message).toBe(
      "Walmart reviews page: unexpected answer at props.pageProps.initialData.data.reviews.reviewsWithTextCount: missing",
    );
  });

  it("ends when the listed reviews reach the count, whatever the page size; an empty page before that is publisher_error", () => {
    const answer = (written: number, listed: number) => ({
      props: {
        pageProps: {
          initialData: {
            data: {
              reviews: {
                reviewsWithTextCount: written,
                customerReviews: KETTLE.slice(0, listed),
              },
            },
          },
        },
      },
    });
    const at = (page: number, token: string | null) => ({ ...ctx(page), position: { page, token } });
    // Twenty a page: 45 written reviews end on page 3.
    expect(parseWalmartPage(answer(45, 20), at(1, null)).next).toEqual({ page: 2, token: "20" });
    expect(parseWalmartPage(answer(45, 20), at(2, "20")).next).toEqual({ page: 3, token: "40" });
    expect(parseWalmartPage(answer(45, 5), at(3, "40")).next).toBeNull();
    expect(scrapeError(() => parseWalmartPage(answer(23, 0), at(2, "10"))).message).toBe(
      "Walmart reviews page: page 2 lists no reviews although 10 of the 23 written reviews were read",
    );
  });

  it("recognises PerimeterX's Robot or human? page and its /blocked redirect as blocked", () => {
    const walled = fixtureAnswer(fixture, walmartReviewsUrl("4290000", 1));
    const page = (url: string, text: string): FetchedPage => ({
      url: new URL(url),
      status: 200,
      text,
      headers: new Headers(),
      rendered: false,
    });
    expect(inspectWalmartPage(page(walmartReviewsUrl("4290000", 1), walled.body))).toMatchObject({
      reason: "blocked",
    });
    expect(
      inspectWalmartPage(page("https://www.walmart.com/blocked?url=L3Jldmlld3M", "<html></html>")),
    ).toMatchObject({ reason: "blocked" });
    expect(
      inspectWalmartPage(page(PAGE, fixtureAnswer(fixture, walmartReviewsUrl("5129928603", 1)).body)),
    ).toBeNull();
  });

  it("hostile answers end as publisher_error or a read page, never a TypeError, within the work budget", async () => {
    expectHostileInputHandled(parseWalmartPage);
    expectHostileInputHandled(
      parseWalmartPage,
      (customerReviews) => ({
        props: {
          pageProps: { initialData: { data: { reviews: { reviewsWithTextCount: 1, customerReviews } } } },
        },
      }),
      { wrapsItems: true },
    );
    const pages = hostilePages([
      '<script id="__NEXT_DATA__" type="application/json">',
      '{"customerReviews":[',
    ]);
    for (const html of Object.values(pages))
      await withinBudget(async (b) => parseWalmartPage(await pageData(html, b), ctx(1)));
    expect(() => parseWalmartPage({ props: {} }, ctx(1, 10))).toThrow(ScrapeError);
  });

  it("states its evidence date and a slow queue for a walled site", () => {
    expect(walmart.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
    expect(walmart.queue).toMatchObject({ concurrency: 1, retries: 4, retryDelay: 120 });
  });
});

describe("walmart end to end", () => {
  const queue = queuePerTest();

  it("walks the written reviews newest first over three pages and returns each review exactly, with the publisher summary", async () => {
    const task = await submitScrape(
      "walmart.com",
      "https://www.walmart.com/ip/Great-Value-Electric-Kettle-1-7-L/5129928603?classType=REGULAR",
    );
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-walmart", "ack"]]);
    expect(await fixtureRequests("walmart.com", "/reviews/product/")).toEqual(
      Object.fromEntries(
        [1, 2, 3].map((page) => [`/reviews/product/5129928603?page=${page}&sort=submission-desc`, 1]),
      ),
    );
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    expect(body.coverage).toMatchObject({ publisher_total: 23, collected: 23, complete: true });
    expect(body.business.publisher_summary).toEqual({
      rating: 3.9,
      rating_scale: "1-5",
      review_count: 23,
      histogram: { "1": 4, "2": 1, "3": 4, "4": 6, "5": 15 },
    });
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(KETTLE.map((r) => r.reviewId));
    expect(reviews[0]).toMatchObject({
      review_id: "400000000",
      author_name: "KettleFan",
      rating: 5,
      title: "Fast and quiet",
      text: "Boils a full kettle in four minutes. The lid sticks a little.",
      likes: 12,
      author_badges: ["verified_purchaser"],
      url: PAGE,
      posted_at: Date.UTC(2026, 10, 20),
    });
    expect(reviews[22]).toMatchObject({ rating: 5, posted_at: Date.UTC(2026, 10, 20) - 22 * 3 * 86_400_000 });
  });

  it("a product without reviews completes with none", async () => {
    const task = await submitScrape("walmart.com", "1000001");
    await queue().drain();
    const body = await retrieve(task);
    expect([body.task_status, body.reviews]).toEqual([200, []]);
  });

  it("an unknown product is profile_not_found; PerimeterX is blocked; moved counts are publisher_error", async () => {
    const gone = await submitScrape("walmart.com", "4040404");
    const walled = await submitScrape("walmart.com", "4290000");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const moved = await submitScrape("walmart.com", "7777777");
    await queue().drain();
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    expect((await retrieve(walled)).response_message).toEqual(failed("blocked"));
    expect((await retrieve(moved)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, moved.taskId)).toContain(
      "Walmart reviews page: unexpected answer at props.pageProps.initialData.data.reviews.reviewsWithTextCount",
    );
  });
});
