/** kununu.com (profile_key examples: the module's own, run by ../contract.test.ts): the profile page's uuid, the review middleware's answer, and end to end through scrape-kununu. */
import { describe, expect, it, vi } from "vitest";
import { kununu } from "../../../src/publishers/kununu";
import { profileUuidOf } from "../../../src/publishers/kununu/profile";
import { kununuReviewsUrl, parseKununuPage } from "../../../src/publishers/kununu/reviews";
import { ScrapeError } from "../../../src/scraping/errors";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureAnswer, fixtureJson, parseContext } from "../walk-support";
import fixture, { ACME_REVIEWS, PROFILE_UUIDS } from "./site";

const PAGE = "https://www.kununu.com/de/acme-gmbh";
const UUID = PROFILE_UUIDS["de/acme-gmbh"];
const KEY = `de/acme-gmbh/${UUID}`;
const answer = (page: number) => fixtureJson(fixture, kununuReviewsUrl(KEY, { page, token: null }));
const ctx = (page: number) => parseContext(KEY, PAGE, { page, token: null });

describe("kununu profile page and review middleware answer", () => {
  it("takes the profile's uuid from the state object naming its slug, not another profile's uuid earlier in the page", () => {
    const page = fixtureAnswer(fixture, PAGE).body;
    expect(page.indexOf('"uuid":"e3c23200')).toBeLessThan(page.indexOf(UUID));
    expect(profileUuidOf(page, "acme-gmbh")).toBe(UUID);
    const moved = fixtureAnswer(fixture, "https://www.kununu.com/de/moved-state").body;
    expect(scrapeError(() => profileUuidOf(moved, "moved-state"))).toMatchObject({
      reason: "publisher_error",
      message: expect.stringContaining('no profile uuid next to slug "moved-state"'),
    });
  });

  it("asks for the employee reviews of the profile, newest first, by page number", () => {
    const url = new URL(kununuReviewsUrl(KEY, { page: 3, token: null }));
    expect(url.origin + url.pathname).toBe(
      `https://www.kununu.com/middlewares/profiles/de/acme-gmbh/${UUID}/reviews`,
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      fetchFactorScores: "1",
      reviewType: "employees",
      sort: "newest",
      page: "3",
    });
    expect(scrapeError(() => kununuReviewsUrl("de/acme-gmbh", { page: 1, token: null })).message).toBe(
      "kununu reviews: the profile's uuid is unknown",
    );
  });

  it("reads a page: uuids, decimal scores, title and texts as German text, createdAt as printed, the total, the next page", () => {
    const page = parseKununuPage(answer(1), ctx(1));
    expect(page.next).toEqual({ page: 2, token: null });
    expect(page.publisherTotal).toBe(23);
    // 10 on the page, one of them (5) with a score of 7, outside kununu's 1–5 stars.
    expect(page.reviews).toHaveLength(9);
    expect(page.reviews[0]).toEqual({
      id: "9f000000-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
      rating: { value: 4.15, best: 5, worst: 1 },
      text:
        "Gute Arbeitsatmosphäre, faire Bezahlung\n\nFlexible Arbeitszeiten und ein tolles Team.\n\n" +
        "Die Kantine schließt zu früh.",
      url: PAGE,
      date: "2026-11-18T09:30:00.000Z",
      language: "de",
      title: "Gute Arbeitsatmosphäre, faire Bezahlung",
      sub_ratings: { atmosphere: 4, image: 5 },
    });
    expect(page.reviews[1]).toEqual({
      id: "9f000001-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
      rating: { value: 3.46, best: 5, worst: 1 },
      text: "Bewertung 1\n\nText 1",
      url: PAGE,
      date: "2026-11-15T09:30:00.000Z",
      language: "de",
      title: "Bewertung 1",
      sub_ratings: { atmosphere: 4 },
    });
    expect(page.reviews.map((r) => r.id)).not.toContain("9f000005-1a2b-4c3d-8e9f-0a1b2c3d4e5f");
    // Page 2 holds review 12 without a uuid: skipped, the page is still read.
    expect(parseKununuPage(answer(2), ctx(2)).reviews).toHaveLength(9);
    expect(parseKununuPage(answer(3), ctx(3)).next).toBeNull();
  });

  it("an answer without pagesCount, and an empty page before the stated last one, are publisher_error", () => {
    expect(scrapeError(() => parseKununuPage({ reviews: [] }, ctx(1)))).toMatchObject({
      reason: "publisher_error",
      message: expect.stringContaining("pagesCount"),
    });
    expect(scrapeError(() => parseKununuPage({ reviews: [], pagesCount: 3 }, ctx(1))).reason).toBe(
      "publisher_error",
    );
  });

  it("hostile answers and pages end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseKununuPage);
    expectHostileInputHandled(parseKununuPage, (reviews) => ({ reviews, pagesCount: 1 }), {
      wrapsItems: true,
    });
    expect(() =>
      parseKununuPage(
        { reviews: Array(20), pagesCount: 1 },
        parseContext(KEY, PAGE, { page: 1, token: null }, 10),
      ),
    ).toThrow(ScrapeError);
    // A page of unbalanced braces and slugs without a uuid is one bounded scan ending in publisher_error.
    const hostile = `{"slug":"acme-gmbh",${"{".repeat(200_000)}"uuid":"x"${'"slug":"acme-gmbh"}'.repeat(50_000)}`;
    expect(scrapeError(() => profileUuidOf(hostile, "acme-gmbh")).reason).toBe("publisher_error");
  });

  it("states its evidence date", () => {
    expect(kununu.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
  });
});

