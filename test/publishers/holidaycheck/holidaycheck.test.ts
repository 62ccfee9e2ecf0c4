/** holidaycheck.de: profile_key rules, the lookup by content query, the review API answer, and end to end through scrape-holidaycheck. */
import { describe, expect, it, vi } from "vitest";
import type { Business } from "../../../src/core/tasks/business";
import { holidaycheck } from "../../../src/publishers/holidaycheck";
import { CONTENT_QUERY_URL, pickHotel, SUGGEST_QUERY } from "../../../src/publishers/holidaycheck/lookup";
import { hotelReviewUrl, parseHolidaycheckPage } from "../../../src/publishers/holidaycheck/reviews";
import { business as apiBusiness } from "../../helpers/api";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureJson, parseContext } from "../walk-support";
import fixture, { BIG, MOVED, VENIQUI, VENIQUI_REVIEWS } from "./site";

const PAGE = `https://www.holidaycheck.de/hi/x/${VENIQUI}`;
const answer = (uuid: string, page: number) =>
  fixtureJson(fixture, hotelReviewUrl(uuid, { page, token: null }));
const ctx = (page: number) => parseContext(VENIQUI, PAGE, { page, token: null });
const business = (name: string, city: string): Business => ({
  id: "b1",
  name,
  address: { street: "", city, state: "", zip: "", country: "GRC" },
  phone: "",
  description: "",
  tags: [],
});
const suggestions = (q: string) =>
  fixtureJson(fixture, CONTENT_QUERY_URL, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: SUGGEST_QUERY, variables: { q, limit: 10 } }),
  });

describe("holidaycheck lookup", () => {
  it("takes the one hotel with the business's name in the business's city, not its namesake in another country", () => {
    expect(pickHotel(business("Veniqui", "Kremasti"), suggestions("Veniqui Kremasti"))).toBe(VENIQUI);
  });

  it("no match, or two, is profile_not_found", () => {
    expect(
      scrapeError(() => pickHotel(business("Veniqui", "Lindos"), suggestions("Veniqui Lindos"))),
    ).toMatchObject({ reason: "profile_not_found" });
    expect(scrapeError(() => pickHotel(business("Veniqui", ""), suggestions("Veniqui")))).toMatchObject({
      reason: "profile_not_found",
      message: "HolidayCheck: more than one hotel matches the name and city",
    });
  });
});

