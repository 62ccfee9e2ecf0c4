/** smartcustomer.com and its alias sitejabber.com (profile_key examples: the module's own, run by ../contract.test.ts): the review pages' JSON-LD and markup, hostile pages, and end to end through the Worker and scrape-smartcustomer. */
import { describe, expect, it, vi } from "vitest";
import { smartcustomer } from "../../../src/publishers/smartcustomer";
import {
  parseSmartCustomerPage,
  readSmartCustomerPage,
  smartCustomerPageUrl,
} from "../../../src/publishers/smartcustomer/reviews";
import { WorkBudget } from "../../../src/publishers/kit/work-budget";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { hostilePages, withinBudget } from "../hostile-inputs";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureAnswer, parseContext } from "../walk-support";
import fixture, { BLUE_DOOR, ROVER } from "./site";

const ROVER_PAGE = "https://www.smartcustomer.com/reviews/rover.com";
const BLUE_DOOR_PAGE = "https://www.smartcustomer.com/reviews/blue-door.com";
const ctx = (key: string, pageUrl: string, page: number) => parseContext(key, pageUrl, { page, token: null });
const read = (pageUrl: string, page: number) =>
  readSmartCustomerPage(
    fixtureAnswer(fixture, smartCustomerPageUrl(pageUrl, { page, token: null })).body,
    new WorkBudget("test"),
  );
const parse = async (key: string, pageUrl: string, page: number) =>
  parseSmartCustomerPage(await read(pageUrl, page), ctx(key, pageUrl, page));

describe("smartcustomer review pages", () => {
  it("asks for the profile page, then ?page=N", () => {
    expect(smartCustomerPageUrl(ROVER_PAGE, { page: 1, token: null })).toBe(ROVER_PAGE);
    expect(smartCustomerPageUrl(ROVER_PAGE, { page: 3, token: null })).toBe(`${ROVER_PAGE}?page=3`);
  });

  it("reads the JSON-LD Reviews exactly, with the business's rating and count as the summary", async () => {
    const page = await parse("rover.com", ROVER_PAGE, 1);
    expect(page.publisherTotal).toBe(45);
    expect(page.summary).toEqual({ rating: 4.3, ratingScale: "1-5" });
    expect(page.next).toEqual({ page: 2, token: null });
    expect(page.reviews).toHaveLength(20);
    expect(page.reviews[0]).toEqual({
      id: "review-81023456",
      author_name: "Owner 0",
      author_url: "https://www.smartcustomer.com/users/81023456",
      rating: { value: 5, best: 5, worst: 1 },
      title: "Sitter 0",
      text: "Sitter 0\n\nOur walker came every day on time and sent photos.",
      url: `${ROVER_PAGE}#review-81023456`,
      date: "2026-10-31",
    });
    expect(page.reviews[2]).toMatchObject({ title: "丁寧な対応", date: "2026-10-29" });
  });

  it("the last page ends the walk; a Review without a rating is skipped, not the page", async () => {
    const second = await parse("rover.com", ROVER_PAGE, 2);
    expect(second.reviews.map((r) => r.id)).not.toContain(`review-${ROVER[30].id}`);
    expect(second.reviews).toHaveLength(19);
    const last = await parse("rover.com", ROVER_PAGE, 3);
    expect([last.next, last.reviews.length]).toEqual([null, 5]);
  });

  it("reads the review markup where the JSON-LD carries no Review", async () => {
    const page = await parse("blue-door.com", BLUE_DOOR_PAGE, 1);
    expect([page.publisherTotal, page.next, page.reviews.length]).toEqual([25, { page: 2, token: null }, 20]);
    expect(page.reviews[1]).toEqual({
      author_name: "Priya S.",
      rating: { value: 4, best: 5, worst: 1 },
      title: "Sitter 1",
      text: "Sitter 1\n\nStay 1 went well.",
      url: BLUE_DOOR_PAGE,
      date: "2026-10-30T00:00:00Z",
    });
    expect((await parse("blue-door.com", BLUE_DOOR_PAGE, 2)).next).toBeNull();
  });

  it("a business without reviews completes with none", async () => {
    const page = await parse("quiet.com", "https://www.smartcustomer.com/reviews/quiet.com", 1);
    expect([page.reviews, page.next, page.publisherTotal]).toEqual([[], null, 0]);
  });

  it("a page without reviews in either form, or whose Reviews lack the assumed fields, is publisher_error naming them", async () => {
    const redesign = "https://www.smartcustomer.com/reviews/redesign.com";
    expect(
      scrapeError(() => parseSmartCustomerPage({ items: [], cards: [] }, ctx("x", redesign, 1))).message,
    ).toBe(
      "SmartCustomer reviews page: no JSON-LD business node with aggregateRating, no schema.org Review and no div.review card",
    );
    const renamed = "https://www.smartcustomer.com/reviews/renamed.com";
    const data = await read(renamed, 1);
    expect(scrapeError(() => parseSmartCustomerPage(data, ctx("renamed.com", renamed, 1))).message).toBe(
      "SmartCustomer reviews page: none of the 3 Review nodes has the assumed fields (reviewRating.ratingValue (1–5), datePublished)",
    );
    const stated = { items: [{ name: "x", aggregateRating: { reviewCount: 7 } }], cards: [] };
    expect(scrapeError(() => parseSmartCustomerPage(stated, ctx("x", redesign, 1))).message).toBe(
      "SmartCustomer reviews page: the JSON-LD states 7 reviews but page 1 carries no schema.org Review and no div.review card",
    );
    const starless = { items: [], cards: [{ title: "t", text: "b", stars: 0, date: null, author: "" }] };
    expect(scrapeError(() => parseSmartCustomerPage(starless, ctx("x", redesign, 1))).message).toMatch(
      /none of the 1 div\.review cards has the assumed fields/,
    );
  });

  it("hostile JSON-LD ends as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseSmartCustomerPage);
    expectHostileInputHandled(
      parseSmartCustomerPage,
      (review) => ({ items: [{ name: "B", aggregateRating: {}, review }], cards: [] }),
      { wrapsItems: true },
    );
  });

  it("hostile pages (2 MB unclosed markup, deep nesting, repeated cards and JSON-LD) stay within budget", async () => {
    const pages = hostilePages([
      '<script type="application/ld+json">',
      '{"review":[[',
      '<div class="review"><div class="review__rating"><i class="star--filled">',
      '<h3 class="review__title">',
    ]);
    for (const html of Object.values(pages))
      await withinBudget(async (b) =>
        parseSmartCustomerPage(await readSmartCustomerPage(html, b), ctx("x", ROVER_PAGE, 1)),
      );
  });

  it("states its evidence date and its summary fields", () => {
    expect(smartcustomer.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
    expect(smartcustomer.summaryFields).toEqual(["rating", "review_count"]);
  });
});

