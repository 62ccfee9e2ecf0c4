/** Yandex Maps (profile_key examples: the module's own, run by ../contract.test.ts): the query signature, the page state, the reviews API's answer, and end to end through scrape-yandex. */
import { describe, expect, it, vi } from "vitest";
import { yandex } from "../../../src/publishers/yandex";
import {
  fetchReviewsUrl,
  orgStateOf,
  readApiAnswer,
  readReviews,
  WINDOW_PAGES,
} from "../../../src/publishers/yandex/reviews";
import { djb2Xor, signedQuery } from "../../../src/publishers/yandex/sign";
import { scriptTexts } from "../../../src/publishers/kit/html-scan";
import { WorkBudget } from "../../../src/publishers/kit/work-budget";
import type { ParseContext, WalkPage } from "../../../src/publishers/kit/json-walk";
import { ScrapeError } from "../../../src/scraping/errors";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureAnswer, fixtureJson } from "../walk-support";
import fixture, {
  CAPTCHA,
  CSRF,
  HUGE,
  ORG_REVIEWS,
  PUSHKIN,
  REFUSING,
  REQ_ID,
  SESSION_ID,
  SMALL,
  STALE,
  STATELESS,
} from "./site";

const PAGE = `https://yandex.ru/maps/org/${PUSHKIN}/`;
const SESSION = { csrfToken: CSRF, sessionId: SESSION_ID, reqId: REQ_ID };
const budget = () => new WorkBudget("test");
const stateOf = async (org: string) => {
  const [text] = await scriptTexts(
    fixtureAnswer(fixture, `https://yandex.ru/maps/org/${org}/reviews/`).body,
    "script.state-view",
  );
  return orgStateOf(text, budget());
};
const apiAnswer = (page: number, org = PUSHKIN) =>
  fixtureJson(fixture, fetchReviewsUrl("https://yandex.ru", org, page, SESSION));

describe("Yandex Maps query signature", () => {
  // Two request URLs Yandex's own front end made (2024-08-14 and 2026-09-05, the csrfToken's
  // timestamps), as published in public code: the signer must give their `s` from the rest.
  it.each([
    "ajax=1&businessId=149979773456&csrfToken=57bc959376278aec39d19dae3c62f6b5638229a3%3A1723636953&locale=ru_RU&page=1&pageSize=50&ranking=by_time&reqId=1723636953293713-3174470668-addrs-upper-yp-13&s=1603452967&sessionId=1723636953246801-9621007603936156238-balancer-l7leveler-kubr-yp-vla-144-BAL",
    "ajax=1&businessId=41867541882&csrfToken=efdc30abb7ad58759de6962e19d5f84321a5b86d%3A1788594635&locale=ru_RU&page=1&pageSize=50&ranking=by_relevance_org&reqId=1788594635192059-1231116757-addrs-upper-yp-22&s=759499643&sessionId=1788594635146516-7338186996850161903-balancer-l7leveler-kubr-yp-vla-88-BAL",
  ])("signs a real captured request exactly: %s", (query) => {
    const params = Object.fromEntries(new URLSearchParams(query));
    delete params.s;
    expect(signedQuery(params)).toBe(query);
  });

  it("hashes with djb2-xor in unsigned 32 bits, and sorts keys without regard to case", () => {
    expect([djb2Xor(""), djb2Xor("a")]).toEqual([5381, (5381 * 33) ^ 97]);
    expect(signedQuery({ b: "2", A: "1 2", c: "ü" })).toBe(
      `A=1%202&b=2&c=%C3%BC&s=${djb2Xor("A=1%202&b=2&c=%C3%BC")}`,
    );
  });
});

