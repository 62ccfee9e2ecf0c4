/** zomato.com (profile_key examples: the module's own, run by ../contract.test.ts): the restaurant page's id, the review route's answer, and end to end through scrape-zomato. */
import { describe, expect, it, vi } from "vitest";
import { zomato } from "../../../src/publishers/zomato";
import { restaurantIdOf } from "../../../src/publishers/zomato/profile";
import { parseZomatoPage, zomatoReviewsUrl } from "../../../src/publishers/zomato/reviews";
import { ScrapeError } from "../../../src/scraping/errors";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureAnswer, fixtureJson, parseContext } from "../walk-support";
import fixture, { CHINESE_THAI, FALAFEL, RESTAURANTS } from "./site";

const SLUG = "ncr/the-chinese-thai-restaurant-safdarjung-new-delhi";
const PAGE = `https://www.zomato.com/${SLUG}`;
const KEY = String(RESTAURANTS[SLUG].resId);
const answer = (page: number, key = KEY) =>
  fixtureJson(fixture, zomatoReviewsUrl(key, { page, token: null }));
const ctx = (page: number) => parseContext(KEY, PAGE, { page, token: null });
const MINUTE = 60_000;
const DAY = 86_400_000;

describe("zomato restaurant page and review route answer", () => {
  it("takes the restaurant id from the page's escaped state; a page without one is publisher_error", () => {
    const page = fixtureAnswer(fixture, PAGE).body;
    expect(page).toContain('\\"resId\\":18371428');
    expect(restaurantIdOf(page)).toBe("18371428");
    const moved = fixtureAnswer(fixture, "https://www.zomato.com/ncr/moved-state-cafe").body;
    expect(scrapeError(() => restaurantIdOf(moved))).toMatchObject({
      reason: "publisher_error",
      message: expect.stringContaining("no restaurant id (resId)"),
    });
  });

  it("asks for the restaurant's reviews newest first (sort=dd, filter=reviews-dd) by page number", () => {
    const url = new URL(zomatoReviewsUrl(KEY, { page: 3, token: null }));
    expect(url.origin + url.pathname).toBe("https://www.zomato.com/webroutes/reviews/loadMore");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      sort: "dd",
      filter: "reviews-dd",
      res_id: "18371428",
      page: "3",
    });
    expect(scrapeError(() => zomatoReviewsUrl("ncr/acme", { page: 1, token: null })).message).toBe(
      "zomato reviews: the restaurant id is unknown",
    );
  });

  it("reads a page in the section's order: ids, ratingV2, text, timestamp as printed, author, likes, review URL", () => {
    const page = parseZomatoPage(answer(1), ctx(1));
    expect(page.next).toEqual({ page: 2, token: null });
    // 10 on the page, one of them (6) rated "-".
    expect(page.reviews.map((r) => r.id)).toEqual(
      CHINESE_THAI.slice(0, 10)
        .filter((_, i) => i !== 6)
        .map((r) => String(r.reviewId)),
    );
    expect(page.reviews[0]).toEqual({
      id: "1460000000",
      rating: { value: 5, best: 5, worst: 1 },
      text: "The dim sums were excellent and the staff were quick.",
      url: "https://www.zomato.com/review/r1460000000",
      date: "5 minutes ago",
      author_name: "Priya Sharma",
      author_id: "40000000",
      likes: 0,
    });
    expect(page.reviews[1]).toEqual({
      id: "1459999993",
      rating: { value: 4, best: 5, worst: 1 },
      text: "खाना बहुत स्वादिष्ट था और सेवा भी तेज़ थी। हम फिर से ज़रूर आएँगे।",
      url: "https://www.zomato.com/review/r1459999993",
      date: "23 hours ago",
      author_name: "Diner 1",
      author_id: "40000001",
      likes: 1,
    });
    expect(page.reviews[5]).toMatchObject({ id: "1459999965", date: "Oct 20, 2026" });
    // Page 2 holds review 14 without a timestamp: skipped, the page is still read.
    expect(parseZomatoPage(answer(2), ctx(2)).reviews).toHaveLength(9);
    expect(parseZomatoPage(answer(3), ctx(3)).next).toBeNull();
  });

  it("without the section's id list the order is by id, newest first, never the object's ascending keys", () => {
    const data = answer(1) as { page_data: { sections: { SECTION_REVIEWS: { entities?: unknown } } } };
    delete data.page_data.sections.SECTION_REVIEWS.entities;
    const ids = parseZomatoPage(data, ctx(1)).reviews.map((r) => Number(r.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(ids[0]).toBe(1_460_000_000);
    // A list naming only some of the page's reviews: the rest follow, newest first, none dropped.
    const partial = answer(1) as {
      page_data: { sections: { SECTION_REVIEWS: { entities: { entity_ids: number[] }[] } } };
    };
    partial.page_data.sections.SECTION_REVIEWS.entities[0].entity_ids = [1_459_999_986];
    const read = parseZomatoPage(partial, ctx(1)).reviews.map((r) => Number(r.id));
    expect(read[0]).toBe(1_459_999_986);
    expect(read.slice(1)).toEqual(ids.filter((id) => id !== 1_459_999_986));
  });

  it("an answer without the review section's page count, and an empty page before the stated last one, are publisher_error", () => {
    expect(scrapeError(() => parseZomatoPage({ entities: { REVIEWS: {} } }, ctx(1)))).toMatchObject({
      reason: "publisher_error",
      message: expect.stringContaining("zomato reviews: unexpected answer at page_data"),
    });
    const hollow = { entities: {}, page_data: { sections: { SECTION_REVIEWS: { numberOfPages: 3 } } } };
    expect(scrapeError(() => parseZomatoPage(hollow, ctx(1))).message).toBe(
      "zomato reviews: page 1 is empty although the answer counts pages up to 3",
    );
  });

  it("Akamai's Access Denied page, on the review route or the restaurant page, is blocked", async () => {
    const inspect = zomato.adapter.inspect!;
    const denied = fixtureAnswer(fixture, zomatoReviewsUrl("99001", { page: 1, token: null }));
    expect(denied.status).toBe(403);
    for (const path of ["/webroutes/reviews/loadMore", "/ncr/walled-bistro"]) {
      const error = await inspect({
        url: new URL(`https://www.zomato.com${path}`),
        status: 200,
        headers: new Headers(),
        text: denied.body,
        rendered: false,
      });
      expect(error).toMatchObject({ reason: "blocked" });
    }
    const real = fixtureAnswer(fixture, zomatoReviewsUrl(KEY, { page: 1, token: null }));
    const page = { url: new URL("https://www.zomato.com/webroutes/reviews/loadMore"), status: 200 };
    expect(await inspect({ ...page, headers: new Headers(), text: real.body, rendered: false })).toBeNull();
  });

  it("hostile answers and pages end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseZomatoPage);
    const wrap = (REVIEWS: unknown) => ({
      entities: { REVIEWS },
      page_data: { sections: { SECTION_REVIEWS: { numberOfPages: 1 } } },
    });
    expectHostileInputHandled(parseZomatoPage, wrap);
    const wide = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [String(i), {}]));
    expect(() => parseZomatoPage(wrap(wide), parseContext(KEY, PAGE, { page: 1, token: null }, 10))).toThrow(
      ScrapeError,
    );
    // A page of "resId" markers without a value is one bounded scan ending in publisher_error.
    const hostile = `"resId":"x"${'\\"resId\\": '.repeat(200_000)}`;
    expect(scrapeError(() => restaurantIdOf(hostile)).reason).toBe("publisher_error");
  });

  it("states its evidence date", () => {
    expect(zomato.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
  });
});

