/** zillow.com: profile_key rules, the profile page's agent id, the reviews API answer, and end to end through scrape-zillow. */
import { describe, expect, it, vi } from "vitest";
import { zillow } from "../../../src/publishers/zillow";
import { encodedZuidOf, nextDataOf } from "../../../src/publishers/zillow/profile";
import { parseZillowPage, usDate, zillowReviewsUrl } from "../../../src/publishers/zillow/reviews";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureAnswer, fixtureJson, parseContext } from "../walk-support";
import fixture, { JANE_REVIEWS } from "./site";

const PAGE = "https://www.zillow.com/profile/Jane-Realtor-CA/";
const ZUID = "X1-ZUytm150b2rcax_3s95i";
const answer = (page: number) => fixtureJson(fixture, zillowReviewsUrl(ZUID, { page, token: null }));
const ctx = (page: number) => parseContext(ZUID, PAGE, { page, token: null });

describe("zillow profile page and reviews answer", () => {
  it("takes the agent's encodedZuid from profileDisplay.profileInfo, not a reviewer's id earlier in the page", () => {
    const page = fixtureAnswer(fixture, PAGE).body;
    expect(nextDataOf(page)).toContain('"pageProps"');
    expect(encodedZuidOf(page)).toBe(ZUID);
    expect(
      scrapeError(() =>
        encodedZuidOf(fixtureAnswer(fixture, "https://www.zillow.com/profile/Moved-Agent/").body),
      ).message,
    ).toBe("Zillow profile: no props.pageProps.profileDisplay.profileInfo.encodedZuid");
    expect(scrapeError(() => encodedZuidOf("<html><body>nothing</body></html>")).message).toBe(
      "Zillow profile: the page has no __NEXT_DATA__ script",
    );
  });

  it("asks for all profile types, 10 a page, sortType 2 and sortOrder 2", () => {
    const url = new URL(zillowReviewsUrl(ZUID, { page: 3, token: null }));
    expect(url.origin + url.pathname).toBe("https://www.zillow.com/profile-page/api/public/v1/reviews");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      encodedZuid: ZUID,
      profileTypeIds: "1,2,12,16",
      page: "3",
      size: "10",
      sortType: "2",
      sortOrder: "2",
    });
  });

  it("reads a page: ids, reviewer names and ids, ratings, trimmed comments, month-first dates, the total, the next page", () => {
    const page = parseZillowPage(answer(1), ctx(1));
    expect(page.publisherTotal).toBe(23);
    expect(page.next).toEqual({ page: 2, token: null });
    expect(page.reviews).toHaveLength(10);
    expect(page.reviews[0]).toEqual({
      id: "9100000",
      author_name: "client0",
      author_id: "X1-ZUreviewer0000_abc",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Sale 0 went smoothly.",
      // subRatings' "Local knowledge" (issue 36; never hashed).
      sub_ratings: { local_knowledge: 5 },
      url: PAGE,
      date: "2026-11-19",
    });
    expect(page.reviews[1]).toEqual({
      id: "9099999",
      author_name: "homebuyer2026",
      author_id: "X1-ZUreviewer0001_abc",
      rating: { value: 4, best: 5, worst: 1 },
      text: "Jane found us a house in two weeks.",
      sub_ratings: { local_knowledge: 5 },
      url: PAGE,
      date: "2026-11-07",
    });
    // Page 2 holds review 15, which has no id: skipped.
    expect(parseZillowPage(answer(2), ctx(2)).reviews).toHaveLength(9);
    expect(parseZillowPage(answer(3), ctx(3)).next).toBeNull();
    expect(usDate("11/14/2018")).toBe("2018-11-14");
  });

  it("an answer without filters, and an empty page before the last, are publisher_error", () => {
    expect(scrapeError(() => parseZillowPage({ reviews: [] }, ctx(1))).message).toContain(
      "Zillow reviews: unexpected answer at filters",
    );
    expect(
      scrapeError(() => parseZillowPage({ reviews: [], filters: [{ count: 25 }] }, ctx(1))).message,
    ).toBe("Zillow reviews: page 1 is empty although the answer counts pages up to 3");
  });

  it("hostile answers and pages end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseZillowPage);
    expectHostileInputHandled(parseZillowPage, (reviews) => ({ reviews, filters: [{ count: 5 }] }), {
      wrapsItems: true,
    });
    const deep = `<script id="__NEXT_DATA__" type="application/json">${"[".repeat(100_000)}</script>`;
    expect(scrapeError(() => encodedZuidOf(deep)).reason).toBe("publisher_error");
  });

  it("states its evidence date", () => {
    expect(zillow.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
  });
});

describe("zillow end to end", () => {
  const queue = queuePerTest();

  it("opens the profile once, then walks the reviews API over three pages and returns each review exactly", async () => {
    const task = await submitScrape("zillow.com", "https://www.zillow.com/profile/Jane-Realtor-CA");
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-zillow", "ack"]]);
    expect(await fixtureRequests("zillow.com", "/profile/")).toEqual({ "/profile/Jane-Realtor-CA/": 1 });
    expect(
      Object.keys(await fixtureRequests("zillow.com", "/profile-page/api/public/v1/reviews")),
    ).toHaveLength(3);
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(
      JANE_REVIEWS.filter((r) => r.reviewId).map((r) => String(r.reviewId)),
    );
    expect(reviews[1]).toMatchObject({
      review_id: "9099999",
      author_name: "homebuyer2026",
      rating: 4,
      text: "Jane found us a house in two weeks.",
      sub_ratings: { local_knowledge: 5 },
      url: PAGE,
      posted_at: Date.UTC(2026, 10, 7),
    });
    expect(reviews.at(-1)).toMatchObject({
      review_id: "9099978",
      posted_at: Date.UTC(2026, 10, 19) - 22 * 12 * 86_400_000,
    });
  });

  it("an unknown agent is profile_not_found; PerimeterX is blocked; a page without the agent id is publisher_error", async () => {
    const gone = await submitScrape("zillow.com", "No-Such-Agent");
    const walled = await submitScrape("zillow.com", "Walled-Agent");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const moved = await submitScrape("zillow.com", "Moved-Agent");
    await queue().drain();
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    expect((await retrieve(walled)).response_message).toEqual(failed("blocked"));
    expect((await retrieve(moved)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, moved.taskId)).toContain(
      "Zillow profile: no props.pageProps.profileDisplay.profileInfo.encodedZuid",
    );
  });
});
