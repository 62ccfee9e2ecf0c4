/** opentable.com: profile_key rules, the embedded first page, the review search, and end to end through scrape-opentable. */
import { describe, expect, it, vi } from "vitest";
import { opentable } from "../../../src/publishers/opentable";
import {
  csrfTokenOf,
  initialStateOf,
  opentableRequest,
  parseOpentablePage,
} from "../../../src/publishers/opentable/reviews";
import { failureDetails } from "../../helpers/logs";
import { fixtureCookies, fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { QueueDriver } from "../../helpers/queue";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureAnswer, fixtureJson, parseContext } from "../walk-support";
import fixture, { CSRF_TOKEN, HASH, PERCH_REVIEWS, SESSION_COOKIE } from "./site";

const PAGE = "https://www.opentable.com/r/perch-la";
const GQL_PATH = "/dapi/fe/gql?optype=query&opname=ReviewSearchResults";
const statePage = (slug: string) => ({
  kind: "state" as const,
  html: fixtureAnswer(fixture, `https://www.opentable.com/r/${slug}`).body,
});
const searchPage = (page: number) => {
  const request = opentableRequest({ page, token: "109283" }, PAGE);
  const answer = fixtureJson(fixture, request.url, {
    method: "POST",
    // The restaurant page's session, as the walk sends it.
    headers: { "content-type": "application/json", "x-csrf-token": CSRF_TOKEN },
    cookie: SESSION_COOKIE,
    body: JSON.stringify(request.options?.json),
  });
  return { kind: "gql" as const, answer, restaurantId: "109283" };
};
const ctx = (page: number) => parseContext("perch-la", PAGE, { page, token: page > 1 ? "109283" : null });

