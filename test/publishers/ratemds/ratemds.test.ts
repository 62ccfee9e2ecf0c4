/** ratemds.com (profile_key examples: the module's own, run by ../contract.test.ts): the rating page's JSON, and end to end through the Worker and scrape-ratemds. */
import { describe, expect, it, vi } from "vitest";
import { ratemds } from "../../../src/publishers/ratemds";
import { ScrapeError } from "../../../src/scraping/errors";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureJson, parseContext } from "../walk-support";
import fixture, { MCALPINE } from "./site";

const { url: ratingsUrl, parse: parseRatings } = ratemds.api;
const KEY = "424258/Dr-W-McAlpine-Savannah-GA";
const PAGE = `https://www.ratemds.com/doctor-ratings/${KEY}.html`;
const answer = (key: string, page: number) => fixtureJson(fixture, ratingsUrl(key, { page, token: null }));
const ctx = (page: number) => parseContext(KEY, PAGE, { page, token: null });

describe("ratemds rating page JSON", () => {
  it("asks the doctor's rating page for JSON, page by page", () => {
    expect(ratingsUrl(KEY, { page: 2, token: null })).toBe(
      "https://www.ratemds.com/doctor-ratings/424258/Dr-W-McAlpine-Savannah-GA.html/?json=true&page=2",
    );
  });

  it("reads a page: ids, the average as rating, the comment trimmed, created as printed, the total, the next page", () => {
    const page = parseRatings(answer(KEY, 1), ctx(1));
    expect(page.next).toEqual({ page: 2, token: null });
    expect(page.publisherTotal).toBe(23);
    expect(page.reviews).toHaveLength(10);
    expect(page.reviews[0]).toEqual({
      id: "2900000",
      rating: { value: 4.75, best: 5, worst: 1 },
      text: "Visit 0: seen on time.",
      url: PAGE,
      date: "2026-10-30T15:00:00.000Z",
    });
    expect(page.reviews[1]).toEqual({
      id: "2899999",
      rating: { value: 4.25, best: 5, worst: 1 },
      text: "Listens carefully and explains every option.",
      url: PAGE,
      date: "2026-10-29T15:00:00.000Z",
    });
    const last = parseRatings(answer(KEY, 3), ctx(3));
    expect([last.next, last.reviews.map((r) => r.id)]).toEqual([null, ["2899980", "2899979", "2899978"]]);
  });

  it("an answer without results, or an empty page before the stated last one, is publisher_error", () => {
    expect(scrapeError(() => parseRatings(answer("777/Dr-Moved", 1), ctx(1)))).toMatchObject({
      reason: "publisher_error",
      message: expect.stringContaining("at results"),
    });
    const hollow = { count: 40, total_pages: 4, results: [] };
    expect(scrapeError(() => parseRatings(hollow, ctx(1))).message).toBe(
      "RateMDs ratings: page 1 is empty although the answer counts pages up to 4",
    );
  });

  it("a rating without an id or with an average outside 1–5 is skipped, not the page", () => {
    const page = parseRatings(
      {
        total_pages: 1,
        results: [
          { comment: "no id", created: "2026-10-01T00:00:00Z", average: 4 },
          { id: 1, comment: "too high", created: "2026-10-01T00:00:00Z", average: 7 },
          { id: 2, comment: "kept", created: "2026-10-01T00:00:00Z", average: 1 },
        ],
      },
      ctx(1),
    );
    expect(page.reviews.map((r) => r.id)).toEqual(["2"]);
  });

  it("a page where no rating has the declared fields (a renamed id key) is publisher_error naming them", () => {
    const renamed = {
      total_pages: 1,
      results: [{ uuid: 1, comment: "moved id", created: "2026-10-01T00:00:00Z", average: 4 }],
    };
    expect(scrapeError(() => parseRatings(renamed, ctx(1)))).toMatchObject({
      reason: "publisher_error",
      message: expect.stringMatching(
        /^RateMDs ratings: none of the 1 reviews has the declared fields \(id=id, /,
      ),
    });
  });

  it("hostile answers end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseRatings);
    expectHostileInputHandled(parseRatings, (results) => ({ count: 5, total_pages: 1, results }), {
      wrapsItems: true,
    });
    expect(() =>
      parseRatings(
        { total_pages: 1, results: Array(20) },
        parseContext(KEY, PAGE, { page: 1, token: null }, 10),
      ),
    ).toThrow(ScrapeError);
  });

  it("states its evidence date", () => {
    expect(ratemds.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
  });
});

describe("ratemds end to end", () => {
  const queue = queuePerTest();

  it("walks the rating pages newest first over three pages and returns each rating exactly", async () => {
    const task = await submitScrape("ratemds.com", `${PAGE}/`);
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-ratemds", "ack"]]);
    expect(await fixtureRequests("ratemds.com", "/doctor-ratings/424258/")).toEqual(
      Object.fromEntries(
        [1, 2, 3].map((page) => [
          `/doctor-ratings/424258/Dr-W-McAlpine-Savannah-GA.html/?json=true&page=${page}`,
          1,
        ]),
      ),
    );
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    expect(body.business.reviews_urls).toHaveLength(3);
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(MCALPINE.map((r) => String(r.id)));
    expect(reviews[1]).toMatchObject({
      review_id: "2899999",
      // The average 4.25 is stored as whole stars, rounded half up (src/core/reviews/rating.ts).
      rating: 4,
      text: "Listens carefully and explains every option.",
      url: PAGE,
      posted_at: Date.UTC(2026, 9, 29, 15, 0, 0),
    });
    expect(reviews[0]).toMatchObject({ review_id: "2900000", rating: 5 });
    expect(reviews[22]).toMatchObject({ review_id: "2899978", posted_at: Date.UTC(2026, 9, 8, 15, 0, 0) });
  });

  it("a doctor without ratings completes with none", async () => {
    const task = await submitScrape(
      "ratemds.com",
      "https://www.ratemds.com/doctor-ratings/5150/Dr-Quiet-Boise-ID.html",
    );
    await queue().drain();
    const body = await retrieve(task);
    expect([body.task_status, body.reviews]).toEqual([200, []]);
  });

  it("an unknown doctor is profile_not_found; a changed answer is publisher_error naming what is missing", async () => {
    const gone = await submitScrape(
      "ratemds.com",
      "https://www.ratemds.com/doctor-ratings/404404/Dr-Gone-Reno-NV.html",
    );
    await queue().drain();
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const moved = await submitScrape(
      "ratemds.com",
      "https://www.ratemds.com/doctor-ratings/777/Dr-Moved-Erie-PA.html",
    );
    await queue().drain();
    expect((await retrieve(moved)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, moved.taskId)).toContain("RateMDs ratings: unexpected answer at results");
  });
});