describe("holidaycheck review API answer", () => {
  it("asks the 2026 route for the hotel's reviews newest first, 100 a batch, by offset, in German, as matrix parameters", () => {
    expect(hotelReviewUrl(VENIQUI, { page: 2, token: null })).toBe(
      "https://www.holidaycheck.de/api/hotel-reviews" +
        `;filter=hotel.id%3A${VENIQUI};limit=100;locale=de;offset=200` +
        ";select=id%2Ctitle%2Ctexts%2Cratings%2CtravelDate%2CentryDate%2Cuser%2CtravelReason%2CtraveledWith%2Cchildren" +
        ";sort=entryDate%3Adesc",
    );
  });

  it("reads a batch: ids, user ids, suns, title and general text, entry and travel dates, the total, the next batch", () => {
    const page = parseHolidaycheckPage(answer(VENIQUI, 0), ctx(0));
    expect(page.publisherTotal).toBe(120);
    expect(page.next).toEqual({ page: 1, token: null });
    expect(page.limitedView).toBeUndefined();
    expect(page.reviews[0]).toEqual({
      id: "a1b2c3d4-0000-4000-8000-100000000000",
      author_id: "u-0",
      rating: { value: 6, best: 6, worst: 1 },
      text: "Urlaub 0\n\nAlles gut bei Aufenthalt 0.",
      url: PAGE,
      date: "2026-11-10T08:00:00.000Z",
      visit_date: "2026-10",
      language: "de",
      title: "Urlaub 0",
    });
    expect(page.reviews[1]).toEqual({
      id: "a1b2c3d4-0000-4000-8000-100000000001",
      author_id: "u-1",
      rating: { value: 5, best: 6, worst: 1 },
      text: "Traumhafter Urlaub\n\nSehr freundliches Personal und ein toller Strand.",
      url: PAGE,
      date: "2026-11-09T08:00:00.000Z",
      visit_date: "2026-10",
      language: "de",
      title: "Traumhafter Urlaub",
    });
    // Batch 1 holds review 70, which has no id: skipped.
    expect(page.reviews.map((r) => r.id)).not.toContain(undefined);
    expect(page.reviews).toHaveLength(99);
    const last = parseHolidaycheckPage(answer(VENIQUI, 1), ctx(1));
    expect([last.reviews.length, last.next]).toEqual([20, null]);
  });

  it("stops at the module's bound of 10,000 reviews and says what it does not read", () => {
    const first = parseHolidaycheckPage(answer(BIG, 0), parseContext(BIG, PAGE, { page: 0, token: null }));
    expect([first.publisherTotal, first.limitedView, first.next]).toEqual([
      12345,
      "HolidayCheck: the walk reads the newest 10000 reviews of 12345",
      { page: 1, token: null },
    ]);
    expect(
      parseHolidaycheckPage(answer(BIG, 99), parseContext(BIG, PAGE, { page: 99, token: null })).next,
    ).toBeNull();
  });

  it("reads an answer wrapped in data, as the older client of the same route reads it", () => {
    const page = parseHolidaycheckPage({ data: answer(VENIQUI, 1) }, ctx(1));
    expect([page.publisherTotal, page.reviews.length, page.next]).toEqual([120, 20, null]);
  });

  it("takes entry and travel dates given as epoch milliseconds (invented item; a public client reads them so), the travel day in Berlin", () => {
    const item = {
      id: "ms-1",
      title: "Schön",
      texts: { GENERAL: "Gern wieder." },
      ratings: { GENERAL: { GENERAL: 5 } },
      entryDate: Date.UTC(2026, 5, 20, 9, 30),
      // Midnight of 1 June in Berlin (CEST) is 31 May 22:00 UTC: the travel day is 1 June.
      travelDate: Date.UTC(2026, 4, 31, 22, 0),
      user: { id: "u-ms" },
    };
    const page = parseHolidaycheckPage(
      { total: 3, items: [item, { ...item, id: "ms-2", entryDate: 12, travelDate: -1 }] },
      ctx(0),
    );
    expect(page.reviews[0]).toEqual({
      id: "ms-1",
      author_id: "u-ms",
      rating: { value: 5, best: 6, worst: 1 },
      text: "Schön\n\nGern wieder.",
      url: PAGE,
      date: "2026-06-20T09:30:00.000Z",
      visit_date: "2026-06-01",
      language: "de",
      title: "Schön",
    });
    // Numbers outside 1990–2200 are no dates: the review stays, undated.
    expect(page.reviews[1]).not.toHaveProperty("date");
    expect(page.reviews[1]).not.toHaveProperty("visit_date");
  });

  it("an answer without total, and a rating past 6 suns, are publisher_error", () => {
    expect(scrapeError(() => parseHolidaycheckPage(answer(MOVED, 0), ctx(0))).message).toContain(
      "HolidayCheck reviews: unexpected answer at total",
    );
    const tenPoint = { total: 1, items: [{ id: "x", ratings: { GENERAL: { GENERAL: 9.2 } } }] };
    expect(scrapeError(() => parseHolidaycheckPage(tenPoint, ctx(0))).message).toBe(
      "HolidayCheck reviews: a rating of 9.2 is outside the 1–6 sun scale",
    );
  });

  it("hostile answers end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseHolidaycheckPage);
    expectHostileInputHandled(parseHolidaycheckPage, (items) => ({ total: 5, items }), { wrapsItems: true });
    expect(() =>
      pickHotel(business("x", "y"), {
        data: { suggestionSearch: { hotels: { entities: Array(10_000).fill({}) } } },
      }),
    ).toThrow();
  });

  it("states its evidence date", () => {
    expect(holidaycheck.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
  });
});

describe("holidaycheck end to end", () => {
  const queue = queuePerTest();

  it("walks the 2026 review route over two batches newest first and returns each review exactly", async () => {
    const task = await submitScrape(
      "holidaycheck.de",
      `https://www.holidaycheck.de/hi/hotel-veniqui/${VENIQUI}`,
    );
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-holidaycheck", "ack"]]);
    expect(
      Object.keys(await fixtureRequests("holidaycheck.de", "/api/hotel-reviews;")).map(
        (path) => /;offset=(\d+);/.exec(path)?.[1],
      ),
    ).toEqual(["0", "100"]);
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(VENIQUI_REVIEWS.flatMap((r) => (r.id ? [r.id] : [])));
    expect(reviews[1]).toMatchObject({
      review_id: "a1b2c3d4-0000-4000-8000-100000000001",
      // 5 of 6 suns: round(1 + 4 × 4 / 5) = 4.
      rating: 4,
      text: "Traumhafter Urlaub\n\nSehr freundliches Personal und ein toller Strand.",
      url: PAGE,
      posted_at: Date.UTC(2026, 10, 9, 8, 0),
    });
  });

  it("without a profile_key, finds the hotel by name and city with the content query, then walks its reviews", async () => {
    const biz = {
      ...apiBusiness(),
      name: "Hotel Veniqui",
      address: { ...apiBusiness().address, city: "Kremasti", country: "GRC" },
    };
    const task = await submitScrape("holidaycheck.de", "", {}, { business: biz });
    await queue().drain();
    expect(await fixtureRequests("holidaycheck.de", "/svc/content-query-v2")).toEqual({
      "/svc/content-query-v2": 1,
    });
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    expect((body.reviews as unknown[]).length).toBe(119);
  });

  it("a changed answer is publisher_error naming what is missing", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const moved = await submitScrape("holidaycheck.de", MOVED);
    await queue().drain();
    expect((await retrieve(moved)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, moved.taskId)).toContain("HolidayCheck reviews: unexpected answer at total");
  });
});
