/**
 * houzz.com and houzz.co.uk (profile_key examples: the module's own, run by ../contract.test.ts): the
 * ids in the profile page's state, the reviews call's answer, bot walls, hostile input, and end to
 * end through scrape-houzz.
 */
import { describe, expect, it, vi } from "vitest";
import { houzz } from "../../../src/publishers/houzz";
import { houzzIds } from "../../../src/publishers/houzz/profile";
import { houzzReviewsUrl, parseHouzzPage } from "../../../src/publishers/houzz/reviews";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureAnswer, fixtureJson, parseContext } from "../walk-support";
import fixture, { JETROOF_REVIEWS, KITCHEN_REVIEWS } from "./site";

const PATH = "/professionals/roofing-and-gutters/jetroof-pfvwus-pf~1991096372";
const PAGE = `https://www.houzz.com${PATH}`;
const KEY = "5057474/177044/50/4.9";
const ctx = (page: number, key = KEY) => parseContext(key, PAGE, { page, token: null });
const answer = (page: number) => fixtureJson(fixture, houzzReviewsUrl(KEY, page, PAGE));

describe("houzz profile page and reviews call", () => {
  it("reads the pro's userId and proId from the page state", () => {
    expect(houzzIds(fixtureAnswer(fixture, PAGE).body)).toEqual({ userId: "5057474", proId: "177044" });
    const bare = fixtureAnswer(fixture, "https://www.houzz.com/professionals/x/no-state-pfvwus-pf~4").body;
    expect(houzzIds(bare)).toEqual({ userId: null, proId: null });
  });

  it("asks for the reviews newest first by item offset, 45 a call, on the profile's own site", () => {
    const url = new URL(houzzReviewsUrl(KEY, 3, PAGE));
    expect(url.origin + url.pathname).toBe("https://www.houzz.com/j/ajax/profileReviewsAjax");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      userId: "5057474",
      proId: "177044",
      fromItem: "90",
      itemsPerPage: "45",
      sortType: "NEWEST",
    });
    const uk = new URL(
      houzzReviewsUrl(KEY, 1, "https://www.houzz.co.uk/professionals/k/acme-pfvwgb-pf~12345"),
    );
    expect(uk.origin).toBe("https://www.houzz.co.uk");
    expect(scrapeError(() => houzzReviewsUrl("1991096372", 1, PAGE)).message).toBe(
      "Houzz reviews: the profile's ids are unknown",
    );
  });

  it("reads a call's answer newest first (not in the map's id order): ids, ratings, trimmed bodies, created, likes, reviewer names", () => {
    const first = parseHouzzPage(answer(1), ctx(1));
    expect(first.next).toEqual({ page: 2, token: null });
    expect(first.publisherTotal).toBe(50);
    expect(first.summary).toEqual({ rating: 4.9, ratingScale: "1-5" });
    // 45 in the answer; review 7 is rated 0, outside Houzz's 1–5 stars.
    expect(first.reviews.map((r) => r.id)).toEqual(
      JETROOF_REVIEWS.slice(0, 45)
        .filter((r) => r.rating >= 1)
        .map((r) => String(r.reviewId)),
    );
    expect(first.reviews[0]).toEqual({
      id: "9000050",
      author_name: "Dana K",
      rating: { value: 5, best: 5, worst: 1 },
      text: "JetRoof replaced our roof in two days.\nClean site, fair price.",
      url: PAGE,
      date: "2026-10-30T18:00:00.000Z",
      likes: 3,
    });
    // Reviewer 802 is not in UserStore: the review is kept without a name.
    expect(first.reviews[2]).toEqual({
      id: "9000048",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Review 2.",
      url: PAGE,
      date: "2026-10-20T18:00:00.000Z",
      likes: 0,
    });
    const last = parseHouzzPage(answer(2), ctx(2));
    expect([last.reviews.length, last.next, "publisherTotal" in last]).toEqual([5, null, false]);
  });

  it("an answer out of the page-state envelope, or whose every review lacks the fields, is publisher_error naming it", () => {
    expect(scrapeError(() => parseHouzzPage({ reviews: [] }, ctx(1))).message).toContain(
      "Houzz reviews: unexpected answer at ctx",
    );
    const moved = {
      ctx: { data: { stores: { data: { ProfessionalReviewsStore: { data: { 1: { id: 1, stars: 5 } } } } } } },
    };
    expect(scrapeError(() => parseHouzzPage(moved, ctx(1))).message).toBe(
      "Houzz reviews: none of the 1 reviews has reviewId, rating (1–5) and created",
    );
  });

  it("hostile answers and pages end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseHouzzPage);
    const wrap = (items: unknown) => ({
      ctx: {
        data: {
          stores: {
            data: {
              ProfessionalReviewsStore: {
                data: Array.isArray(items) ? Object.fromEntries(items.map((v, i) => [String(i), v])) : items,
              },
            },
          },
        },
      },
    });
    expectHostileInputHandled((data, c) => parseHouzzPage(data, { ...c, key: KEY }), wrap, {
      wrapsItems: true,
    });
    // A page of store names without their ids is one bounded scan.
    const hostile = `${'"UserProfileStore":{"prereqs":'.repeat(100_000)}${'"professional":{"id":'.repeat(100_000)}`;
    const started = Date.now();
    expect(houzzIds(hostile)).toEqual({ userId: null, proId: null });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("states its evidence date", () => {
    expect(houzz.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
  });
});

