/** judge.me (profile_key examples: the module's own, run by ../contract.test.ts): the store page's token, the Widget API's markup inside JSON, and end to end through scrape-judgeme. */
import { describe, expect, it, vi } from "vitest";
import { judgeme } from "../../../src/publishers/judgeme";
import { storeSettingsOf } from "../../../src/publishers/judgeme/profile";
import {
  judgeMeReviewsUrl,
  parseJudgeMePage,
  readJudgeMeAnswer,
} from "../../../src/publishers/judgeme/reviews";
import { readWidget } from "../../../src/publishers/judgeme/widget";
import { WorkBudget } from "../../../src/publishers/kit/work-budget";
import { ScrapeError } from "../../../src/scraping/errors";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureAnswer, fixtureJson, parseContext } from "../walk-support";
import fixture, { LAVENDER, SHOP_REVIEWS, TOKENS } from "./site";

const PAGE = "https://acme-candles.myshopify.com/products/lavender-soy-candle";
const STORE = "https://acme-candles.myshopify.com/";
const TOKEN = TOKENS["acme-candles"];
const KEY = `acme-candles/lavender-soy-candle/${TOKEN}`;
const at = (page: number, token: string | null = null) => ({ page, token });
const answer = (page: number, key = KEY) =>
  readJudgeMeAnswer(fixtureJson(fixture, judgeMeReviewsUrl(key, at(page))));
const ctx = (page: number, token: string | null = null, key = KEY) =>
  parseContext(key, PAGE, at(page, token));

