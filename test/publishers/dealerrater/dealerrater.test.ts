/** dealerrater.com (profile_key examples: the module's own, run by ../contract.test.ts): review entries with title and sub-ratings, hostile pages, and end to end through the Worker and scrape-dealerrater. */
import { describe, expect, it, vi } from "vitest";
import { dealerrater } from "../../../src/publishers/dealerrater";
import {
  parseDealerPage,
  printedDate,
  ratingOfClass,
  readDealerPage,
} from "../../../src/publishers/dealerrater/reviews";
import { WorkBudget } from "../../../src/publishers/kit/work-budget";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { hostilePages, withinBudget } from "../hostile-inputs";
import { failed, queuePerTest } from "../support";
import { fixtureAnswer, parseContext } from "../walk-support";
import fixture, { MCKAIG, MCKAIG_REVIEWS } from "./site";

const PROFILE = `https://www.dealerrater.com/dealer/${MCKAIG}-review-23685/`;
const SMALL = "https://www.dealerrater.com/dealer/Small-Town-Motors-review-30001/";
const ctx = (key: string, pageUrl: string, page: number) => parseContext(key, pageUrl, { page, token: null });
const read = (profile: string, page: number) =>
  readDealerPage(
    fixtureAnswer(fixture, `${profile}page${page}/?filter=ALL_REVIEWS`).body,
    new WorkBudget("test"),
  );

