/** naver.com (profile_key examples: the module's own, run by ../contract.test.ts): the place page's business type, the GraphQL request and answer, hostile answers, and end to end through scrape-naver. */
import { describe, expect, it, vi } from "vitest";
import { naver } from "../../../src/publishers/naver";
import { businessTypeOf } from "../../../src/publishers/naver/profile";
import { naverReviewsRequest, parseNaverPage, wtmHeader } from "../../../src/publishers/naver/reviews";
import { failureDetails } from "../../helpers/logs";
import { fixtureCookies, fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureAnswer, fixtureJson, parseContext } from "../walk-support";
import fixture, { CAPTCHA, EMPTY, NO_STATE, PLACE, REVIEWS, TOKEN } from "./site";

const PAGE = `https://pcmap.place.naver.com/place/${PLACE}/home`;
const KEY = `restaurant/${PLACE}`;
const SESSION = { cookie: "NNB=fixture-session-7f3a" };
const SCRAPED_AT = Date.UTC(2026, 10, 27, 6, 0);
const answer = (token: string | null, key = KEY) => {
  const request = naverReviewsRequest(key, { page: 1, token });
  return fixtureJson(fixture, request.url, {
    method: "POST",
    body: String(request.options.body),
    headers: Object.fromEntries(
      Object.entries(request.options.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]),
    ),
    ...SESSION,
  });
};
const ctx = (page: number, token: string | null) => parseContext(KEY, PAGE, { page, token });

