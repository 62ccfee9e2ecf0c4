/** Google Play: profile_key rules, the oCPfdb request and answer, and end to end through the Worker and scrape-google-play. */
import { describe, expect, it, vi } from "vitest";
import {
  batchexecuteUrl,
  parsePlayKey,
  parseReviewsAnswer,
  reviewsRequestBody,
} from "../../../src/publishers/google-play/rpc";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureJson, parseContext } from "../walk-support";
import fixture, { NOTES_REVIEWS } from "./site";

const KEY = "com.acme.notes/en/us";
const PAGE = "https://play.google.com/store/apps/details?id=com.acme.notes&hl=en&gl=us";

function answer(key: string, token: string | null): unknown {
  const playKey = parsePlayKey(key);
  const body = new URLSearchParams({ "f.req": reviewsRequestBody(playKey, { page: 0, token }) }).toString();
  return fixtureJson(fixture, batchexecuteUrl(playKey), { method: "POST", body });
}
const ctx = (page: number, token: string | null) => parseContext(KEY, PAGE, { page, token });

describe("Google Play oCPfdb", () => {
  it("posts f.req calling oCPfdb: newest first (sort 2), 200 a call, the continuation token, the app", () => {
    expect(batchexecuteUrl(parsePlayKey("com.acme.notes/de/at"))).toBe(
      "https://play.google.com/_/PlayStoreUi/data/batchexecute?hl=de&gl=at",
    );
    const first = JSON.parse(reviewsRequestBody(parsePlayKey(KEY), { page: 0, token: null }));
    expect(first).toEqual([[["oCPfdb", expect.any(String), null, "generic"]]]);
    expect(JSON.parse(first[0][0][1])).toEqual([
      null,
      [2, 2, [200], null, [null, null, null, null, null, null, null, null, null]],
      ["com.acme.notes", 7],
    ]);
    const next = JSON.parse(
      JSON.parse(reviewsRequestBody(parsePlayKey(KEY), { page: 1, token: "CpYB" }))[0][0][1],
    );
    expect(next[1][2]).toEqual([200, null, "CpYB"]);
  });

  it("reads a page: ids, names, ratings, text, the epoch date, the developer's reply, the token of the next page", () => {
    const page = parseReviewsAnswer(answer(KEY, null), ctx(0, null));
    expect(page.reviews).toHaveLength(200);
    expect(page.next).toEqual({ page: 1, token: expect.stringMatching(/^CpYB/) });
    expect(page.reviews[0]).toEqual({
      id: "gp:AOqpTOFx10000",
      author_name: "Play User 0",
      rating: { value: 1, best: 5, worst: 1 },
      text: "Review 0 of Acme Notes.",
      url: PAGE,
      date: "2026-11-20T09:00:00.000Z",
    });
    expect(page.reviews[1]).toEqual({
      id: "gp:AOqpTOFx9999",
      author_name: "Ana Silva",
      rating: { value: 2, best: 5, worst: 1 },
      text: "Syncs fast. Widgets could be bigger.",
      url: PAGE,
      date: "2026-11-20T08:00:00.000Z",
      reply_text: "Thanks Ana! Widgets get bigger in 4.3.",
      reply_date: "2026-11-20T08:30:00.000Z",
    });
    const second = parseReviewsAnswer(answer(KEY, page.next!.token), ctx(1, page.next!.token));
    const last = parseReviewsAnswer(answer(KEY, second.next!.token), ctx(2, second.next!.token));
    expect([second.reviews.length, last.reviews.length, last.next]).toEqual([200, 50, null]);
  });

  it("an RPC answer without data, and a page without reviews that still hands out a token, are publisher_error", () => {
    expect(
      scrapeError(() => parseReviewsAnswer(answer("com.acme.failing/en/us", null), ctx(0, null))).message,
    ).toBe("Google Play reviews: oCPfdb answered without data (error 5)");
    const stuck = [
      ["wrb.fr", "oCPfdb", JSON.stringify([[], [null, "CpYBx"], null]), null, null, null, "generic"],
    ];
    expect(scrapeError(() => parseReviewsAnswer(stuck, ctx(0, null))).message).toBe(
      "Google Play reviews: a page without reviews hands out a continuation token",
    );
    expect(scrapeError(() => parseReviewsAnswer({ data: [] }, ctx(0, null))).message).toBe(
      "Google Play reviews: the answer is not a batch envelope",
    );
  });

  it("hostile answers end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseReviewsAnswer);
    expectHostileInputHandled(parseReviewsAnswer, (payload) => [
      ["wrb.fr", "oCPfdb", JSON.stringify(payload), null, null, null, "generic"],
    ]);
    expectHostileInputHandled(
      parseReviewsAnswer,
      (reviews) => [["wrb.fr", "oCPfdb", JSON.stringify([reviews, null]), null, null, null, "generic"]],
      {
        wrapsItems: true,
      },
    );
  });
});

describe("Google Play end to end", () => {
  const queue = queuePerTest();

  it("opens the details page once, walks three calls by token newest first, and keeps the developer's replies", async () => {
    const task = await submitScrape("play.google.com", "com.acme.notes");
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-google-play", "ack"]]);
    expect(await fixtureRequests("play.google.com", "/store/apps/details?id=com.acme.notes")).toEqual({
      [new URL(PAGE).pathname + new URL(PAGE).search]: 1,
    });
    expect(await fixtureRequests("play.google.com", "/_/PlayStoreUi/data/batchexecute")).toEqual({
      "/_/PlayStoreUi/data/batchexecute?hl=en&gl=us": 3,
    });
    const body = await retrieve(task, 1, 500);
    expect(body.business.profile_key).toBe(PAGE);
    expect(body.business.reviews_urls).toHaveLength(3);
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(NOTES_REVIEWS.map((r) => r[0]));
    expect(reviews[1]).toMatchObject({
      review_id: "gp:AOqpTOFx9999",
      author_name: "Ana Silva",
      rating: 2,
      text: "Syncs fast. Widgets could be bigger.",
      url: PAGE,
      posted_at: Date.UTC(2026, 10, 20, 8, 0, 0),
      owner_reply: {
        text: "Thanks Ana! Widgets get bigger in 4.3.",
        posted_at: Date.UTC(2026, 10, 20, 8, 30, 0),
      },
    });
  });

  it("an app without reviews completes with none; an unknown app is profile_not_found", async () => {
    const quiet = await submitScrape("play.google.com", "com.acme.quiet");
    const gone = await submitScrape("play.google.com", "com.acme.gone");
    await queue().drain();
    expect([(await retrieve(quiet)).task_status, (await retrieve(quiet)).reviews]).toEqual([200, []]);
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
  });

  it("an RPC error is publisher_error naming it; Google's unusual-traffic page is blocked", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const failing = await submitScrape("play.google.com", "com.acme.failing");
    const busy = await submitScrape("play.google.com", "com.acme.busy");
    await queue().drain();
    expect((await retrieve(failing)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, failing.taskId)).toContain("oCPfdb answered without data (error 5)");
    expect((await retrieve(busy)).response_message).toEqual(failed("blocked"));
  });
});