describe("opentable pages", () => {
  it("reads page 1 from the restaurant page and asks the review search for page 2 onwards, newest first, 10 a page, by persisted hash", () => {
    expect(opentableRequest({ page: 1, token: null }, PAGE)).toEqual({ url: PAGE });
    expect(opentableRequest({ page: 2, token: "109283" }, PAGE)).toEqual({
      url: "https://www.opentable.com/dapi/fe/gql?optype=query&opname=ReviewSearchResults",
      options: {
        method: "POST",
        headers: { "ot-page-group": "rest-profile", "ot-page-type": "restprofilepage", Referer: PAGE },
        json: {
          operationName: "ReviewSearchResults",
          variables: {
            prioritiseUserLanguage: false,
            gpid: 0,
            restaurantId: 109283,
            page: 2,
            pageSize: 10,
            sortBy: "newestReview",
            searchTerm: "",
            highlightFormat: "index",
          },
          extensions: { persistedQuery: { version: 1, sha256Hash: HASH } },
        },
      },
    });
  });

  it("reads the embedded first page: ids, nicknames, overall ratings, text with the sub-ratings (DO_NOT_RECALL left out), submitted and dined dates, the total", () => {
    const page = parseOpentablePage(statePage("perch-la"), ctx(1));
    expect(page.publisherTotal).toBe(25);
    expect(page.next).toEqual({ page: 2, token: "109283" });
    expect(page.reviews).toHaveLength(10);
    expect(page.reviews[0]).toEqual({
      id: "OT-500000",
      author_name: "Diner0",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Dinner 0 was lovely.\n\nFood: 5\nService: 4\nAmbience: 5\nValue: 4\nNoise: Moderate",
      // The scores also as sub_ratings (issue 36); noise is a word, not a score. The text is unchanged.
      sub_ratings: { food: 5, service: 4, ambience: 5, value: 4 },
      url: PAGE,
      date: "2026-11-21T19:30:00.000Z",
      visit_date: "2026-11-20",
    });
    expect(page.reviews[1]).toEqual({
      id: "OT-499999",
      author_name: "OpenTable Diner",
      rating: { value: 4, best: 5, worst: 1 },
      text: "The rooftop view at sunset was worth it.\n\nFood: 5\nService: 4\nAmbience: 4\nValue: 4\nNoise: Energetic",
      sub_ratings: { food: 5, service: 4, ambience: 4, value: 4 },
      url: PAGE,
      date: "2026-11-19T19:30:00.000Z",
      visit_date: "2026-11-18",
    });
    // A noise rating of DO_NOT_RECALL is no rating: the line is left out.
    expect(page.reviews[2]?.text).toBe("Dinner 2 was lovely.\n\nFood: 5\nService: 4\nAmbience: 5\nValue: 4");
  });

  it("starts the review search after however many reviews the page embeds: page 3 after 20, none after all of them", () => {
    // Invented states: the page's own first-page size varies (a real 2022 state held 24 of 24; see README.md).
    const embedding = (count: number, total: number) => {
      const state = {
        restaurantProfile: {
          restaurant: { restaurantId: 109283 },
          reviewsData: { reviewSearchResults: { reviews: PERCH_REVIEWS.slice(0, count), totalCount: total } },
        },
      };
      return {
        kind: "state" as const,
        html: `<script>window.__INITIAL_STATE__ = ${JSON.stringify(state)};</script>`,
      };
    };
    const twenty = parseOpentablePage(embedding(20, 25), ctx(1));
    expect(twenty.reviews).toHaveLength(19); // review 17 has no id
    expect(twenty.next).toEqual({ page: 3, token: "109283" });
    // Page 3 of the search, 10 a page, is exactly the reviews after the twenty.
    expect(parseOpentablePage(searchPage(3), ctx(3)).reviews.map((r) => r.id)).toEqual(
      PERCH_REVIEWS.slice(20).map((r) => r.reviewId),
    );
    expect(parseOpentablePage(embedding(24, 24), ctx(1)).next).toBeNull();
    expect(parseOpentablePage(embedding(15, 25), ctx(1)).next).toEqual({ page: 2, token: "109283" });
    expect(scrapeError(() => parseOpentablePage(embedding(0, 25), ctx(1))).reason).toBe("publisher_error");
  });

  it("reads the review search's pages and ends at the last one; a review without an id is skipped; the restaurant's reply is kept", () => {
    const second = parseOpentablePage(searchPage(2), ctx(2));
    expect(second.next).toEqual({ page: 3, token: "109283" });
    expect(second.reviews.map((r) => r.id)).toEqual(
      PERCH_REVIEWS.slice(10, 20).flatMap((r) => (r.reviewId ? [r.reviewId] : [])),
    );
    expect(second.reviews).toHaveLength(9);
    // The restaurant's public reply, trimmed, with its date; reviews without one carry none.
    expect(second.reviews[2]).toMatchObject({
      id: "OT-499988",
      reply_text: "Thank you for dining with us, we hope to see you again soon.",
      reply_date: "2026-10-30T14:14:01Z",
    });
    expect(
      second.reviews.filter((r) => r.reply_text !== undefined || r.reply_date !== undefined),
    ).toHaveLength(1);
    expect(parseOpentablePage(searchPage(3), ctx(3)).next).toBeNull();
  });

  it("a page without the state, a state without reviews, and a rotated query hash are publisher_error naming what is missing", () => {
    expect(
      scrapeError(() =>
        parseOpentablePage({ kind: "state", html: "<html><body>no state</body></html>" }, ctx(1)),
      ).message,
    ).toBe("OpenTable reviews: the page has no window.__INITIAL_STATE__");
    expect(scrapeError(() => parseOpentablePage(statePage("moved-state"), ctx(1))).message).toContain(
      "OpenTable reviews (page state): unexpected answer at restaurantProfile.reviewsData",
    );
    const rotated = {
      kind: "gql" as const,
      answer: { errors: [{ message: "PersistedQueryNotFound" }] },
      restaurantId: "109283",
    };
    expect(scrapeError(() => parseOpentablePage(rotated, ctx(2))).message).toContain(
      "OpenTable reviews (review search): unexpected answer at data",
    );
  });

  it("hostile answers and pages end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseOpentablePage);
    expectHostileInputHandled(parseOpentablePage, (answer) => ({ kind: "gql", answer, restaurantId: "1" }));
    expectHostileInputHandled(
      parseOpentablePage,
      (reviews) => ({
        kind: "gql",
        answer: { data: { restaurant: { reviewSearchResults: { reviews, totalCount: 5 } } } },
        restaurantId: "1",
      }),
      {
        wrapsItems: true,
      },
    );
    expect(
      scrapeError(() => initialStateOf(`window.__INITIAL_STATE__ = ${"[".repeat(100_000)}`)).reason,
    ).toBe("publisher_error");
  });

  it("states its evidence date", () => {
    expect(opentable.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
  });
});

