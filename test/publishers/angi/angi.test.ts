/**
 * angi.com, angieslist.com and homeadvisor.com (profile_key examples: the module's own, run by
 * ../contract.test.ts): Angi's RSC profile page, HomeAdvisor's ratings JSON, hostile input, and end
 * to end through scrape-angi.
 */
import { describe, expect, it, vi } from "vitest";
import { angi } from "../../../src/publishers/angi";
import { angiDate, angiPageRoots, parseAngiPage } from "../../../src/publishers/angi/angi-page";
import { homeAdvisorReviewsUrl, parseHomeAdvisorPage } from "../../../src/publishers/angi/homeadvisor";
import { WorkBudget } from "../../../src/publishers/kit/work-budget";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { hostilePages, withinBudget } from "../hostile-inputs";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureAnswer, fixtureJson, parseContext } from "../walk-support";
import fixture, { HA_RATINGS, LONG_TEXT, PLUMBING_REVIEWS, SMALL_REVIEWS } from "./site";

const PLUMBING_PATH = "/companylist/us/il/barrington/all-affordable-plumbing-inc-reviews-6480784.htm";
const PLUMBING = `https://www.angi.com${PLUMBING_PATH}`;
const SMALL = "https://www.angi.com/companylist/us/il/barrington/small-fix-llc-reviews-7000001.htm";
const HA_PAGE = "https://www.homeadvisor.com/rated.AllAffordablePlumbing.158720676.html";
const angiCtx = (url: string) => parseContext("angi:1", url, { page: 1, token: null });
const haCtx = (page: number) => parseContext("homeadvisor:158720676", HA_PAGE, { page, token: null });
const roots = (url: string) => angiPageRoots(fixtureAnswer(fixture, url).body, new WorkBudget("test"));
const ratings = (page: number) => fixtureJson(fixture, homeAdvisorReviewsUrl("158720676", page));

describe("Angi profile page (RSC props)", () => {
  it("reads the 25 newest reviews exactly, the count, the average and histogram, and names the rest as a limited view", async () => {
    const page = parseAngiPage(await roots(PLUMBING), angiCtx(PLUMBING));
    expect(page.next).toBeNull();
    expect(page.publisherTotal).toBe(166);
    expect(page.summary).toEqual({
      rating: 4.933734939759036,
      ratingScale: "1-5",
      histogram: { 1: 0, 2: 0, 3: 1, 4: 9, 5: 156 },
    });
    expect(page.limitedView).toBe(
      "Angi's profile page carries its newest 25 of 166 reviews; how later pages are requested is not " +
        "established by public evidence (the page's pageLinkQuery is unset)",
    );
    expect(page.reviews.map((r) => r.id)).toEqual(PLUMBING_REVIEWS.map((r) => r.reviewId));
    expect(page.reviews[0]).toEqual({
      id: "d42e0000-ab9f-45fc-9296-a4f9aaa51d8d",
      author_name: "Carl S.",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Called to let me know he was on his way.  Was very polite.",
      url: PLUMBING,
      date: "2026-04-01",
      language: "en",
      author_badges: ["verified"],
    });
    // Entities decoded, the photo and the company's reply read.
    expect(page.reviews[2]).toEqual({
      id: "d42e0002-ab9f-45fc-9296-a4f9aaa51d8d",
      author_name: "Reviewer 2.",
      rating: { value: 5, best: 5, worst: 1 },
      text: "So much so, I've retained their services for another project.",
      url: PLUMBING,
      date: "2026-03-01",
      language: "en",
      author_badges: ["verified"],
      photos: ["https://media-content-angieslist.s3.amazonaws.com/tampa/1/photo/bcf5f3a6-1.jpg"],
      reply_text: "Thanks for posting this wonderful review!",
    });
    // A long text comes as a T row the review refers to; an unverified reviewer has no badge.
    expect(page.reviews[3].text).toBe(LONG_TEXT);
    expect(page.reviews[4]).not.toHaveProperty("author_badges");
    expect(page.reviews[1]).toMatchObject({ rating: { value: 4 }, date: "2026-04-01" });
    expect(page.reviews[24]).toMatchObject({ date: "2025-04-01" });
  });

  it("a company whose reviews are all on the page has no limited view", async () => {
    const page = parseAngiPage(await roots(SMALL), angiCtx(SMALL));
    expect(page.reviews.map((r) => r.id)).toEqual(SMALL_REVIEWS.map((r) => r.reviewId));
    expect([page.publisherTotal, page.limitedView]).toEqual([3, null]);
  });

  it("dates a month label on the month's first day and keeps anything else as printed", () => {
    expect(angiDate("April 2026")).toBe("2026-04-01");
    expect(angiDate(" december 2025 ")).toBe("2025-12-01");
    expect(angiDate("Sept 2025")).toBe("2025-09-01");
    expect(angiDate("Spring 2025")).toBe("Spring 2025");
    expect(angiDate("2 weeks ago")).toBe("2 weeks ago");
  });

  it("the page variant without profile props is retried; no reviews yet is an empty page; a count without a list fails naming it", async () => {
    const variant = scrapeError(() => parseAngiPage([{ P: null, c: ["", "companylist"] }], angiCtx(SMALL)));
    expect([variant.reason, variant.transient]).toEqual(["publisher_error", true]);
    expect(variant.message).toContain("no profile props in its RSC payload");
    const fresh = parseAngiPage(
      await roots("https://www.angi.com/companylist/us/il/x/new-co-reviews-7000003.htm"),
      angiCtx(SMALL),
    );
    expect([fresh.reviews, fresh.publisherTotal, fresh.summary]).toEqual([[], 0, null]);
    const listless = scrapeError(() =>
      parseAngiPage([{ "data-testid": "businessProfileHero", reviewCount: 12 }], angiCtx(SMALL)),
    );
    expect([listless.reason, listless.transient]).toEqual(["publisher_error", false]);
    expect(listless.message).toBe(
      "Angi profile page: the page counts 12 reviews but carries no review list (reviews, totalCount, pageSize)",
    );
    const moved = scrapeError(() =>
      parseAngiPage([{ reviews: [{ id: 1, stars: 5 }], totalCount: 1, pageSize: 25 }], angiCtx(SMALL)),
    );
    expect(moved.message).toBe(
      "Angi profile page: none of the 1 reviews has reviewId, rating (1–5) and dateLabel",
    );
  });

  it("hostile props and pages end as publisher_error or a read page, never a TypeError, within the work budget", async () => {
    const parse = (data: unknown, ctx: Parameters<typeof parseAngiPage>[1]) =>
      parseAngiPage(Array.isArray(data) ? data : [data], ctx);
    expectHostileInputHandled(parse);
    expectHostileInputHandled(parse, (reviews) => [{ reviews, totalCount: 1, pageSize: 25 }], {
      wrapsItems: true,
    });
    const pages = hostilePages([
      '<script>self.__next_f.push([1,"',
      '2d:["$","$L40",null,{"reviews":[',
      "$L2d",
    ]);
    for (const html of Object.values(pages))
      await withinBudget(async (b) => parseAngiPage(await angiPageRoots(html, b), angiCtx(SMALL)));
  });
});