describe("judge.me store page and Widget API answer", () => {
  it("takes the public token from the store's Judge.me settings; a page without it or naming another store is publisher_error", () => {
    expect(storeSettingsOf(fixtureAnswer(fixture, PAGE).body, "acme-candles")).toEqual({
      shopDomain: "acme-candles.myshopify.com",
      token: TOKEN,
    });
    const bare = fixtureAnswer(fixture, "https://bare-shop.myshopify.com/products/any-product").body;
    expect(scrapeError(() => storeSettingsOf(bare, "bare-shop"))).toMatchObject({
      reason: "publisher_error",
      message: expect.stringContaining("no jdgm.PUBLIC_TOKEN"),
    });
    expect(scrapeError(() => storeSettingsOf(fixtureAnswer(fixture, PAGE).body, "other-shop")).message).toBe(
      "judge.me store page: its jdgm.SHOP_DOMAIN is acme-candles.myshopify.com, not other-shop.myshopify.com",
    );
  });

  it("asks product_review with the public token, the store's myshopify address and the handle, page by page", () => {
    const url = new URL(judgeMeReviewsUrl(KEY, at(3)));
    expect(url.origin + url.pathname).toBe("https://judge.me/api/v1/widgets/product_review");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      api_token: TOKEN,
      shop_domain: "acme-candles.myshopify.com",
      handle: "lavender-soy-candle",
      page: "3",
      per_page: "10",
    });
    expect(scrapeError(() => judgeMeReviewsUrl("acme-candles/lavender-soy-candle", at(1))).message).toBe(
      "judge.me product reviews: the store's public token is unknown",
    );
  });

  it("reads the widget markup: ids, data-score, title, paragraphs, author, verified buyer, photos, the date as printed", async () => {
    const page = parseJudgeMePage(await answer(1), ctx(1));
    // 10 on the page, one of them (4) without a data-score.
    expect(page.reviews.map((r) => r.id)).toEqual(
      LAVENDER.slice(0, 10)
        .filter((r) => r.score !== null)
        .map((r) => r.id),
    );
    expect(page.reviews[0]).toEqual({
      id: "lave0000-4c1e-4b7e-9a51-2f6d1c0e0000",
      rating: { value: 5, best: 5, worst: 1 },
      text: "ラベンダーの香りがとても自然で、部屋全体に広がります。\n\nまた購入します。",
      url: PAGE,
      date: "2026-11-20 14:05:09 UTC",
      author_name: "Hana & Kenji T.",
      title: "とても良い香り",
      author_badges: ["verified_buyer"],
    });
    expect(page.reviews[1]).toEqual({
      id: "lave0001-4c1e-4b7e-9a51-2f6d1c0e0001",
      rating: { value: 4, best: 5, worst: 1 },
      text: "Smells wonderful & looks great.\nBurned for 30 hours, not 40.",
      url: PAGE,
      date: "2026-11-18 14:05:09 UTC",
      author_name: "Maria L.",
      title: "Lovely, but burns fast",
      photos: ["https://judgeme.imgix.net/acme-candles/1731000000__lavender__original.jpg"],
    });
  });

  it("states the product's count, average and histogram; the next page carries this page's first review", async () => {
    const page = parseJudgeMePage(await answer(1), ctx(1));
    expect(page.publisherTotal).toBe(23);
    expect(page.summary).toEqual({
      rating: 3.57,
      ratingScale: "1-5",
      histogram: { "5": 9, "4": 4, "3": 4, "2": 3, "1": 3 },
    });
    expect(page.next).toEqual({ page: 2, token: "lave0000-4c1e-4b7e-9a51-2f6d1c0e0000" });
    const last = parseJudgeMePage(await answer(3), ctx(3, "lave0010-4c1e-4b7e-9a51-2f6d1c0e0010"));
    expect([last.next, last.reviews.map((r) => r.id?.slice(0, 8))]).toEqual([
      null,
      ["lave0020", "lave0021", "lave0022"],
    ]);
  });

  it("the store's shop reviews: all_reviews_page by page, the header's shop-review count, no summary (the header mixes product reviews in)", async () => {
    const key = `acme-candles//${TOKEN}`;
    const url = new URL(judgeMeReviewsUrl(key, at(2)));
    expect(url.origin + url.pathname).toBe("https://judge.me/api/v1/widgets/all_reviews_page");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      api_token: TOKEN,
      shop_domain: "acme-candles.myshopify.com",
      page: "2",
      review_type: "shop-reviews",
    });
    const storeCtx = (page: number, token: string | null) => parseContext(key, STORE, at(page, token));
    const first = parseJudgeMePage(await answer(1, key), storeCtx(1, null));
    expect(first.reviews).toHaveLength(25);
    expect(first.reviews[0]).toEqual({
      id: "shop0000-4c1e-4b7e-9a51-2f6d1c0e0000",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Arrived in two days, well packed.",
      url: STORE,
      date: "2026-11-20 14:05:09 UTC",
      author_name: "Hana & Kenji T.",
      title: "Fast shipping",
      author_badges: ["verified_buyer"],
    });
    expect(first).toMatchObject({ publisherTotal: 30, next: { page: 2, token: first.reviews[0].id } });
    expect(first.summary).toBeUndefined();
    const second = parseJudgeMePage(await answer(2, key), storeCtx(2, first.reviews[0].id!));
    expect(second.reviews).toHaveLength(5);
    // No page size is stated: the walk asks once more and ends at the empty page.
    expect(parseJudgeMePage(await answer(3, key), storeCtx(3, second.reviews[0].id!)).next).toBeNull();
    const uncounted = { ...((await answer(1, key)) as object), shopReviewCount: "many" };
    expect(scrapeError(() => parseJudgeMePage(uncounted, storeCtx(1, null))).message).toBe(
      "judge.me shop reviews: the header's data-number-of-shop-reviews is not a count",
    );
  });

  it("a later page that starts with the previous page's first review ends the walk as a limited view", async () => {
    const key = `acme-candles/stuck-pager/${TOKEN}`;
    const first = parseJudgeMePage(await answer(1, key), ctx(1, null, key));
    expect(first.next).toEqual({ page: 2, token: "stuc0000-4c1e-4b7e-9a51-2f6d1c0e0000" });
    const again = parseJudgeMePage(await answer(2, key), ctx(2, first.next!.token, key));
    expect(again).toMatchObject({ reviews: [], next: null, publisherTotal: 12 });
    expect(again.limitedView).toMatch(/answered page 1 again/);
  });

  it("markup without the widget, an answer without it, and an empty page before the last are publisher_error", async () => {
    const key = `acme-candles/moved-widget/${TOKEN}`;
    expect(scrapeError(() => parseJudgeMePage(undefined, ctx(1))).reason).toBe("publisher_error");
    const moved = await answer(1, key);
    expect(scrapeError(() => parseJudgeMePage(moved, ctx(1, null, key))).message).toBe(
      "judge.me product reviews: the answer's widget has no .jdgm-rev-widg (the Review Widget markup)",
    );
    await expect(readJudgeMeAnswer({ product_external_id: 1 })).rejects.toMatchObject({
      reason: "publisher_error",
      message: expect.stringContaining("judge.me product reviews: unexpected answer at widget"),
    });
    const hollow = await readJudgeMeAnswer({
      widget: "<div class='jdgm-rev-widg' data-number-of-reviews='30'></div>",
    });
    expect(scrapeError(() => parseJudgeMePage(hollow, ctx(1))).message).toBe(
      "judge.me product reviews: page 1 is empty although the answer counts pages up to 3",
    );
  });

  it("hostile answers and markup end as publisher_error or a read page, never a TypeError, within the work budget", async () => {
    expectHostileInputHandled(parseJudgeMePage);
    const wrap = (reviews: unknown) => ({
      kind: "product",
      shopReviewCount: null,
      found: true,
      averageRating: null,
      reviewCount: "1",
      histogram: [],
      reviews,
    });
    expectHostileInputHandled(parseJudgeMePage, wrap, { wrapsItems: true });
    // Markup nested deeper than the parser's memory, and more elements than the budget allows.
    const deep = await readWidget(
      `<div class='jdgm-rev-widg'>${"<div>".repeat(200_000)}`,
      new WorkBudget("t"),
    ).catch((err: unknown) => err);
    expect(deep instanceof ScrapeError || (deep as { found?: boolean }).found === true).toBe(true);
    const many = `<div class='jdgm-rev-widg'>${"<div class='jdgm-rev' data-review-id='x'></div>".repeat(50)}</div>`;
    await expect(readWidget(many, new WorkBudget("t", 10))).rejects.toBeInstanceOf(ScrapeError);
    // A store page of unclosed settings markers is one bounded scan ending in publisher_error.
    const hostile = `${"jdgm.PUBLIC_TOKEN = '".repeat(100_000)}`;
    expect(scrapeError(() => storeSettingsOf(hostile, "acme-candles")).reason).toBe("publisher_error");
  });

  it("states its evidence date", () => {
    expect(judgeme.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
  });
});