describe("dealerrater review page", () => {
  it("reads an entry exactly: id and share link, reviewer, stars, quoted title, text with entities and line break, date, sub-ratings without the unrated one", async () => {
    const page = parseDealerPage(await read(PROFILE, 1), ctx("23685", PROFILE, 1));
    expect(page.next).toEqual({ page: 2, token: null });
    expect(page.reviews).toHaveLength(10);
    expect(page.reviews[0]).toEqual({
      id: "9900000",
      url: "https://www.dealerrater.com/consumer/social/9900000",
      author_name: "Abygail R.",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Adrian walked me through every detail & the financing.\nI’m going to love this truck!",
      title: "First time buying and they made it easy & quick...",
      date: "2026-11-20",
      sub_ratings: { customer_service: 5, friendliness: 5, pricing: 5, overall_experience: 5 },
    });
    expect(page.reviews[1]).toEqual({
      id: "9899989",
      url: "https://www.dealerrater.com/consumer/social/9899989",
      author_name: "Buyer 1",
      rating: { value: 4, best: 5, worst: 1 },
      text: "Review body 1.",
      title: "Visit number 1 went fine",
      date: "2026-11-18",
      sub_ratings: {
        customer_service: 4,
        quality_of_work: 4,
        friendliness: 5,
        pricing: 3,
        overall_experience: 4,
      },
    });
    // No JSON-LD on the page: no stated total or summary.
    expect([page.publisherTotal, page.summary]).toEqual([undefined, undefined]);
    const last = parseDealerPage(await read(PROFILE, 3), ctx("23685", PROFILE, 3));
    expect([last.next, last.reviews.length]).toEqual([null, 3]);
  });

  it("finds the next page's link among hundreds of other links", async () => {
    const menu = Array.from({ length: 800 }, (_, i) => `<a href="/dealer/Other-review-${i}/">d${i}</a>`).join(
      "",
    );
    const html = fixtureAnswer(fixture, `${PROFILE}page1/`).body.replace("<body>", `<body>${menu}`);
    const page = parseDealerPage(
      await readDealerPage(html, new WorkBudget("test")),
      ctx("23685", PROFILE, 1),
    );
    expect(page.next).toEqual({ page: 2, token: null });
  });

  it("reads a JSON-LD aggregateRating where the page has one into the publisher's total and rating", async () => {
    const page = parseDealerPage(await read(SMALL, 1), ctx("30001", SMALL, 1));
    expect(page.publisherTotal).toBe(3);
    expect(page.summary).toEqual({ rating: 4.7, ratingScale: "1-5" });
    expect(page.next).toBeNull();
  });

  it("reads ratings in tenths of a star and dates as printed", () => {
    expect(ratingOfClass("rating-static hidden-xs rating-50 margin-center")).toBe(5);
    expect(ratingOfClass("rating-static-indv rating-45 td")).toBe(4.5);
    expect(ratingOfClass("rating-static-indv rating-00 td")).toBeNull();
    expect(ratingOfClass("rating-static-indv rating-501 td")).toBeNull();
    expect(printedDate("October 14, 2021")).toBe("2021-10-14");
    expect(printedDate("Sept 7, 2024")).toBe("2024-09-07");
    expect(printedDate("3 days ago")).toBe("3 days ago");
  });

  it("a page without review entries, or whose entries lost their stars, is publisher_error naming what is missing", async () => {
    const redesign = await readDealerPage(
      fixtureAnswer(fixture, "https://www.dealerrater.com/dealer/Redesign-review-50000/page1/").body,
      new WorkBudget("test"),
    );
    expect(() => parseDealerPage(redesign, ctx("50000", PROFILE, 1))).toThrow(
      "DealerRater review page: no div.review-entry blocks on page 1",
    );
    const unstarred = await readDealerPage(
      fixtureAnswer(fixture, `${PROFILE}page1/`).body.replace(/rating-static (\w+-\w+ )?/g, "stars "),
      new WorkBudget("test"),
    );
    expect(() => parseDealerPage(unstarred, ctx("23685", PROFILE, 1))).toThrow(
      "DealerRater review page: no review on page 1 has its rating",
    );
  });

  it("hostile pages (2 MB unclosed markup, deep nesting, its own markup repeated) end within budget", async () => {
    const pages = hostilePages([
      '<div class="review-entry">',
      '<div class="review-entry"><p class="review-content">',
      '<div class="review-ratings-all"><div class="lt-grey">',
      '<a href="/dealer/x-review-1/page2/">',
    ]);
    for (const html of Object.values(pages))
      await withinBudget(async (b) =>
        parseDealerPage(await readDealerPage(html, b), { ...ctx("1", PROFILE, 1), budget: b }),
      );
  });

  it("states its evidence date", () => {
    expect(dealerrater.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
  });
});

describe("dealerrater end to end", () => {
  const queue = queuePerTest();

  it("walks a dealer's pages newest first, following each page's link, and returns title and sub-ratings", async () => {
    const task = await submitScrape("dealerrater.com", `${PROFILE}page2/?filter=ALL_REVIEWS#link`);
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-dealerrater", "ack"]]);
    expect(await fixtureRequests("dealerrater.com", "/dealer/")).toEqual(
      Object.fromEntries(
        [1, 2, 3].map((page) => [`/dealer/${MCKAIG}-review-23685/page${page}/?filter=ALL_REVIEWS`, 1]),
      ),
    );
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PROFILE);
    expect(body.coverage).toMatchObject({ collected: 23, complete: true });
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(MCKAIG_REVIEWS.map((r) => String(r.id)));
    expect(reviews[0]).toMatchObject({
      review_id: "9900000",
      author_name: "Abygail R.",
      rating: 5,
      title: "First time buying and they made it easy & quick...",
      text: "Adrian walked me through every detail & the financing.\nI’m going to love this truck!",
      sub_ratings: { customer_service: 5, friendliness: 5, pricing: 5, overall_experience: 5 },
      url: "https://www.dealerrater.com/consumer/social/9900000",
      posted_at: Date.UTC(2026, 10, 20),
    });
    expect(reviews[22]).toMatchObject({ rating: 5, posted_at: Date.UTC(2026, 10, 20) - 22 * 2 * 86_400_000 });
  });

  it("fills publisher_summary from a JSON-LD aggregateRating", async () => {
    const task = await submitScrape("dealerrater.com", SMALL);
    await queue().drain();
    const body = await retrieve(task, 1, 200);
    expect(body.business.publisher_summary).toEqual({
      rating: 4.7,
      rating_scale: "1-5",
      review_count: 3,
      histogram: null,
    });
    expect(body.coverage).toMatchObject({ publisher_total: 3, collected: 3, complete: true });
  });

  it("an unknown dealer is profile_not_found; a page without entries is publisher_error; an empty linked page ends the walk as incomplete", async () => {
    const gone = await submitScrape(
      "dealerrater.com",
      "https://www.dealerrater.com/dealer/Gone-review-40404/",
    );
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const redesign = await submitScrape(
      "dealerrater.com",
      "https://www.dealerrater.com/dealer/Redesign-review-50000/",
    );
    const emptied = await submitScrape(
      "dealerrater.com",
      "https://www.dealerrater.com/dealer/Emptied-review-60000/",
    );
    await queue().drain();
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    expect((await retrieve(redesign)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, redesign.taskId)).toContain("no div.review-entry blocks on page 1");
    // Page 1's reviews are kept; the task says the walk did not reach the end, and why.
    const emptiedBody = await retrieve(emptied, 1, 200);
    expect(emptiedBody.reviews).toHaveLength(3);
    expect(emptiedBody.coverage).toEqual({
      publisher_total: null,
      collected: 3,
      complete: false,
      stop_reason: "publisher_error: DealerRater review page: no div.review-entry blocks on page 2",
    });
  });
});
