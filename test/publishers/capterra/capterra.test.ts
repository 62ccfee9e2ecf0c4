/** capterra.com: the reviews page reader, and end to end through the Worker and scrape-capterra. */
import { describe, expect, it, vi } from "vitest";
import { CapterraCursorSchema } from "../../../src/publishers/capterra/adapter";
import { parseReviewsPage, reviewsPageAt } from "../../../src/publishers/capterra/reviews";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, md5Hash, retrieve, submitScrape } from "../../e2e/support";
import { ACME_REVIEWS, mostHelpfulFirst } from "./data";
import fixture from "./site";
import { failed, queuePerTest } from "../support";

const REVIEWS_PAGE = "https://www.capterra.com/p/2001/Acme-CRM/reviews/";
const idOf = (r: { reviewId: string }) => r.reviewId.replace("Capterra___", "");

function page(productPath: string, n: number): string {
  const url = new URL(reviewsPageAt(`https://www.capterra.com${productPath}`, n));
  return fixture.site({
    url,
    cookie: "",
    count: 1,
    method: "GET",
    host: "www.capterra.com",
    headers: {},
    body: "",
  }).body;
}

describe("capterra reviews pages", () => {
  it("asks for page N of the reviews page as public clients do (page 1 without a query)", () => {
    expect(reviewsPageAt(REVIEWS_PAGE, 1)).toBe(REVIEWS_PAGE);
    expect(reviewsPageAt(REVIEWS_PAGE, 3)).toBe(`${REVIEWS_PAGE}?page=3`);
  });

  it("reads a page's payload: Capterra's review id, title and sections as text, the day written, rated aspects, the vendor's response, the count", async () => {
    const { reviews, total, summary } = await parseReviewsPage(
      page("/p/2001/Acme-CRM/reviews/", 1),
      REVIEWS_PAGE,
    );
    expect(total).toBe(60);
    expect(summary).toEqual({ rating: 4.4, ratingScale: "1-5" });
    expect(reviews.map((r) => r.id)).toEqual(mostHelpfulFirst(ACME_REVIEWS).slice(0, 25).map(idOf));
    // Review 0, the newest, is the least helpful: the last page holds it.
    const last = await parseReviewsPage(page("/p/2001/Acme-CRM/reviews/", 3), REVIEWS_PAGE);
    expect(last.reviews.map((r) => r.id)).toEqual(mostHelpfulFirst(ACME_REVIEWS).slice(50).map(idOf));
    expect(last.reviews.find((r) => r.id === "4100000")).toEqual({
      id: "4100000",
      author_name: "Mike W.",
      rating: { value: 1, best: 5, worst: 1 },
      text: "Review 0: quick to set up\n\nPros:\nPipeline views are clear (review 0).\n\nCons:\nReports export slowly (review 0).\n\nOverall:\nWe moved our sales team to it in a week (review 0).",
      url: REVIEWS_PAGE,
      date: "November 20, 2026",
      title: "Review 0: quick to set up",
      // "0.0" (not rated) is left out.
      sub_ratings: { ease_of_use: 1, features: 4 },
    });
  });

  it("a page without the payload, a moved list and a review without its rating are publisher_error naming what is wrong", async () => {
    const error = (html: string) =>
      parseReviewsPage(html, REVIEWS_PAGE).then(
        () => null,
        (err: Error) => err,
      );
    expect(
      await error('<html><body><div data-test-id="review-cards-container"></div></body></html>'),
    ).toMatchObject({
      reason: "publisher_error",
      message:
        "Capterra page: no RSC payload (self.__next_f) with the product's reviewSummary and textReviews",
    });
    expect((await error(page("/p/2500/Moved-List/reviews/", 1)))?.message).toBe(
      "Capterra page: no RSC payload (self.__next_f) with the product's reviewSummary and textReviews",
    );
    expect((await error(page("/p/2501/Renamed-Rating/reviews/", 1)))?.message).toContain(
      "textReviews.0.overallRating",
    );
  });

  it("takes a cursor stored while the module read the JSON endpoint on at the page holding its offset", () => {
    expect(CapterraCursorSchema.parse({ productId: "2001", pageUrl: REVIEWS_PAGE, offset: 50 })).toEqual({
      productId: "2001",
      pageUrl: REVIEWS_PAGE,
      page: 3,
    });
  });
});