describe("opentable end to end", () => {
  const queue = queuePerTest();

  it("reads page 1 from the restaurant page, pages 2 and 3 from the review search, and returns each review exactly", async () => {
    const task = await submitScrape("opentable.com", "https://www.opentable.com/r/perch-la?p=2");
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-opentable", "ack"]]);
    expect(await fixtureRequests("opentable.com", "/r/")).toEqual({ "/r/perch-la": 1 });
    expect(await fixtureRequests("opentable.com", "/dapi/")).toEqual({
      "/dapi/fe/gql?optype=query&opname=ReviewSearchResults": 2,
    });
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(
      PERCH_REVIEWS.flatMap((r) => (r.reviewId ? [r.reviewId] : [])),
    );
    expect(reviews[1]).toMatchObject({
      review_id: "OT-499999",
      author_name: "OpenTable Diner",
      rating: 4,
      text: "The rooftop view at sunset was worth it.\n\nFood: 5\nService: 4\nAmbience: 4\nValue: 4\nNoise: Energetic",
      sub_ratings: { food: 5, service: 4, ambience: 4, value: 4 },
      url: PAGE,
      posted_at: Date.UTC(2026, 10, 19, 19, 30),
    });
    expect(reviews.at(-1)).toMatchObject({
      review_id: "OT-499976",
      posted_at: Date.UTC(2026, 10, 21, 19, 30) - 24 * 2 * 86_400_000,
    });
    expect(reviews.find((r) => r.review_id === "OT-499988")).toMatchObject({
      owner_reply: {
        text: "Thank you for dining with us, we hope to see you again soon.",
        posted_at: Date.UTC(2026, 9, 30, 14, 14, 1),
      },
    });
  });

  it("sends the restaurant page's session (its cookie and x-csrf-token) on every review search, reopening the page in a run that starts past page 1", async () => {
    queue().restore();
    const driver = new QueueDriver({ settings: { PAGES_PER_RUN: "2" } });
    try {
      const before = (await fixtureCookies("opentable.com", "/dapi/"))[GQL_PATH]?.length ?? 0;
      const pages = (await fixtureRequests("opentable.com", "/r/"))["/r/perch-la"] ?? 0;
      const task = await submitScrape("opentable.com", "perch-la");
      await driver.drain();
      expect((await retrieve(task, 1, 200)).reviews).toHaveLength(
        PERCH_REVIEWS.filter((r) => r.reviewId).length,
      );
      // Run 1: the page, then page 2; run 2: the page again (the token is never stored), then page 3.
      const cookies = (await fixtureCookies("opentable.com", "/dapi/"))[GQL_PATH].slice(before);
      expect(cookies).toEqual([SESSION_COOKIE, SESSION_COOKIE]);
      expect((await fixtureRequests("opentable.com", "/r/"))["/r/perch-la"] - pages).toBe(2);
    } finally {
      driver.restore();
    }
  });

  it("a review search refused for a missing session is not read as reviews", () => {
    const request = opentableRequest({ page: 2, token: "109283" }, PAGE);
    const refused = fixtureAnswer(fixture, request.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request.options?.json),
    });
    expect(refused.status).toBe(403);
  });

  it("reads the page's CSRF token where the 2026-01 client looks for it, and nothing else", () => {
    expect(csrfTokenOf(statePage("perch-la").html)).toBe(CSRF_TOKEN);
    expect(csrfTokenOf('<meta name="csrf-token" content="abc.123">')).toBe("abc.123");
    expect(csrfTokenOf("<script>window._csrfToken = 'x-9';</script>")).toBe("x-9");
    expect(csrfTokenOf("<p>no token here</p>")).toBeNull();
  });

  it("an unknown restaurant is profile_not_found; Akamai's wall is blocked; a changed state is publisher_error", async () => {
    const gone = await submitScrape("opentable.com", "no-such-place");
    const walled = await submitScrape("opentable.com", "walled");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const moved = await submitScrape("opentable.com", "moved-state");
    await queue().drain();
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    expect((await retrieve(walled)).response_message).toEqual(failed("blocked"));
    expect((await retrieve(moved)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, moved.taskId)).toContain(
      "OpenTable reviews (page state): unexpected answer at restaurantProfile.reviewsData",
    );
  });
});