describe("HomeAdvisor ratings JSON", () => {
  it("asks for a pro's ratings newest first, 10 a page, by page number", () => {
    const url = new URL(homeAdvisorReviewsUrl("158720676", 3));
    expect(url.origin + url.pathname).toBe("https://www.homeadvisor.com/sm/reviews/158720676");
    expect(Object.fromEntries(url.searchParams)).toEqual({ page: "3", sort: "newest", pageSize: "10" });
    expect(scrapeError(() => homeAdvisorReviewsUrl("../x", 1)).reason).toBe("publisher_error");
  });

  it("reads a page: ids, scores, trimmed comments, createDate as an instant; page 1 carries the pro page's count and average", () => {
    const first = parseHomeAdvisorPage(ratings(1), { total: 23, rating: 4.6 }, haCtx(1));
    expect(first.next).toEqual({ page: 2, token: null });
    expect(first.publisherTotal).toBe(23);
    expect(first.summary).toEqual({ rating: 4.6, ratingScale: "1-5" });
    // 10 on the page, one of them (6) scored 9, outside HomeAdvisor's 1–5 stars.
    expect(first.reviews).toHaveLength(9);
    expect(first.reviews[0]).toEqual({
      id: "90000023",
      author_name: "Linda V.",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Fixed the water heater the same day.",
      url: HA_PAGE,
      date: "2026-11-01T15:00:00.000Z",
      language: "en",
    });
    const last = parseHomeAdvisorPage(ratings(3), null, haCtx(3));
    expect([last.reviews.length, last.next, "publisherTotal" in last]).toEqual([3, null, false]);
    // The stated count ends the walk at a full page too.
    expect(parseHomeAdvisorPage(ratings(2), { total: 20, rating: null }, haCtx(2)).next).toBeNull();
  });

  it("an answer without ratings, or whose every rating lacks the fields, is publisher_error naming it", () => {
    expect(scrapeError(() => parseHomeAdvisorPage({ reviews: [] }, null, haCtx(1))).message).toContain(
      "HomeAdvisor reviews: unexpected answer at ratings",
    );
    expect(
      scrapeError(() => parseHomeAdvisorPage({ ratings: [{ id: 1, score: 5 }] }, null, haCtx(1))).message,
    ).toBe(
      "HomeAdvisor reviews: none of the 1 ratings has ratingID, consumerOverallScore (1–5) and createDate",
    );
  });

  it("hostile answers end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    const parse = (data: unknown, ctx: Parameters<typeof parseAngiPage>[1]) =>
      parseHomeAdvisorPage(data, null, ctx);
    expectHostileInputHandled(parse);
    expectHostileInputHandled(parse, (items) => ({ ratings: items }), { wrapsItems: true });
  });

  it("states its evidence date", () => {
    expect(angi.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
  });
});