describe("naver place page and GraphQL", () => {
  it("reads the business type from the place page's Apollo state, 'place' where it names none", () => {
    expect(businessTypeOf(fixtureAnswer(fixture, PAGE).body, PLACE)).toBe("restaurant");
    const empty = fixtureAnswer(fixture, `https://pcmap.place.naver.com/place/${EMPTY}/home`).body;
    expect(businessTypeOf(empty, EMPTY)).toBe("place");
    // The state of another place does not describe this one.
    expect(scrapeError(() => businessTypeOf(empty, PLACE)).message).toBe(
      `Naver place page: window.__APOLLO_STATE__ has no PlaceDetailBase:${PLACE}`,
    );
    const bare = fixtureAnswer(fixture, `https://pcmap.place.naver.com/place/${NO_STATE}/home`).body;
    expect(scrapeError(() => businessTypeOf(bare, NO_STATE)).message).toBe(
      "Naver place page: no readable window.__APOLLO_STATE__",
    );
  });

  it("posts getVisitorReviews (and the stats on page one) with the x-wtm-graphql header, newest first, by cursor", () => {
    expect(wtmHeader(PLACE, "restaurant")).toBe(
      "eyJhcmciOiIxNzE2OTI2MzkzIiwidHlwZSI6InJlc3RhdXJhbnQiLCJzb3VyY2UiOiJwbGFjZSJ9",
    );
    const first = naverReviewsRequest(KEY, { page: 1, token: null });
    expect(first.url).toBe("https://pcmap-api.place.naver.com/graphql");
    expect(first.options).toMatchObject({
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Referer: `https://pcmap.place.naver.com/restaurant/${PLACE}/review/visitor`,
        Origin: "https://pcmap.place.naver.com",
        "x-wtm-graphql": wtmHeader(PLACE, "restaurant"),
      },
    });
    const batch = JSON.parse(String(first.options.body)) as { operationName: string; variables: unknown }[];
    expect(batch.map((op) => op.operationName)).toEqual(["getVisitorReviews", "getVisitorReviewStats"]);
    expect(batch[0].variables).toEqual({
      input: {
        businessId: PLACE,
        businessType: "restaurant",
        item: "0",
        size: 10,
        sort: "RECENT",
        isPhotoUsed: false,
        includeContent: true,
        getUserStats: true,
        includeReceiptPhotos: false,
        getReactions: false,
        getTrailer: false,
      },
    });
    const later = JSON.parse(String(naverReviewsRequest(KEY, { page: 2, token: "c-9" }).options.body)) as {
      operationName: string;
      variables: { input: { after?: string } };
    }[];
    expect([later.length, later[0].variables.input.after]).toEqual([1, "c-9"]);
    expect(scrapeError(() => naverReviewsRequest(PLACE, { page: 1, token: null })).message).toBe(
      "Naver visitor reviews: the place's business type is unknown",
    );
  });

  it("reads a page's exact fields, Korean dates and languages, the total, the average and the cursor", () => {
    const page = parseNaverPage(answer(null), ctx(1, null), SCRAPED_AT);
    expect(page.publisherTotal).toBe(23);
    expect(page.summary).toEqual({ rating: 4.42, ratingScale: "1-5" });
    expect(page.next).toEqual({ page: 2, token: REVIEWS[9].cursor });
    expect(page.pageLanguage).toBe("ko");
    // 10 items, review 4 without a star rating.
    expect(page.reviews).toHaveLength(9);
    expect(page.limitedView).toBe(
      "Naver visitor reviews without a star rating (keyword-only reviews) are left out: a review needs a rating",
    );
    expect(page.reviews[0]).toEqual({
      id: REVIEWS[0].id,
      rating: { value: 5, best: 5, worst: 1 },
      text: "점심에 방문했어요.\n샐러드가 신선하고 양도 많아요! 다음에 또 올게요 😊",
      url: PAGE,
      author_name: "맛집탐방러",
      author_url: "https://m.place.naver.com/my/author0/review?v=2",
      author_review_count: 318,
      date: "11.24.화",
      visit_date: "2026-11-23",
      language: "ko",
      photos: ["https://pup-review-phinf.pstatic.net/MjAyNjExMjRf/photo1.jpeg"],
      reply_text: "방문해 주셔서 감사합니다!",
      reply_date: "2026-11-25T02:10:00+09:00",
    });
    expect(page.reviews[2]).toMatchObject({ id: REVIEWS[2].id, language: "ja", date: "11.6.금" });
    expect(page.reviews.at(-1)).toMatchObject({
      id: REVIEWS[9].id,
      date: "26.9.4.금",
      visit_date: "2026-09-03",
    });
    const last = parseNaverPage(answer(REVIEWS[19].cursor), ctx(3, REVIEWS[19].cursor), SCRAPED_AT);
    expect(last.reviews.map((r) => r.id)).toEqual(REVIEWS.slice(20).map((r) => r.id));
    expect([last.next, last.summary, last.publisherTotal]).toEqual([null, undefined, undefined]);
  });

  it("GraphQL errors are publisher_error quoting them; a demand for a captcha token names the token", () => {
    expect(
      scrapeError(() => parseNaverPage([{ errors: [{ message: "Internal" }], data: null }], ctx(1, null)))
        .message,
    ).toBe("Naver visitor reviews: the GraphQL answer has errors: Internal");
    const token = answer(null, `hairshop/${TOKEN}`);
    expect(scrapeError(() => parseNaverPage(token, ctx(1, null))).message).toBe(
      "Naver visitor reviews: Naver asks for an NCaptcha solution (x-wtm-ncaptcha-token), which this module cannot derive: " +
        "Ncaptcha token required (x-wtm-ncaptcha-token)",
    );
  });

  it("a changed answer, an empty page or a missing cursor before the stated total are publisher_error", () => {
    const wrap = (items: unknown[], total: unknown = 23) => [{ data: { visitorReviews: { items, total } } }];
    expect(scrapeError(() => parseNaverPage([{ data: { reviews: [] } }], ctx(1, null))).message).toContain(
      "Naver visitor reviews: unexpected answer at visitorReviews",
    );
    expect(scrapeError(() => parseNaverPage(wrap([], "many"), ctx(1, null))).message).toBe(
      "Naver visitor reviews: visitorReviews.total is not a count",
    );
    expect(scrapeError(() => parseNaverPage(wrap([]), ctx(2, "c"))).message).toBe(
      "Naver visitor reviews: page 2 is empty although the answer counts 23 reviews",
    );
    const noCursor = REVIEWS.slice(0, 10).map(({ cursor: _cursor, ...rest }) => rest);
    expect(scrapeError(() => parseNaverPage(wrap(noCursor), ctx(1, null))).message).toBe(
      "Naver visitor reviews: page 1 has no cursor although the answer counts 23 reviews",
    );
  });

  it("hostile answers and pages end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseNaverPage);
    expectHostileInputHandled(
      parseNaverPage,
      (items) => [{ data: { visitorReviews: { items, total: 1 } } }],
      {
        wrapsItems: true,
      },
    );
    // Unbalanced braces after the marker, and a huge string: one bounded scan, publisher_error.
    const hostile = `window.__APOLLO_STATE__ = {"a":"${'\\"'.repeat(200_000)}${"{".repeat(300_000)}`;
    expect(scrapeError(() => businessTypeOf(hostile, PLACE)).reason).toBe("publisher_error");
  });

  it("states its evidence date", () => {
    expect(naver.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
  });
});

