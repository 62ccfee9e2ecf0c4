/** agoda.com: profile_key rules, the review comments answer, and end to end through the Worker and scrape-agoda. */
import { describe, expect, it, vi } from "vitest";
import { agoda } from "../../../src/publishers/agoda";
import { parseAgodaPage, reviewCommentsRequest } from "../../../src/publishers/agoda/reviews";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureJson, parseContext } from "../walk-support";
import fixture, { GRAND_COMMENTS } from "./site";

const PAGE = "https://www.agoda.com/partners/partnersearch.aspx?hid=26210260";
const answer = (hotelId: string, page: number) => {
  const request = reviewCommentsRequest(hotelId, { page, token: null });
  return fixtureJson(fixture, request.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(request.options.json),
  });
};
const ctx = (page: number) => parseContext("26210260", PAGE, { page, token: null });

describe("agoda review comments answer", () => {
  it("posts the body the 2026 clients send: Agoda's own provider 332, 50 a page, sorting 1 (most recent)", () => {
    const request = reviewCommentsRequest("26210260", { page: 2, token: null });
    expect(request.url).toBe("https://www.agoda.com/api/cronos/property/review/ReviewComments");
    expect(request.options).toEqual({
      method: "POST",
      json: {
        hotelId: 26210260,
        providerId: 332,
        demographicId: 0,
        page: 2,
        pageSize: 50,
        sorting: 1,
        providerIds: [332],
        isReviewPage: false,
        isCrawlablePage: true,
        filters: { language: [], room: [] },
        searchKeyword: "",
        searchFilters: [],
      },
    });
  });

  it("reads a page: ids, names, 10-point ratings, the original text with positives and negatives, dates, language, country, counts", () => {
    const page = parseAgodaPage(answer("26210260", 1), ctx(1));
    expect(page.next).toEqual({ page: 2, token: null });
    // 50 on the page; one from provider 3038 (9) and one without an id (20) are skipped.
    expect(page.reviews).toHaveLength(48);
    expect(page.reviews[0]).toEqual({
      id: "948353800",
      author_name: "Guest 0",
      rating: { value: 9.6, best: 10, worst: 1 },
      text: "Stay 0\n\nRoom 0 was clean.\n\nPositives: Breakfast\n\nNegatives: Parking",
      // Also a field of its own (issue 36); the text keeps it first.
      title: "Stay 0",
      url: PAGE,
      date: "2026-11-18T10:37:00+07:00",
      language: "en",
      author_country: "my",
      author_review_count: 0,
      reply_text: "Thank you for staying with us, we hope to welcome you back soon.",
      reply_date: "2026-11-19T09:12:00+07:00",
    });
    expect(page.reviews[1]).toEqual({
      id: "948353799",
      author_name: "Rizal",
      rating: { value: 7, best: 10, worst: 1 },
      text: "Cocok untuk keluarga\n\nKolamnya besar dan ada perosotan air untuk anak-anak.",
      // The reviewer's original title, not Agoda's translation of it.
      title: "Cocok untuk keluarga",
      url: PAGE,
      date: "2026-11-17T10:37:00+07:00",
      language: "id",
      author_country: "id",
      author_review_count: 1,
    });
    expect(page.reviews.map((r) => r.id)).not.toContain("948353791");
    expect(parseAgodaPage(answer("26210260", 2), ctx(2))).toMatchObject({ next: null });
    // A plain page states no total; page 1 as the walk fetches it carries the summary's.
    expect(page).not.toHaveProperty("publisherTotal");
  });

  it("takes Agoda's own comment count from the summary (provider 332's totalIndex), null when it does not say", () => {
    const summary = fixtureJson(fixture, "https://www.agoda.com/api/cronos/property/review/HotelReviews", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ hotelId: 26210260 }),
    });
    const first = (s: unknown) => ({ kind: "agoda-first-page", comments: answer("26210260", 1), summary: s });
    expect(parseAgodaPage(first(summary), ctx(1)).publisherTotal).toBe(59);
    expect(parseAgodaPage(first(null), ctx(1)).publisherTotal).toBeNull();
    expect(
      parseAgodaPage(first({ commentList: { providerList: [{ id: 3038, totalIndex: 5 }] } }), ctx(1))
        .publisherTotal,
    ).toBeNull();
  });

  it("an answer without comments is publisher_error naming it", () => {
    expect(scrapeError(() => parseAgodaPage(answer("4040", 1), ctx(1))).message).toContain(
      "Agoda review comments: unexpected answer at comments",
    );
  });

  it("hostile answers end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseAgodaPage);
    expectHostileInputHandled(parseAgodaPage, (comments) => ({ comments }), { wrapsItems: true });
  });

  it("states its evidence date", () => {
    expect(agoda.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
  });
});

describe("agoda end to end", () => {
  const queue = queuePerTest();

  it("walks the API over two pages and returns each Agoda review exactly", async () => {
    const task = await submitScrape("agoda.com", "26210260");
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-agoda", "ack"]]);
    expect(await fixtureRequests("agoda.com", "/api/cronos/")).toEqual({
      "/api/cronos/property/review/ReviewComments": 2,
      "/api/cronos/property/review/HotelReviews": 1,
    });
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    const reviews = body.reviews as Record<string, unknown>[];
    const expected = GRAND_COMMENTS.filter((c) => c.hotelReviewId && c.providerId === 332);
    expect(reviews.map((r) => r.review_id)).toEqual(expected.map((c) => String(c.hotelReviewId)));
    expect(reviews[1]).toMatchObject({
      review_id: "948353799",
      author_name: "Rizal",
      // 7 of 10: round(1 + 6 × 4 / 9) = 4.
      rating: 4,
      text: "Cocok untuk keluarga\n\nKolamnya besar dan ada perosotan air untuk anak-anak.",
      // The reviewer's original title, not Agoda's translation of it.
      title: "Cocok untuk keluarga",
      url: PAGE,
      posted_at: Date.UTC(2026, 10, 17, 3, 37),
    });
    expect(reviews.at(-1)).toMatchObject({
      review_id: "948353741",
      posted_at: Date.UTC(2026, 10, 18, 3, 37) - 59 * 86_400_000,
    });
    expect(reviews[0].owner_reply).toEqual({
      text: "Thank you for staying with us, we hope to welcome you back soon.",
      posted_at: Date.UTC(2026, 10, 19, 2, 12),
    });
    // 58 listed of the 59 Agoda states: within the tolerance, so the walk counts as complete.
    expect(body.coverage).toEqual({ publisher_total: 59, collected: 58, complete: true, stop_reason: null });
  });

  it("a changed answer is publisher_error naming what is missing", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const moved = await submitScrape("agoda.com", "4040");
    await queue().drain();
    expect((await retrieve(moved)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, moved.taskId)).toContain(
      "Agoda review comments: unexpected answer at comments",
    );
  });
});