describe("capterra end to end", () => {
  const queue = queuePerTest();

  it("opens the product page once, walks every reviews page in Capterra's order, and returns each review exactly", async () => {
    const task = await submitScrape("capterra.com", "2001");
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-capterra", "ack"]]);
    expect(await fixtureRequests("capterra.com", "/p/2001/")).toEqual({
      "/p/2001/": 1,
      "/p/2001/Acme-CRM/": 1,
      "/p/2001/Acme-CRM/reviews/": 1,
      "/p/2001/Acme-CRM/reviews/?page=2": 1,
      "/p/2001/Acme-CRM/reviews/?page=3": 1,
    });

    const body = await retrieve(task, 1, 100);
    expect(body.business.profile_key).toBe(REVIEWS_PAGE);
    expect(body.business.publisher_summary).toEqual({
      rating: 4.4,
      rating_scale: "1-5",
      review_count: 60,
      histogram: null,
    });
    expect(body.coverage).toEqual({ publisher_total: 60, collected: 60, complete: true, stop_reason: null });
    const reviews = body.reviews as Record<string, any>[];
    // Retrieve lists them newest first, whatever order the pages had.
    expect(reviews.map((r) => r.review_id)).toEqual(ACME_REVIEWS.map(idOf));
    expect(reviews.map((r) => r.rating)).toEqual(ACME_REVIEWS.map((r) => Number(r.overallRating)));
    expect(reviews.map((r) => r.author_name)).toEqual(ACME_REVIEWS.map((r) => r.reviewer.fullName));
    expect(reviews.map((r) => r.posted_at)).toEqual(ACME_REVIEWS.map((r) => r.postedAt));
    for (const r of reviews) {
      expect(r.review_hash).toBe(
        md5Hash(r.owner_reply ? [r.text, r.author_name, r.owner_reply.text] : [r.text, r.author_name]),
      );
    }
    expect(reviews[0]).toEqual({
      review_id: "4100000",
      author_name: "Mike W.",
      author_id: null,
      rating: 1,
      text: "Review 0: quick to set up\n\nPros:\nPipeline views are clear (review 0).\n\nCons:\nReports export slowly (review 0).\n\nOverall:\nWe moved our sales team to it in a week (review 0).",
      url: REVIEWS_PAGE,
      posted_at: Date.UTC(2026, 10, 20),
      review_hash: md5Hash([reviews[0].text, "Mike W."]),
      language: "en",
      source_date: "November 20, 2026",
      scraped_at: expect.any(Number),
      title: "Review 0: quick to set up",
      sub_ratings: { ease_of_use: 1, features: 4 },
    });
    expect(reviews[1]).toMatchObject({
      sub_ratings: { ease_of_use: 2, customer_service: 5, features: 4, value_for_money: 4 },
      owner_reply: {
        text: "Thank you, Sara! The new export is coming in December.",
        posted_at: Date.UTC(2026, 10, 19),
      },
    });
    expect(reviews[7]).toMatchObject({ text: "Review 7: solid pipeline tracking" });
    // No text at all, and a dateless vendor response: the hash still holds text, author and reply.
    expect(reviews[30]).toMatchObject({
      text: "",
      author_name: "Mike W.",
      owner_reply: { text: "Sorry to hear that, please write to support.", posted_at: null },
    });
    expect(reviews[30]).not.toHaveProperty("title");
    expect(reviews[30].review_hash).toBe(
      md5Hash(["", "Mike W.", "Sorry to hear that, please write to support."]),
    );
  });

  it("an incremental run walks every page (the order is not newest first) and returns only the reviews the client lacks", async () => {
    const helpful = mostHelpfulFirst(ACME_REVIEWS);
    // The client has everything but the three newest reviews, among them the first review of page 1.
    const newest = new Set(ACME_REVIEWS.slice(0, 3).map(idOf));
    const first = await submitScrape("capterra.com", "2001");
    await queue().drain();
    const known = ((await retrieve(first, 1, 100)).reviews as { review_id: string; review_hash: string }[])
      .filter((r) => !newest.has(r.review_id))
      .map((r) => r.review_hash);
    expect(known).toHaveLength(57);
    // Page 1 starts with a known review: a newest-first walk would stop there and miss the rest.
    expect(newest.has(idOf(helpful[0]))).toBe(false);
    const before = await fixtureRequests("capterra.com", "/p/2001/Acme-CRM/reviews/");
    const task = await submitScrape("capterra.com", "2001", { last_review_hashes: known });
    await queue().drain();
    const after = await fixtureRequests("capterra.com", "/p/2001/Acme-CRM/reviews/");
    expect(Object.fromEntries(Object.entries(after).map(([k, n]) => [k, n - (before[k] ?? 0)]))).toEqual({
      "/p/2001/Acme-CRM/reviews/": 1,
      "/p/2001/Acme-CRM/reviews/?page=2": 1,
      "/p/2001/Acme-CRM/reviews/?page=3": 1,
    });
    const body = await retrieve(task, 1, 100);
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      ACME_REVIEWS.slice(0, 3).map(idOf),
    );
  });

  it("since filters without ending the walk: an older review on page 1 may be followed by a newer one", async () => {
    const task = await submitScrape("capterra.com", "2001", { options: { since: "2026-11-01" } });
    await queue().drain();
    const body = await retrieve(task, 1, 100);
    const recent = ACME_REVIEWS.filter((r) => r.postedAt >= Date.UTC(2026, 10, 1)).map(idOf);
    expect(recent).toHaveLength(20);
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(recent);
    expect(body.coverage).toMatchObject({ collected: 20, stop_reason: null });
  });

  it("a product without reviews completes with none", async () => {
    const task = await submitScrape("capterra.com", "https://www.capterra.com/p/2002/Quiet-Tool/");
    await queue().drain();
    const body = await retrieve(task);
    expect([body.task_status, body.reviews, body.business.profile_key]).toEqual([
      200,
      [],
      "https://www.capterra.com/p/2002/Quiet-Tool/reviews/",
    ]);
  });

  it("keeps the pages Capterra serves and says so when its pages stop before its count", async () => {
    const task = await submitScrape("capterra.com", "2503");
    await queue().drain();
    const body = await retrieve(task, 1, 100);
    expect(body.task_status).toBe(200);
    expect(body.reviews).toHaveLength(50);
    expect(body.coverage).toEqual({
      publisher_total: 60,
      collected: 50,
      complete: false,
      stop_reason: "limited_view: capterra serves no reviews on page 3 of the 3 its count of 60 spans",
    });
  });

  it.each([
    ["2404", "profile_not_found"],
    ["2403", "blocked"],
    ["2429", "blocked"],
    ["2430", "blocked"],
  ])("product %s fails with %s", async (id, reason) => {
    const task = await submitScrape("capterra.com", id);
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed(reason));
  });

  it.each([
    [
      "2500",
      "Capterra page: no RSC payload (self.__next_f) with the product's reviewSummary and textReviews",
    ],
    ["2501", "textReviews.0.overallRating"],
    ["2502", "Capterra page: no reviews on page 1 of a product with 40"],
  ])("a changed page (product %s) fails with publisher_error and the log names %s", async (id, missing) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const task = await submitScrape("capterra.com", id);
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, task.taskId)).toContain(missing);
  });
});