describe("smartcustomer end to end", () => {
  const queue = queuePerTest();

  it("walks a sitejabber.com profile on smartcustomer.com over three pages, newest first, with the publisher summary", async () => {
    const task = await submitScrape("sitejabber.com", "https://www.sitejabber.com/reviews/Rover.com?page=2");
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-smartcustomer", "ack"]]);
    expect(await fixtureRequests("smartcustomer.com", "/reviews/rover.com")).toEqual({
      "/reviews/rover.com": 1,
      "/reviews/rover.com?page=2": 1,
      "/reviews/rover.com?page=3": 1,
    });
    const body = await retrieve(task, 1, 100);
    expect(body.business.profile_key).toBe(ROVER_PAGE);
    expect(body.business.publisher_summary).toEqual({
      rating: 4.3,
      rating_scale: "1-5",
      review_count: 45,
      histogram: null,
    });
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(
      ROVER.filter((r) => r.rating !== null).map((r) => `review-${r.id}`),
    );
    expect(reviews[1]).toMatchObject({
      author_name: "Priya S.",
      rating: 4,
      title: "Sitter 1",
      text: "Sitter 1\n\nStay 1 went well.",
      url: `${ROVER_PAGE}#review-${ROVER[1].id}`,
      posted_at: Date.UTC(2026, 9, 30),
    });
    // Japanese text normalises like any other: ISO 639-1 language, the calendar date kept.
    expect(reviews[2]).toMatchObject({ language: "ja", posted_at: Date.UTC(2026, 9, 29) });
    expect(body.coverage).toMatchObject({ publisher_total: 45, collected: 44 });
  });

  it("walks a markup-only business over two pages", async () => {
    const task = await submitScrape("smartcustomer.com", "blue-door.com");
    await queue().drain();
    const body = await retrieve(task, 1, 100);
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => [r.author_name, r.rating])).toEqual(BLUE_DOOR.map((r) => [r.author, r.rating]));
  });

  it("an unknown business is profile_not_found; a challenge is blocked; a redesigned page is publisher_error", async () => {
    const gone = await submitScrape("smartcustomer.com", "https://www.smartcustomer.com/reviews/gone.com");
    const walled = await submitScrape(
      "smartcustomer.com",
      "https://www.smartcustomer.com/reviews/walled.com",
    );
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const redesign = await submitScrape(
      "smartcustomer.com",
      "https://www.smartcustomer.com/reviews/redesign.com",
    );
    await queue().drain();
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    expect((await retrieve(walled)).response_message).toEqual(failed("blocked"));
    expect((await retrieve(redesign)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, redesign.taskId)).toContain("no JSON-LD business node with aggregateRating");
  });
});