describe("naver end to end", () => {
  const queue = queuePerTest();

  it("opens the place page once, then walks the GraphQL by cursor over three pages with the session cookie", async () => {
    const task = await submitScrape(
      "naver.com",
      `https://map.naver.com/p/entry/place/${PLACE}?c=15.00,0,0,0,dh`,
    );
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-naver", "ack"]]);
    expect(await fixtureRequests("naver.com", "/place/")).toEqual({ [`/place/${PLACE}/home`]: 1 });
    expect(await fixtureRequests("naver.com", "/graphql")).toEqual({ "/graphql": 3 });
    // Every GraphQL call carried the cookie the place page set.
    expect((await fixtureCookies("naver.com", "/graphql"))["/graphql"]).toEqual(
      Array(3).fill("NNB=fixture-session-7f3a"),
    );
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    expect(body.business.publisher_summary).toEqual({
      rating: 4.42,
      rating_scale: "1-5",
      review_count: 23,
      histogram: null,
    });
    expect(body.coverage).toMatchObject({
      publisher_total: 23,
      collected: 22,
      complete: false,
      stop_reason:
        "limited_view: Naver visitor reviews without a star rating (keyword-only reviews) are left out: a review needs a rating",
    });
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(
      REVIEWS.filter((r) => r.rating !== null).map((r) => r.id),
    );
    expect(reviews[0]).toMatchObject({
      review_id: REVIEWS[0].id,
      rating: 5,
      author_name: "맛집탐방러",
      language: "ko",
      source_date: "11.24.화",
      posted_at: Date.UTC(2026, 10, 24),
      visited_at: Date.UTC(2026, 10, 23),
      author_review_count: 318,
      author_id: "https://m.place.naver.com/my/author0/review?v=2",
      url: PAGE,
      photos: ["https://pup-review-phinf.pstatic.net/MjAyNjExMjRf/photo1.jpeg"],
      owner_reply: { text: "방문해 주셔서 감사합니다!", posted_at: Date.UTC(2026, 10, 24, 17, 10) },
    });
    expect(reviews.find((r) => r.review_id === REVIEWS[2].id)).toMatchObject({ language: "ja" });
    expect(reviews.at(-1)).toMatchObject({
      review_id: REVIEWS[22].id,
      source_date: "26.5.10.일",
      posted_at: Date.UTC(2026, 4, 10),
    });
  });

  it("a place without reviews completes with none (submitted under the alias map.naver.com, on scrape-naver); an unknown place is profile_not_found", async () => {
    const empty = await submitScrape(
      "map.naver.com",
      `https://m.place.naver.com/restaurant/${EMPTY}/review/visitor`,
    );
    const gone = await submitScrape("naver.com", "9999999999");
    const deliveries = await queue().drain();
    expect([...new Set(deliveries.map((d) => d.queue))]).toEqual(["scrape-naver"]);
    const emptyBody = await retrieve(empty);
    expect([emptyBody.task_status, emptyBody.reviews]).toEqual([200, []]);
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
  });

  it("a captcha page is blocked; a page without the state and a captcha-token demand are publisher_error naming what is missing", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const captcha = await submitScrape("naver.com", CAPTCHA);
    const noState = await submitScrape("naver.com", NO_STATE);
    const token = await submitScrape("naver.com", TOKEN);
    await queue().drain();
    expect((await retrieve(captcha)).response_message).toEqual(failed("blocked"));
    expect((await retrieve(noState)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, noState.taskId)).toContain("no readable window.__APOLLO_STATE__");
    expect((await retrieve(token)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, token.taskId)).toContain("x-wtm-ncaptcha-token");
  });
});