describe("kununu end to end", () => {
  const queue = queuePerTest();

  it("opens the profile once, then walks the middleware newest first over three pages and returns each review exactly", async () => {
    const task = await submitScrape("kununu.com", "https://www.kununu.com/de/acme-gmbh/kommentare");
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-kununu", "ack"]]);
    expect(await fixtureRequests("kununu.com", "/de/")).toEqual({ "/de/acme-gmbh": 1 });
    expect(await fixtureRequests("kununu.com", "/middlewares/profiles/")).toEqual(
      Object.fromEntries(
        [1, 2, 3].map((page) => [
          `/middlewares/profiles/de/acme-gmbh/${UUID}/reviews?fetchFactorScores=1&reviewType=employees&sort=newest&page=${page}`,
          1,
        ]),
      ),
    );
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    const reviews = body.reviews as Record<string, unknown>[];
    const expected = ACME_REVIEWS.filter((r) => r.uuid && r.score <= 5);
    expect(reviews.map((r) => r.review_id)).toEqual(expected.map((r) => r.uuid));
    expect(reviews[0]).toMatchObject({
      review_id: "9f000000-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
      rating: 4, // 4.15 stars; the response rounds it to whole stars
      text:
        "Gute Arbeitsatmosphäre, faire Bezahlung\n\nFlexible Arbeitszeiten und ein tolles Team.\n\n" +
        "Die Kantine schließt zu früh.",
      url: PAGE,
      language: "de",
      posted_at: Date.UTC(2026, 10, 18, 9, 30),
      // Optional fields beside the text (issue 36); review_hash is still of the text and author.
      title: "Gute Arbeitsatmosphäre, faire Bezahlung",
      sub_ratings: { atmosphere: 4, image: 5 },
    });
    expect(reviews.at(-1)).toMatchObject({
      review_id: "9f000022-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
      posted_at: Date.UTC(2026, 10, 18, 9, 30) - 22 * 3 * 86_400_000,
    });
  });

  it("an employer without reviews completes with none", async () => {
    const task = await submitScrape("kununu.com", "at/quiet-wien");
    await queue().drain();
    const body = await retrieve(task);
    expect([body.task_status, body.reviews]).toEqual([200, []]);
  });

  it("an unknown employer is profile_not_found; a page without the profile's uuid is publisher_error naming it", async () => {
    const gone = await submitScrape("kununu.com", "https://www.kununu.com/ch/no-such-employer");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const moved = await submitScrape("kununu.com", "de/moved-state");
    await queue().drain();
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    expect((await retrieve(moved)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, moved.taskId)).toContain('no profile uuid next to slug "moved-state"');
  });
});