describe("zomato end to end", () => {
  const queue = queuePerTest();

  it("opens the restaurant once, then walks the review route newest first over three pages; relative dates resolve against the scrape", async () => {
    const task = await submitScrape("zomato.com", `${PAGE}/reviews`);
    const started = Date.now();
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-zomato", "ack"]]);
    expect(await fixtureRequests("zomato.com", "/ncr/the-chinese")).toEqual({ [`/${SLUG}`]: 1 });
    expect(
      await fixtureRequests(
        "zomato.com",
        "/webroutes/reviews/loadMore?sort=dd&filter=reviews-dd&res_id=18371428",
      ),
    ).toEqual(
      Object.fromEntries(
        [1, 2, 3].map((page) => [
          `/webroutes/reviews/loadMore?sort=dd&filter=reviews-dd&res_id=18371428&page=${page}`,
          1,
        ]),
      ),
    );
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    const reviews = body.reviews as Record<string, unknown>[];
    const expected = CHINESE_THAI.filter((r) => r.timestamp && r.ratingV2 !== "-");
    expect(reviews.map((r) => r.review_id)).toEqual(expected.map((r) => String(r.reviewId)));
    expect(reviews[0]).toMatchObject({
      review_id: "1460000000",
      rating: 5,
      text: "The dim sums were excellent and the staff were quick.",
      url: "https://www.zomato.com/review/r1460000000",
      author_name: "Priya Sharma",
      language: "en",
    });
    expect(reviews[1]).toMatchObject({ review_id: "1459999993", rating: 4, language: "hi" });
    const near = (value: unknown, expectedAt: number) =>
      expect(Math.abs((value as number) - expectedAt)).toBeLessThan(MINUTE);
    near(reviews[0].posted_at, started - 5 * MINUTE);
    near(reviews[1].posted_at, started - 23 * 60 * MINUTE);
    near(reviews[2].posted_at, started - DAY);
    near(reviews[3].posted_at, started - 2 * DAY);
    expect(reviews[5]).toMatchObject({ review_id: "1459999965", posted_at: Date.UTC(2026, 9, 20) });
    expect(reviews.at(-1)).toMatchObject({
      review_id: "1459999846",
      posted_at: Date.UTC(2026, 9, 20) - 17 * 3 * DAY,
    });
  });

  it("an Arabic review in Dubai reads like any other; a restaurant without reviews completes with none", async () => {
    const falafel = await submitScrape(
      "zomato.com",
      "https://www.zomato.com/dubai/operation-falafel-jumeirah",
    );
    const quiet = await submitScrape("zomato.com", "https://www.zomato.com/chennai/quiet-cafe-adyar/info");
    await queue().drain();
    const body = await retrieve(falafel, 1, 200);
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(FALAFEL.map((r) => String(r.reviewId)));
    expect(reviews[0]).toMatchObject({
      text: "الفلافل طازج ولذيذ جداً والخدمة سريعة. سنعود مرة أخرى بالتأكيد.",
      language: "ar",
      posted_at: Date.UTC(2026, 8, 30),
    });
    const none = await retrieve(quiet);
    expect([none.task_status, none.reviews]).toEqual([200, []]);
  });

  it("an unknown restaurant is profile_not_found; Access Denied is blocked; a page without the restaurant id is publisher_error", async () => {
    const gone = await submitScrape("zomato.com", "https://www.zomato.com/ncr/no-such-restaurant");
    const walled = await submitScrape("zomato.com", "https://www.zomato.com/ncr/walled-bistro");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const moved = await submitScrape("zomato.com", "https://www.zomato.com/ncr/moved-state-cafe");
    await queue().drain();
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    expect((await retrieve(walled)).response_message).toEqual(failed("blocked"));
    expect((await retrieve(moved)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, moved.taskId)).toContain("no restaurant id (resId)");
  });
});