describe("angi end to end", () => {
  const queue = queuePerTest();

  it("reads an Angi profile page once and reports the rest of its reviews as a limited view, with the publisher summary", async () => {
    const task = await submitScrape("angi.com", `${PLUMBING}?utm_source=share#reviews`);
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-angi", "ack"]]);
    expect(await fixtureRequests("angi.com", "/companylist/")).toEqual({ [PLUMBING_PATH]: 1 });
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PLUMBING);
    expect(body.business.publisher_summary).toEqual({
      rating: 4.93,
      rating_scale: "1-5",
      review_count: 166,
      histogram: { 1: 0, 2: 0, 3: 1, 4: 9, 5: 156 },
    });
    expect(body.coverage).toMatchObject({
      publisher_total: 166,
      collected: 25,
      complete: false,
      stop_reason: expect.stringMatching(/^limited_view: Angi's profile page carries its newest 25 of 166/),
    });
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(PLUMBING_REVIEWS.map((r) => r.reviewId));
    expect(reviews[0]).toMatchObject({
      author_name: "Carl S.",
      rating: 5,
      text: "Called to let me know he was on his way. Was very polite.",
      url: PLUMBING,
      posted_at: Date.UTC(2026, 3, 1),
      author_badges: ["verified"],
    });
    expect(reviews[2]).toMatchObject({
      text: "So much so, I've retained their services for another project.",
      photos: ["https://media-content-angieslist.s3.amazonaws.com/tampa/1/photo/bcf5f3a6-1.jpg"],
      owner_reply: { text: "Thanks for posting this wonderful review!" },
    });
  });

  it("takes an angieslist.com URL, retries Angi's page variant without props, and completes a company whose reviews fit the page", async () => {
    const task = await submitScrape(
      "angieslist.com",
      "https://www.angieslist.com/companylist/us/il/barrington/flip-variant-co-reviews-7000002.htm",
    );
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => d.outcome)).toEqual(["retry", "ack"]);
    expect(warn).toHaveBeenCalled();
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(
      "https://www.angi.com/companylist/us/il/barrington/flip-variant-co-reviews-7000002.htm",
    );
    expect(body.coverage).toMatchObject({ publisher_total: 3, collected: 3, complete: true });
    expect((body.reviews as Record<string, unknown>[]).map((r) => r.review_id)).toEqual(
      SMALL_REVIEWS.map((r) => r.reviewId),
    );
  });

  it("walks HomeAdvisor's ratings newest first over three pages after reading the pro page once", async () => {
    const task = await submitScrape("homeadvisor.com", HA_PAGE);
    const deliveries = await queue().drain();
    expect(deliveries.every((d) => d.queue === "scrape-angi" && d.outcome === "ack")).toBe(true);
    expect(await fixtureRequests("homeadvisor.com", "/rated.")).toEqual({
      "/rated.AllAffordablePlumbing.158720676.html": 1,
    });
    expect(await fixtureRequests("homeadvisor.com", "/sm/")).toEqual({
      ...Object.fromEntries(
        [1, 2, 3].map((page) => [`/sm/reviews/158720676?page=${page}&sort=newest&pageSize=10`, 1]),
      ),
    });
    const body = await retrieve(task, 1, 200);
    expect(body.business.publisher_summary).toEqual({
      rating: 4.6,
      rating_scale: "1-5",
      review_count: 23,
      histogram: null,
    });
    const reviews = body.reviews as Record<string, unknown>[];
    const expected = HA_RATINGS.filter((r) => r.consumerOverallScore <= 5);
    expect(reviews.map((r) => r.review_id)).toEqual(expected.map((r) => String(r.ratingID)));
    expect(reviews[0]).toMatchObject({
      author_name: "Linda V.",
      rating: 5,
      text: "Fixed the water heater the same day.",
      url: HA_PAGE,
      posted_at: Date.UTC(2026, 10, 1, 15, 0),
    });
  });

  it("a 429 is blocked after the queue's retries; an unknown profile is profile_not_found; a pro without ratings completes empty", async () => {
    const busy = await submitScrape(
      "angi.com",
      "https://www.angi.com/companylist/us/il/chicago/busy-roofing-reviews-7000004.htm",
    );
    const gone = await submitScrape(
      "angi.com",
      "https://www.angi.com/companylist/us/il/x/gone-reviews-404.htm",
    );
    const quiet = await submitScrape(
      "homeadvisor.com",
      "https://www.homeadvisor.com/rated.QuietPro.158720677.html",
    );
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await queue().drain();
    expect((await retrieve(busy)).response_message).toEqual(failed("blocked"));
    expect(failureDetails(warn, busy.taskId)).toContain("Publisher answered 429");
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    const empty = await retrieve(quiet);
    expect([empty.task_status, empty.reviews]).toEqual([200, []]);
  });
});