describe("Yandex Maps page state and reviews API answer", () => {
  it("asks for page N newest first, 50 a page, with the page's session values and the signature", () => {
    const url = new URL(fetchReviewsUrl("https://yandex.ru", PUSHKIN, 3, SESSION));
    expect(url.origin + url.pathname).toBe("https://yandex.ru/maps/api/business/fetchReviews");
    const params = Object.fromEntries(url.searchParams);
    expect(params).toEqual({
      ajax: "1",
      businessId: PUSHKIN,
      csrfToken: CSRF,
      locale: "ru_RU",
      page: "3",
      pageSize: "50",
      ranking: "by_time",
      reqId: REQ_ID,
      s: expect.stringMatching(/^\d+$/),
      sessionId: SESSION_ID,
    });
    // Without session values only what is sent is signed.
    expect(
      new URL(
        fetchReviewsUrl("https://yandex.ru", PUSHKIN, 1, { csrfToken: null, sessionId: null, reqId: null }),
      ).search,
    ).not.toMatch(/sessionId|reqId/);
  });

  it("reads the state: the session values, the embedded review results (not another list of reviews), the count and the rating", async () => {
    const state = await stateOf(PUSHKIN);
    expect({ ...state, embedded: state.embedded.length }).toEqual({
      ...SESSION,
      embedded: 50,
      count: 113,
      summary: { rating: 4.6, ratingScale: "1-5" },
    });
    expect((await stateOf(SMALL)).embedded).toHaveLength(7);
    expect(scrapeError(() => orgStateOf("{not json", budget())).message).toBe(
      "Yandex Maps reviews page: the state-view script is not JSON",
    );
  });

  it("reads an answer: ids, stars, Cyrillic and English text, authors, likes, the owner's reply, the page count", () => {
    const answer = readApiAnswer(apiAnswer(1));
    if (!("reviews" in answer)) throw new Error("expected reviews");
    expect([answer.count, answer.totalPages, answer.reviews.length]).toEqual([113, 3, 50]);
    const reviews = readReviews(answer.reviews, PAGE, budget());
    // Review 3 is rated 6, outside Yandex's 1–5 stars: skipped.
    expect(reviews).toHaveLength(49);
    expect(reviews[0]).toEqual({
      id: "r821-0000",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Прекрасный ресторан: борщ и пельмени выше всяких похвал, обслуживание на высоте.",
      url: PAGE,
      date: "2026-11-18T09:30:00.000Z",
      author_name: "Мария Петрова",
      likes: 7,
      reply_text: "Спасибо, ждём вас снова!",
      reply_date: "2026-11-18T11:30:00.000Z",
    });
    expect(reviews[2]).toEqual({
      id: "r821-0002",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Great place, friendly staff and a cosy atmosphere in the very centre of Moscow.",
      url: PAGE,
      date: "2026-11-15T23:30:00.000Z",
      author_name: "John D.",
      likes: 0,
    });
    expect(reviews.map((r) => r.id)).not.toContain("r821-0003");
  });

  it("a stale token is answered with a fresh token; a captcha is blocked; an error or a changed answer is publisher_error", () => {
    expect(
      readApiAnswer(
        fixtureJson(
          fixture,
          fetchReviewsUrl("https://yandex.ru", PUSHKIN, 1, { ...SESSION, csrfToken: "old:1" }),
        ),
      ),
    ).toEqual({ csrfToken: CSRF });
    expect(scrapeError(() => readApiAnswer({ type: "captcha", captcha: {} })).reason).toBe("blocked");
    expect(scrapeError(() => readApiAnswer(apiAnswer(13, HUGE))).message).toBe(
      "Yandex Maps reviews: the API answered an error (Internal error)",
    );
    expect(scrapeError(() => readApiAnswer({ data: { reviews: [], params: {} } })).message).toBe(
      "Yandex Maps reviews: data.params.totalPages is not a count",
    );
    expect(scrapeError(() => readApiAnswer({ data: {} })).reason).toBe("publisher_error");
  });

  it("hostile answers and states end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    const parse = (data: unknown, ctx: ParseContext): WalkPage => {
      const answer = readApiAnswer(data);
      return {
        reviews: "reviews" in answer ? readReviews(answer.reviews, PAGE, ctx.budget) : [],
        next: null,
      };
    };
    expectHostileInputHandled(parse);
    expectHostileInputHandled(parse, (reviews) => ({ data: { reviews, params: { totalPages: 1 } } }), {
      wrapsItems: true,
    });
    // A state nested far deeper than any page, or far wider, stops at the budget.
    let deep: unknown = { reviews: [] };
    for (let i = 0; i < 5_000; i++) deep = { a: [deep] };
    expect(orgStateOf(JSON.stringify(deep), budget()).embedded).toEqual([]);
    const wide = JSON.stringify({ list: Array.from({ length: 5_000 }, () => ({ x: 1 })) });
    expect(scrapeError(() => orgStateOf(wide, new WorkBudget("Yandex Maps page state", 1_000))).message).toBe(
      "Yandex Maps page state: the answer needs more than 1000 steps to read",
    );
    expect(() => readReviews(Array(20), PAGE, new WorkBudget("t", 10))).toThrow(ScrapeError);
  });

  it("states its evidence date, the summary parts it fills and the 600-review window", () => {
    expect(yandex.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
    expect(yandex.summaryFields).toEqual(["rating", "review_count"]);
    expect(WINDOW_PAGES * 50).toBe(600);
  });
});