describe("judge.me end to end", () => {
  const queue = queuePerTest();

  it("reads the store page once, then the widget over three pages; the summary and Japanese text come through", async () => {
    const task = await submitScrape("judge.me", "acme-candles.myshopify.com/products/lavender-soy-candle");
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-judgeme", "ack"]]);
    expect(await fixtureRequests("myshopify.com", "/products/lavender")).toEqual({
      "/products/lavender-soy-candle": 1,
    });
    expect(await fixtureRequests("judge.me", "/api/v1/widgets/product_review?api_token=Yc8")).toEqual(
      Object.fromEntries(
        [1, 2, 3].map((page) => [
          `/api/v1/widgets/product_review?api_token=${TOKEN}&shop_domain=acme-candles.myshopify.com&handle=lavender-soy-candle&page=${page}&per_page=10`,
          1,
        ]),
      ),
    );
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(
      LAVENDER.filter((r) => r.score !== null).map((r) => r.id),
    );
    expect(reviews[0]).toMatchObject({
      review_id: "lave0000-4c1e-4b7e-9a51-2f6d1c0e0000",
      rating: 5,
      title: "とても良い香り",
      language: "ja",
      author_name: "Hana & Kenji T.",
      posted_at: Date.UTC(2026, 10, 20, 14, 5, 9),
    });
    expect(reviews.at(-1)).toMatchObject({
      posted_at: Date.UTC(2026, 10, 20, 14, 5, 9) - 22 * 2 * 86_400_000,
    });
    expect(body.business.publisher_summary).toEqual({
      rating: 3.57,
      rating_scale: "1-5",
      review_count: 23,
      histogram: { "1": 3, "2": 3, "3": 4, "4": 4, "5": 9 },
    });
  });

  it("the store's shop reviews, from its home page: three answers, every review, coverage complete", async () => {
    const task = await submitScrape("judge.me", "acme-candles.myshopify.com");
    await queue().drain();
    expect(await fixtureRequests("judge.me", "/api/v1/widgets/all_reviews_page")).toEqual(
      Object.fromEntries(
        [1, 2, 3].map((page) => [
          `/api/v1/widgets/all_reviews_page?api_token=${TOKEN}&shop_domain=acme-candles.myshopify.com&page=${page}&review_type=shop-reviews`,
          1,
        ]),
      ),
    );
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(STORE);
    expect((body.reviews as Record<string, unknown>[]).map((r) => r.review_id)).toEqual(
      SHOP_REVIEWS.map((r) => r.id),
    );
    expect(body.coverage).toMatchObject({ publisher_total: 30, collected: 30, complete: true });
    expect(body.business.publisher_summary).toMatchObject({
      review_count: 30,
      rating: null,
      histogram: null,
    });
  });

  it("a product without reviews completes with none; a pager that repeats page 1 completes as a limited view", async () => {
    const quiet = await submitScrape(
      "judge.me",
      "https://acme-candles.myshopify.com/products/unscented-pillar",
    );
    const stuck = await submitScrape("judge.me", "https://acme-candles.myshopify.com/products/stuck-pager");
    await queue().drain();
    const none = await retrieve(quiet);
    expect([none.task_status, none.reviews]).toEqual([200, []]);
    const body = await retrieve(stuck, 1, 200);
    // Page 1's ten reviews, one of them (4) without a data-score.
    expect((body.reviews as unknown[]).length).toBe(9);
    expect(body.coverage).toMatchObject({
      publisher_total: 12,
      collected: 9,
      complete: false,
      stop_reason: expect.stringMatching(
        /^limited_view: judge.me product reviews: the API answered page 1 again/,
      ),
    });
  });

  it("an unknown product is profile_not_found; no token, a refused token and changed markup are publisher_error naming them", async () => {
    const gone = await submitScrape("judge.me", "https://acme-candles.myshopify.com/products/no-such-thing");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const bare = await submitScrape("judge.me", "bare-shop.myshopify.com/products/any-product");
    const moved = await submitScrape("judge.me", "acme-candles.myshopify.com/products/moved-widget");
    const stale = await submitScrape("judge.me", "stale-candles.myshopify.com/products/any-product");
    await queue().drain();
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    expect((await retrieve(bare)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, bare.taskId)).toContain("no jdgm.PUBLIC_TOKEN");
    expect((await retrieve(moved)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, moved.taskId)).toContain("has no .jdgm-rev-widg");
    expect((await retrieve(stale)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, stale.taskId)).toContain("the Widget API refused the store's public token");
  });
});
