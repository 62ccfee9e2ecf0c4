/** capterra.com: profile_key rules, the reviews endpoint's answer, and end to end through the Worker and scrape-capterra. */
import { describe, expect, it, vi } from "vitest";
import { parseReviews, reviewsUrl, REVIEWS_PER_PAGE } from "../../../src/publishers/capterra/reviews";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, md5Hash, retrieve, submitScrape } from "../../e2e/support";
import { ACME_HITS } from "./data";
import fixture, { SIZE } from "./site";
import { failed, queuePerTest, scrapeError } from "../support";

const REVIEWS_PAGE = "https://www.capterra.com/p/2001/Acme-CRM/reviews/";

function answer(productId: string, from: number): unknown {
  const url = new URL(reviewsUrl(productId, from));
  return JSON.parse(
    fixture.site({
      url,
      cookie: "",
      count: 1,
      method: "GET",
      host: "www.capterra.com",
      headers: {},
      body: "",
    }).body,
  );
}

describe("capterra reviews endpoint", () => {
  it("asks for the newest reviews of the product, 25 from an offset", () => {
    const url = new URL(reviewsUrl("2001", 50));
    expect(url.origin + url.pathname).toBe("https://www.capterra.com/spotlight/rest/reviews");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      apiVersion: "2",
      productId: "2001",
      from: "50",
      size: "25",
      sort: "mostRecent",
    });
    expect(REVIEWS_PER_PAGE).toBe(SIZE);
  });

  it("reads a page: native ids, title and sections as text, the instant written, language, the vendor's response, next offset", () => {
    const page = parseReviews(answer("2001", 0), 0, REVIEWS_PAGE);
    expect(page.nextOffset).toBe(25);
    expect(page.reviews).toHaveLength(25);
    expect(page.reviews[0]).toEqual({
      id: "4100000",
      author_name: "Mike W.",
      rating: { value: 1, best: 5, worst: 1 },
      text: "Review 0: quick to set up\n\nPros:\nPipeline views are clear (review 0).\n\nCons:\nReports export slowly (review 0).\n\nOverall:\nWe moved our sales team to it in a week (review 0).",
      url: REVIEWS_PAGE,
      date: "2026-11-20T00:17:00-04:00",
      language: "en",
    });
    expect(page.reviews[1]).toMatchObject({
      id: "4099963",
      reply_text: "Thank you, Sara! The new export is coming in December.",
      reply_date: "2026-11-19T10:30:00.000Z",
    });
    // The reviewer's own German words, not Capterra's machine translation.
    expect(page.reviews[2]).toMatchObject({
      language: "de",
      text: "Sehr gutes Werkzeug für kleine Teams\n\nPros:\nDie Pipeline ist übersichtlich und schnell eingerichtet.\n\nCons:\nBerichte sind etwas langsam.",
    });
    expect(page.reviews[7].text).toBe("Review 7: solid pipeline tracking");
    // A vendor entry without text is no reply.
    expect(page.reviews[4]).not.toHaveProperty("reply_text");
    expect(parseReviews(answer("2001", 50), 50, REVIEWS_PAGE).nextOffset).toBeNull();
  });

  it("a moved list, a renamed rating and an empty page under a non-zero total are publisher_error naming what is wrong", () => {
    expect(scrapeError(() => parseReviews(answer("2500", 0), 0, REVIEWS_PAGE))).toMatchObject({
      reason: "publisher_error",
      message: expect.stringContaining("at hits"),
    });
    expect(scrapeError(() => parseReviews(answer("2501", 0), 0, REVIEWS_PAGE)).message).toContain(
      "hits.0.overallRating",
    );
    expect(scrapeError(() => parseReviews(answer("2502", 0), 0, REVIEWS_PAGE)).message).toBe(
      "Capterra reviews: no reviews at offset 0 although totalHits is 40",
    );
  });
});

describe("capterra end to end", () => {
  const queue = queuePerTest();

  it("opens the product page once, walks the endpoint newest first over three pages, and returns each review exactly", async () => {
    const task = await submitScrape("capterra.com", "2001");
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-capterra", "ack"]]);
    expect(await fixtureRequests("capterra.com", "/p/2001/")).toEqual({
      "/p/2001/": 1,
      "/p/2001/Acme-CRM/": 1,
    });
    expect(
      await fixtureRequests("capterra.com", "/spotlight/rest/reviews?apiVersion=2&productId=2001&"),
    ).toEqual(
      Object.fromEntries(
        [0, 25, 50].map((from) => [
          `/spotlight/rest/reviews?apiVersion=2&productId=2001&from=${from}&size=25&sort=mostRecent`,
          1,
        ]),
      ),
    );

    const body = await retrieve(task, 1, 100);
    expect(body.business.profile_key).toBe(REVIEWS_PAGE);
    expect(body.business.reviews_urls).toHaveLength(3);
    expect(body.pagination).toMatchObject({ total_reviews: 60, total_pages: 1 });
    const reviews = body.reviews as Record<string, any>[];
    expect(reviews.map((r) => r.review_id)).toEqual(ACME_HITS.map((h) => h.reviewId));
    expect(reviews.map((r) => r.rating)).toEqual(ACME_HITS.map((h) => h.overallRating));
    expect(reviews.map((r) => r.author_name)).toEqual(ACME_HITS.map((h) => h.reviewer.fullName));
    for (let i = 1; i < reviews.length; i++)
      expect(reviews[i].posted_at).toBeLessThan(reviews[i - 1].posted_at);
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
      posted_at: Date.UTC(2026, 10, 20, 4, 17, 0),
      review_hash: md5Hash([reviews[0].text, "Mike W."]),
      language: "en",
      source_date: "2026-11-20T00:17:00-04:00",
      scraped_at: expect.any(Number),
    });
    expect(reviews[1].owner_reply).toEqual({
      text: "Thank you, Sara! The new export is coming in December.",
      posted_at: Date.UTC(2026, 10, 19, 10, 30),
    });
    expect(reviews[2]).toMatchObject({ language: "de", text: expect.stringMatching(/^Sehr gutes Werkzeug/) });
    // No text at all, and a dated-less vendor response: the hash still holds text, author and reply.
    expect(reviews[30]).toMatchObject({
      text: "",
      author_name: "Mike W.",
      owner_reply: { text: "Sorry to hear that, please write to support.", posted_at: null },
    });
    expect(reviews[30].review_hash).toBe(
      md5Hash(["", "Mike W.", "Sorry to hear that, please write to support."]),
    );

    const last = await retrieve(task, 3, 25);
    expect(last.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      ACME_HITS.slice(50).map((h) => h.reviewId),
    );
    expect(last.pagination).toMatchObject({ page: 3, total_pages: 3, has_next: false, has_previous: true });
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
    ["2500", "Capterra reviews: unexpected answer at hits"],
    ["2501", "hits.0.overallRating"],
    ["2502", "no reviews at offset 0 although totalHits is 40"],
  ])("a changed answer (product %s) fails with publisher_error and the log names %s", async (id, missing) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const task = await submitScrape("capterra.com", id);
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, task.taskId)).toContain(missing);
  });
});
