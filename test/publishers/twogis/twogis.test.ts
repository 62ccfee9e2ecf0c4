/** 2GIS (profile_key examples: the module's own, run by ../contract.test.ts): the firm page's review key, the review API's answer, and end to end through scrape-twogis. */
import { describe, expect, it, vi } from "vitest";
import { twogis } from "../../../src/publishers/twogis";
import { firmConfigOf } from "../../../src/publishers/twogis/profile";
import { parseTwogisPage, twogisReviewsUrl } from "../../../src/publishers/twogis/reviews";
import { ScrapeError } from "../../../src/scraping/errors";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureAnswer, fixtureJson, parseContext } from "../walk-support";
import fixture, { ACME, ASTANA, BANNED, FIRM_REVIEWS, HOLLOW, NO_CONFIG, QUIET, REVIEW_KEY } from "./site";

const PAGE = `https://2gis.ru/firm/${ACME}`;
const KEY = `${ACME}/${REVIEW_KEY}/ru_RU`;
const answer = (page: number, key = KEY) =>
  fixtureJson(fixture, twogisReviewsUrl(key, { page, token: null }));
const ctx = (page: number, key = KEY) => parseContext(key, PAGE, { page, token: null });
const apiPath = (firm: string, offset: number, locale = "ru_RU") =>
  `/3.0/branches/${firm}/reviews?limit=50&offset=${offset}` +
  "&fields=meta.branch_rating%2Cmeta.branch_reviews_count%2Cmeta.total_count" +
  `&rated=true&sort_by=date_created&key=${REVIEW_KEY}&locale=${locale}`;

describe("2GIS firm page and review API answer", () => {
  it("takes the review key and locale from the __customcfg config, not another UUID earlier in the page", () => {
    const page = fixtureAnswer(fixture, `https://2gis.ru/moscow/firm/${ACME}`).body;
    expect(page.indexOf("aa11bb22-")).toBeLessThan(page.indexOf(REVIEW_KEY));
    expect(firmConfigOf(page)).toEqual({ reviewKey: REVIEW_KEY, locale: "ru_RU" });
    const kz = fixtureAnswer(fixture, `https://2gis.kz/astana/firm/${ASTANA}`).body;
    expect(firmConfigOf(kz)).toEqual({ reviewKey: REVIEW_KEY, locale: "ru_KZ" });
    const bare = fixtureAnswer(fixture, `https://2gis.ru/firm/${NO_CONFIG}`).body;
    expect(scrapeError(() => firmConfigOf(bare))).toMatchObject({
      reason: "publisher_error",
      message: "2GIS firm page: no __customcfg config script (the review key is read from it)",
    });
    expect(
      scrapeError(() => firmConfigOf("<script>var __customcfg = JSON.parse('{}');</script>")).message,
    ).toBe("2GIS firm page: the __customcfg config has no reviewApiKey");
  });

  it("asks for the branch's rated reviews newest first, 50 at a time by offset, with the site's key and locale", () => {
    const url = new URL(twogisReviewsUrl(KEY, { page: 3, token: null }));
    expect(url.origin + url.pathname).toBe(
      `https://public-api.reviews.2gis.com/3.0/branches/${ACME}/reviews`,
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      limit: "50",
      offset: "100",
      fields: "meta.branch_rating,meta.branch_reviews_count,meta.total_count",
      rated: "true",
      sort_by: "date_created",
      key: REVIEW_KEY,
      locale: "ru_RU",
    });
    expect(scrapeError(() => twogisReviewsUrl(ACME, { page: 1, token: null })).message).toBe(
      "2GIS reviews: the site's review key is unknown",
    );
  });

  it("reads a page: ids, stars, Cyrillic text, authors, likes, the owner's answer, the rating and total, the next page", () => {
    const page = parseTwogisPage(answer(1), ctx(1));
    expect(page.next).toEqual({ page: 2, token: null });
    expect(page.publisherTotal).toBe(113);
    expect(page.summary).toEqual({ rating: 4.3, ratingScale: "1-5" });
    expect(page.pageLanguage).toBe("ru");
    // 50 on the page, one of them (4) rated 7, outside 2GIS's 1–5 stars.
    expect(page.reviews).toHaveLength(49);
    expect(page.reviews[0]).toEqual({
      id: "4306100000",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Очень вкусный кофе и приветливый персонал. Рекомендую всем, кто рядом!",
      url: PAGE,
      date: "2026-11-20T17:53:17.016371+07:00",
      author_name: "Анна Смирнова",
      author_review_count: 3,
      likes: 12,
    });
    expect(page.reviews[1]).toEqual({
      id: "4306100001",
      rating: { value: 4, best: 5, worst: 1 },
      text: "Долго ждали заказ, но в целом неплохо. Цены выше среднего.",
      url: PAGE,
      date: "2026-11-19T04:53:17.016371+07:00",
      author_name: "Игорь",
      author_review_count: 4,
      likes: 0,
      reply_text: "Спасибо за отзыв! Мы уже работаем над скоростью обслуживания.",
      reply_date: "2026-11-19T09:53:17.016371+07:00",
    });
    expect(page.reviews.map((r) => r.id)).not.toContain("4306100004");
    // Page 2 holds review 61 without an id: skipped, the page is still read.
    const second = parseTwogisPage(answer(2), ctx(2));
    expect([second.reviews.length, second.next, second.publisherTotal]).toEqual([
      49,
      { page: 3, token: null },
      undefined,
    ]);
    expect(parseTwogisPage(answer(3), ctx(3))).toMatchObject({ next: null });
    expect(parseTwogisPage(answer(3), ctx(3)).reviews).toHaveLength(13);
  });

  it("an answer without meta, an empty page pointing further, and a first page listing none of the branch's reviews are publisher_error", () => {
    expect(scrapeError(() => parseTwogisPage({ reviews: [] }, ctx(1)))).toMatchObject({
      reason: "publisher_error",
      message: expect.stringContaining("meta"),
    });
    expect(
      scrapeError(() => parseTwogisPage({ meta: { next_link: "https://x/?offset=50" }, reviews: [] }, ctx(2)))
        .message,
    ).toBe("2GIS reviews: page 2 is empty but points to a next page");
    const hollowKey = `${HOLLOW}/${REVIEW_KEY}/ru_RU`;
    expect(scrapeError(() => parseTwogisPage(answer(1, hollowKey), ctx(1, hollowKey))).message).toBe(
      "2GIS reviews: the answer lists no reviews although meta.branch_reviews_count counts 12",
    );
    // A branch that counts none is simply empty.
    const quietKey = `${QUIET}/${REVIEW_KEY}/ru_RU`;
    expect(parseTwogisPage(answer(1, quietKey), ctx(1, quietKey))).toMatchObject({ reviews: [], next: null });
  });

  it("hostile answers and pages end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseTwogisPage);
    expectHostileInputHandled(parseTwogisPage, (reviews) => ({ meta: {}, reviews }), { wrapsItems: true });
    expect(() =>
      parseTwogisPage(
        { meta: {}, reviews: Array(20) },
        parseContext(KEY, PAGE, { page: 1, token: null }, 10),
      ),
    ).toThrow(ScrapeError);
    // A huge page of config-like text without a key is one bounded scan ending in publisher_error.
    const hostile = `__customcfg ${'"reviewApiKey":"'.repeat(200_000)}${"x".repeat(1_000_000)}`;
    expect(scrapeError(() => firmConfigOf(hostile)).reason).toBe("publisher_error");
  });

  it("states its evidence date and the summary parts it fills", () => {
    expect(twogis.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
    expect(twogis.summaryFields).toEqual(["rating", "review_count"]);
  });
});

