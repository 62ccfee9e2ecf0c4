/** tabelog.com (profile_key examples: the module's own, run by ../contract.test.ts): the review list page, hostile pages, and end to end through scrape-tabelog. */
import { describe, expect, it, vi } from "vitest";
import { tabelog } from "../../../src/publishers/tabelog";
import {
  asTabelogPage,
  parseTabelogPage,
  readTabelogPage,
  tabelogReviewsUrl,
} from "../../../src/publishers/tabelog/reviews";
import { WorkBudget } from "../../../src/publishers/kit/work-budget";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { hostilePage, hostilePages, withinBudget } from "../hostile-inputs";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureAnswer, parseContext } from "../walk-support";
import fc from "fast-check";
import fixture, { EMPTY, MAINTENANCE, RESTAURANT, REVIEWS } from "./site";

const PAGE = `https://tabelog.com/${RESTAURANT}/`;
const ctx = (page: number) => parseContext(RESTAURANT, PAGE, { page, token: null });
const read = (key: string, page: number) =>
  readTabelogPage(
    fixtureAnswer(fixture, tabelogReviewsUrl(key, { page, token: null })).body,
    new WorkBudget("test"),
  );
const SCRAPED_AT = Date.UTC(2026, 10, 27, 6, 0);

describe("tabelog review list page", () => {
  it("asks for the full texts, newest visit first, by page number", () => {
    const url = new URL(tabelogReviewsUrl(RESTAURANT, { page: 3, token: null }));
    expect(url.origin + url.pathname).toBe(`https://tabelog.com/${RESTAURANT}/dtlrvwlst/`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      smp: "1",
      lc: "0",
      rvw_part: "all",
      srt: "visit",
      sby: "D",
      PG: "3",
    });
  });

  it("reads a card's exact fields: id, score, aspects, visit month, title, text, reviewer, photos", async () => {
    const page = parseTabelogPage(await read(RESTAURANT, 1), ctx(1), SCRAPED_AT);
    expect(page.next).toEqual({ page: 2, token: null });
    expect(page.publisherTotal).toBe(45);
    expect(page.summary).toEqual({ rating: 3.58, ratingScale: "1-5" });
    expect(page.pageLanguage).toBe("ja");
    // 20 cards, one (7) without a score ("-").
    expect(page.reviews).toHaveLength(19);
    expect(page.reviews[0]).toEqual({
      id: "B412000000",
      rating: { value: 3.5, best: 5, worst: 1 },
      text: "カウンターで揚げたての天ぷらをいただきました。\n海老とかき揚げが絶品でした。また伺います！",
      url: `https://tabelog.com/${RESTAURANT}/dtlrvwlst/B412000000/`,
      author_name: "食べ歩き太郎",
      author_url: "https://tabelog.com/rvwr/user0/",
      author_review_count: 1234,
      date: "2026/10訪問",
      visit_date: "2026-10",
      title: "季節の天ぷらとお酒 & 穏やかな時間",
      // 酒・ドリンク is "-" (not rated): left out.
      sub_ratings: { food: 4, service: 3.5, atmosphere: 3.8, value: 3.2 },
      photos: ["https://tblg.k-img.com/restaurant/images/Rvw/1/640x640_rect_1a2b3c.jpg"],
    });
    // The country badge is not part of the name.
    expect(page.reviews[1]).toMatchObject({
      id: "B412000001",
      author_name: "レビュアー1",
      rating: { value: 4.2 },
    });
    // Dinner and lunch scores: the dinner score and its aspects.
    expect(page.reviews[3]).toMatchObject({
      id: "B412000003",
      rating: { value: 4.8, best: 5, worst: 1 },
      sub_ratings: { food: 4, service: 3.5, atmosphere: 3.8, value: 3.2 },
    });
    expect(page.reviews.map((r) => r.id)).not.toContain("B412000007");
    expect(page.limitedView).toBe(
      'Tabelog reviews without a score (printed "-") are left out: a review needs a rating',
    );
    expect(page.reviews.at(-1)).toMatchObject({
      id: "B412000019",
      date: "2026/06訪問",
      visit_date: "2026-06",
    });
  });

  it("the last page has no next; later pages carry no summary", async () => {
    const last = parseTabelogPage(await read(RESTAURANT, 3), ctx(3), SCRAPED_AT);
    expect(last.next).toBeNull();
    expect(last.reviews.map((r) => r.id)).toEqual(REVIEWS.slice(40).map((r) => r.id));
    expect(last.summary).toBeUndefined();
    expect(last.publisherTotal).toBeUndefined();
  });

  it("a restaurant without reviews is an empty last page with its header; a page without header or cards is publisher_error", async () => {
    const empty = parseTabelogPage(await read(EMPTY, 1), parseContext(EMPTY, PAGE, { page: 1, token: null }));
    expect([empty.reviews, empty.next, empty.publisherTotal, empty.summary]).toEqual([
      [],
      null,
      0,
      undefined,
    ]);
    expect(
      scrapeError(() =>
        parseTabelogPage({ cards: [], hasNext: true, restaurantHeader: true, score: "", total: "" }, ctx(2)),
      ).message,
    ).toBe("Tabelog review list: page 2 has no review cards although a next page follows");
    const maintenance = await read(MAINTENANCE, 1);
    expect(scrapeError(() => parseTabelogPage(maintenance, ctx(1))).message).toContain(
      "neither the restaurant header (.rdheader-rating__score-val-dtl) nor review cards (div.rvw-item)",
    );
  });

  it("hostile pages (unclosed markup, deep nesting, huge cards) stay within budget and end as publisher_error or a read page", async () => {
    const vocabulary = [
      '<div class="rvw-item" data-detail-url="/a/dtlrvwlst/B1/">',
      '<p class="rvw-item__ratings-total"><b class="c-rating-v3__val">',
      '<li class="c-rating-detail__item"><span>',
      '<div class="rvw-item__rvw-comment"><p>',
    ];
    for (const html of Object.values(hostilePages(vocabulary)))
      await withinBudget(async (b) => parseTabelogPage(await readTabelogPage(html, b), ctx(1)));
    await fc.assert(
      fc.asyncProperty(hostilePage(vocabulary), async (html) => {
        await withinBudget(async (b) => parseTabelogPage(await readTabelogPage(html, b), ctx(1)));
      }),
      { numRuns: 15 },
    );
    // Whatever reaches the parser other than a read page is publisher_error, never a TypeError.
    expectHostileInputHandled((data, c) => parseTabelogPage(asTabelogPage(data), c));
  });

  it("states its evidence date", () => {
    expect(tabelog.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
  });
});