describe("houzz end to end", () => {
  const queue = queuePerTest();

  it("opens the profile page once, then walks the reviews call newest first over two calls and returns each review exactly", async () => {
    const task = await submitScrape("houzz.com", `${PAGE}?utm_source=share#reviews`);
    const deliveries = await queue().drain();
    expect(deliveries.every((d) => d.queue === "scrape-houzz" && d.outcome === "ack")).toBe(true);
    expect(await fixtureRequests("houzz.com", "/professionals/")).toEqual({ [PATH]: 1 });
    expect(await fixtureRequests("houzz.com", "/j/ajax/")).toEqual(
      Object.fromEntries(
        [0, 45].map((from) => [
          `/j/ajax/profileReviewsAjax?userId=5057474&proId=177044&fromItem=${from}&itemsPerPage=45&sortType=NEWEST`,
          1,
        ]),
      ),
    );
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    expect(body.business.publisher_summary).toEqual({
      rating: 4.9,
      rating_scale: "1-5",
      review_count: 50,
      histogram: null,
    });
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(
      JETROOF_REVIEWS.filter((r) => r.rating >= 1).map((r) => String(r.reviewId)),
    );
    expect(reviews[0]).toMatchObject({
      author_name: "Dana K",
      rating: 5,
      text: "JetRoof replaced our roof in two days.\nClean site, fair price.",
      url: PAGE,
      likes: 3,
      posted_at: Date.UTC(2026, 9, 30, 18, 0),
    });
  });

  it("reads a houzz.co.uk profile on its own site", async () => {
    const uk =
      "https://www.houzz.co.uk/professionals/kitchen-and-bath-designers/acme-kitchens-pfvwgb-pf~12345";
    const task = await submitScrape("houzz.co.uk", uk);
    await queue().drain();
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(uk);
    expect((body.reviews as Record<string, unknown>[]).map((r) => [r.review_id, r.url])).toEqual(
      KITCHEN_REVIEWS.map((r) => [String(r.reviewId), uk]),
    );
  });

  it("a bot check instead of the page or of the call is blocked; a page without the ids is publisher_error naming them; an unknown pro is profile_not_found", async () => {
    const profile = (id: string) =>
      `https://www.houzz.com/professionals/roofing-and-gutters/x-pfvwus-pf~${id}`;
    const walled = await submitScrape("houzz.com", profile("2"));
    const callWalled = await submitScrape("houzz.com", profile("3"));
    const bare = await submitScrape("houzz.com", profile("4"));
    const gone = await submitScrape("houzz.com", profile("404"));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await queue().drain();
    expect((await retrieve(walled)).response_message).toEqual(failed("blocked"));
    expect(failureDetails(warn, walled.taskId)).toContain("Houzz answered the profile page with a bot check");
    expect((await retrieve(callWalled)).response_message).toEqual(failed("blocked"));
    expect(failureDetails(warn, callWalled.taskId)).toContain(
      "Houzz answered its reviews call with an HTML page",
    );
    expect((await retrieve(bare)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, bare.taskId)).toContain(
      "Houzz profile page: no userId (UserProfileStore) and professional.id in the page state",
    );
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
  });
});