describe("2GIS end to end", () => {
  const queue = queuePerTest();

  it("reads the firm page once, then walks the review API newest first over three pages and returns each review exactly", async () => {
    const task = await submitScrape("2gis.ru", `https://2gis.ru/moscow/firm/${ACME}/tab/reviews`);
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-twogis", "ack"]]);
    expect(await fixtureRequests("2gis.ru", "/firm/")).toEqual({ [`/firm/${ACME}`]: 1 });
    expect(await fixtureRequests("2gis.com", `/3.0/branches/${ACME}/`)).toEqual(
      Object.fromEntries([0, 50, 100].map((offset) => [apiPath(ACME, offset), 1])),
    );
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    expect(body.business.publisher_summary).toEqual({
      rating: 4.3,
      rating_scale: "1-5",
      review_count: 113,
      histogram: null,
    });
    const reviews = body.reviews as Record<string, unknown>[];
    const expected = FIRM_REVIEWS[ACME].filter((r) => r.id && r.rating <= 5);
    expect(reviews.map((r) => r.review_id)).toEqual(expected.map((r) => r.id));
    expect(reviews[1]).toMatchObject({
      review_id: "4306100001",
      author_name: "Игорь",
      rating: 4,
      text: "Долго ждали заказ, но в целом неплохо. Цены выше среднего.",
      url: PAGE,
      language: "ru",
      posted_at: Date.UTC(2026, 10, 18, 21, 53, 17, 16),
      owner_reply: {
        text: "Спасибо за отзыв! Мы уже работаем над скоростью обслуживания.",
        posted_at: Date.UTC(2026, 10, 19, 2, 53, 17, 16),
      },
    });
    expect(reviews.at(-1)).toMatchObject({
      review_id: "4306100112",
      posted_at: Date.UTC(2026, 10, 20, 10, 53, 17, 16) - 112 * 37 * 3_600_000,
    });
    expect(body.coverage).toMatchObject({ publisher_total: 113, complete: true });
  });

  it("a firm on 2gis.kz is read with that site's locale; a firm without reviews completes with none", async () => {
    const kz = await submitScrape("2gis.kz", `https://2gis.kz/astana/firm/${ASTANA}`);
    const quiet = await submitScrape("2gis.ru", QUIET);
    await queue().drain();
    expect(Object.keys(await fixtureRequests("2gis.com", `/3.0/branches/${ASTANA}/`))).toEqual([
      apiPath(ASTANA, 0, "ru_KZ"),
    ]);
    const body = await retrieve(kz);
    expect(body.business.profile_key).toBe(`https://2gis.kz/firm/${ASTANA}`);
    expect((body.reviews as unknown[]).length).toBe(3);
    const none = await retrieve(quiet);
    expect([none.task_status, none.reviews]).toEqual([200, []]);
  });

  it("an unknown firm is profile_not_found; an HTML ban page from the API is blocked; a page without the config, or an API listing none of the counted reviews, is publisher_error naming it", async () => {
    const gone = await submitScrape("2gis.ru", "70000009999999999");
    const banned = await submitScrape("2gis.ru", BANNED);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const bare = await submitScrape("2gis.ru", NO_CONFIG);
    const hollow = await submitScrape("2gis.ru", HOLLOW);
    await queue().drain();
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    expect((await retrieve(banned)).response_message).toEqual(failed("blocked"));
    expect((await retrieve(bare)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, bare.taskId)).toContain("no __customcfg config script");
    expect((await retrieve(hollow)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, hollow.taskId)).toContain(
      "lists no reviews although meta.branch_reviews_count counts 12",
    );
  });
});