describe("Yandex Maps end to end", () => {
  const queue = queuePerTest();
  const apiCalls = async (org: string) =>
    Object.entries(await fixtureRequests("yandex.ru", "/maps/api/"))
      .filter(([path]) => path.includes(`businessId=${org}&`))
      .flatMap(([path, n]) => {
        const params = new URL(path, "https://yandex.ru").searchParams;
        return Array.from({ length: n }, () => [params.get("page"), params.get("csrfToken")]);
      })
      .sort((a, b) => Number(a[0]) - Number(b[0]));

  it("reads the reviews page once, then walks the signed API newest first over three pages and returns each review exactly", async () => {
    const task = await submitScrape(
      "yandex.ru",
      `https://yandex.ru/maps/org/pushkin/${PUSHKIN}/reviews/?ll=37.6%2C55.7`,
    );
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-yandex", "ack"]]);
    expect(await fixtureRequests("yandex.ru", `/maps/org/`)).toEqual({
      [`/maps/org/${PUSHKIN}/reviews/`]: 1,
    });
    expect(await apiCalls(PUSHKIN)).toEqual([
      ["1", CSRF],
      ["2", CSRF],
      ["3", CSRF],
    ]);
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    expect(body.business.publisher_summary).toEqual({
      rating: 4.6,
      rating_scale: "1-5",
      review_count: 113,
      histogram: null,
    });
    const reviews = body.reviews as Record<string, unknown>[];
    const expected = ORG_REVIEWS[PUSHKIN].filter((r) => r.reviewId && r.rating <= 5);
    expect(reviews.map((r) => r.review_id)).toEqual(expected.map((r) => r.reviewId));
    expect(reviews[0]).toMatchObject({
      review_id: "r821-0000",
      author_name: "Мария Петрова",
      rating: 5,
      text: "Прекрасный ресторан: борщ и пельмени выше всяких похвал, обслуживание на высоте.",
      language: "ru",
      url: PAGE,
      posted_at: Date.UTC(2026, 10, 18, 9, 30),
      owner_reply: { text: "Спасибо, ждём вас снова!", posted_at: Date.UTC(2026, 10, 18, 11, 30) },
    });
    expect(reviews[2]).toMatchObject({ review_id: "r821-0002", language: "en" });
    expect(body.coverage).toMatchObject({ publisher_total: 113, complete: true });
  });

  it("an organisation whose reviews all fit on the page is read from it alone, newest first; a stale page token is renewed once", async () => {
    const small = await submitScrape("yandex.ru", SMALL);
    const stale = await submitScrape("yandex.ru", STALE);
    await queue().drain();
    expect(await apiCalls(SMALL)).toEqual([]);
    const body = await retrieve(small);
    expect((body.reviews as { review_id: string }[]).map((r) => r.review_id)).toEqual(
      ORG_REVIEWS[SMALL].map((r) => r.reviewId),
    );
    expect(body.business.publisher_summary).toMatchObject({ rating: 4.9, review_count: 7 });
    // Page 1 twice (the stale token, then the fresh one), page 2 once with the fresh one.
    expect(await apiCalls(STALE)).toEqual([
      ["1", "0000000000000000000000000000000000000000:1700000000"],
      ["1", CSRF],
      ["2", CSRF],
    ]);
    expect(((await retrieve(stale, 1, 200)).reviews as unknown[]).length).toBe(60);
  });

  it("past Yandex's 600-review window the task completes with the newest 600 and coverage naming the limit", async () => {
    const task = await submitScrape("yandex.ru", HUGE);
    await queue().drain();
    expect((await apiCalls(HUGE)).map(([page]) => page)).toEqual(
      Array.from({ length: 12 }, (_, i) => String(i + 1)),
    );
    const body = await retrieve(task, 1, 1000);
    expect((body.reviews as unknown[]).length).toBe(600);
    expect(body.coverage).toMatchObject({
      publisher_total: 700,
      collected: 600,
      complete: false,
      stop_reason: expect.stringContaining("Yandex Maps serves only the newest 600 reviews"),
    });
  });

  it("SmartCaptcha is blocked; an unknown organisation is profile_not_found; a refused signature or a page without state is publisher_error naming it", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const walled = await submitScrape("yandex.ru", CAPTCHA);
    const gone = await submitScrape("yandex.ru", "1999999999");
    const refused = await submitScrape("yandex.ru", REFUSING);
    const stateless = await submitScrape("yandex.com", `https://yandex.com/maps/org/${STATELESS}/`);
    await queue().drain();
    expect((await retrieve(walled)).response_message).toEqual(failed("blocked"));
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    expect((await retrieve(refused)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, refused.taskId)).toContain("answered a fresh csrfToken twice");
    expect((await retrieve(stateless)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, stateless.taskId)).toContain("no state-view script");
  });
});