describe("tabelog end to end", () => {
  const queue = queuePerTest();

  it("walks the review list over three pages newest visit first, with the restaurant's score and count", async () => {
    const task = await submitScrape("tabelog.com", `https://tabelog.com/en/${RESTAURANT}/dtlrvwlst/?PG=2`);
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-tabelog", "ack"]]);
    expect(await fixtureRequests("tabelog.com", `/${RESTAURANT}/`)).toEqual(
      Object.fromEntries(
        [1, 2, 3].map((page) => [
          `/${RESTAURANT}/dtlrvwlst/?smp=1&lc=0&rvw_part=all&srt=visit&sby=D&PG=${page}`,
          1,
        ]),
      ),
    );
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    expect(body.business.publisher_summary).toEqual({
      rating: 3.58,
      rating_scale: "1-5",
      review_count: 45,
      histogram: null,
    });
    // 45 stated, 44 with a score: coverage says so.
    expect(body.coverage).toMatchObject({
      publisher_total: 45,
      collected: 44,
      complete: false,
      stop_reason:
        'limited_view: Tabelog reviews without a score (printed "-") are left out: a review needs a rating',
    });
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(
      REVIEWS.filter((r) => r.scores[0].value !== "-").map((r) => r.id),
    );
    expect(reviews[0]).toMatchObject({
      review_id: "B412000000",
      rating: 4, // 3.5 points, rounded half up
      author_name: "食べ歩き太郎",
      author_id: "https://tabelog.com/rvwr/user0/",
      url: `https://tabelog.com/${RESTAURANT}/dtlrvwlst/B412000000/`,
      photos: ["https://tblg.k-img.com/restaurant/images/Rvw/1/640x640_rect_1a2b3c.jpg"],
      title: "季節の天ぷらとお酒 & 穏やかな時間",
      text: "カウンターで揚げたての天ぷらをいただきました。\n海老とかき揚げが絶品でした。また伺います！",
      language: "ja",
      source_date: "2026/10訪問",
      posted_at: Date.UTC(2026, 9, 1),
      visited_at: Date.UTC(2026, 9, 1),
      author_review_count: 1234,
      sub_ratings: { food: 4, service: 4, atmosphere: 4, value: 3 },
    });
    expect(reviews.at(-1)).toMatchObject({
      review_id: "B412000044",
      source_date: "2025/11訪問",
      posted_at: Date.UTC(2025, 10, 1),
      visited_at: Date.UTC(2025, 10, 1),
    });
  });

  it("a restaurant without reviews completes with none; an unknown one is profile_not_found; a maintenance page is publisher_error naming what is missing", async () => {
    const empty = await submitScrape("tabelog.com", EMPTY);
    const gone = await submitScrape("tabelog.com", "https://tabelog.com/tokyo/A1301/A130101/13999999/");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const changed = await submitScrape("tabelog.com", `https://tabelog.com/${MAINTENANCE}/`);
    await queue().drain();
    const emptyBody = await retrieve(empty);
    expect([emptyBody.task_status, emptyBody.reviews]).toEqual([200, []]);
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    expect((await retrieve(changed)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, changed.taskId)).toContain("neither the restaurant header");
  });
});
