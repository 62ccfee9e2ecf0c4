/** expedia.com and hotels.com: profile_key rules, the page's query context, the GraphQL reviews, and end to end through scrape-expedia. */
import { describe, expect, it, vi } from "vitest";
import { expedia } from "../../../src/publishers/expedia";
import { expediaContextOf, pluginStateOf } from "../../../src/publishers/expedia/profile";
import {
  dateOfReviewId,
  expediaReviewsRequest,
  parseExpediaPage,
} from "../../../src/publishers/expedia/reviews";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureAnswer, fixtureJson, parseContext } from "../walk-support";
import fixture, { ARTISAN_DETAILS, LEGACY_HASH, REVAMP_HASH, SORT_BY, writtenAt } from "./site";

const PAGE = "https://www.expedia.com/h96727634.Hotel-Information";
const CONTEXT = {
  propertyId: "96727634",
  siteId: 1,
  eapid: 0,
  tpid: 1,
  locale: "en_US",
  currency: "USD",
  duaid: "2f9c1d7e-5b1a-4c1e-9d7a-0a1b2c3d4e5f",
  clientInfo: "shopping-pwa,8c1e3f0,us-west-2",
};
const KEY = JSON.stringify(CONTEXT);
const answer = (page: number) => {
  const request = expediaReviewsRequest(KEY, { page, token: null }, PAGE);
  return fixtureJson(fixture, request.url, {
    method: "POST",
    headers: { "content-type": "application/json", "client-info": CONTEXT.clientInfo },
    body: JSON.stringify(request.options.json),
  });
};
const ctx = (page: number) => parseContext(KEY, PAGE, { page, token: null });

describe("expedia page context and reviews answer", () => {
  it('reads the query context from __PLUGIN_STATE__, assigned as JSON.parse("…") or as an object', () => {
    for (const url of [PAGE, "https://www.hotels.com/h96727634.Hotel-Information"]) {
      expect(expediaContextOf("96727634", pluginStateOf(fixtureAnswer(fixture, url).body))).toEqual(CONTEXT);
    }
    expect(
      scrapeError(() =>
        pluginStateOf(fixtureAnswer(fixture, "https://www.expedia.com/h5000.Hotel-Information").body),
      ).message,
    ).toBe("Expedia property page: no window.__PLUGIN_STATE__");
    expect(
      scrapeError(() => expediaContextOf("1", { context: { context: { site: { id: 1 } } } })).message,
    ).toBe("Expedia property page: __PLUGIN_STATE__ has no usable eapid");
  });

  it("sends the 2026 client's Revamp query first: the property, the sort, page index and 50 a page, the page's context and client-info", () => {
    const request = expediaReviewsRequest(KEY, { page: 1, token: null }, PAGE);
    expect(request.url).toBe("https://www.expedia.com/graphql");
    expect(request.options.headers).toEqual({ "client-info": CONTEXT.clientInfo, Referer: PAGE });
    const [op] = request.options.json as [
      { operationName: string; variables: Record<string, unknown>; extensions: unknown },
    ];
    expect(op.operationName).toBe("PWAReviewsSortingAndFiltersRevampQuery");
    expect(op.variables.productIdentifier).toMatchObject({
      travelSearchCriteria: {
        property: {
          primary: { dateRange: null, rooms: [{ adults: 2 }], destination: {} },
          secondary: {
            selections: [{ id: "sortBy", value: SORT_BY }],
            counts: [
              { id: "pageIndex", value: 1 },
              { id: "size", value: 50 },
            ],
          },
        },
      },
    });
    expect(op.extensions).toEqual({ persistedQuery: { version: 1, sha256Hash: REVAMP_HASH } });
  });

  it("sends the older query once a page found only it known (the walk's legacy token)", () => {
    const request = expediaReviewsRequest(KEY, { page: 1, token: "legacy" }, PAGE);
    const [op] = request.options.json as [
      { operationName: string; variables: Record<string, unknown>; extensions: unknown },
    ];
    expect(op.operationName).toBe("PWAReviewsSortingAndFiltersQuery");
    expect(op.variables.productIdentifier).toMatchObject({
      id: "96727634",
      type: "PROPERTY_ID",
      travelSearchCriteria: {
        property: {
          secondary: {
            selections: [
              { id: "sortBy", value: SORT_BY },
              { id: "searchTerm", value: "" },
              { id: "travelerType", value: "" },
            ],
            counts: [
              { id: "pageIndex", value: 1 },
              { id: "size", value: 50 },
            ],
          },
        },
      },
    });
    expect(op.variables.context).toEqual({
      siteId: 1,
      locale: "en_US",
      eapid: 0,
      tpid: 1,
      currency: "USD",
      device: { type: "DESKTOP" },
      identity: { duaid: CONTEXT.duaid, authState: "ANONYMOUS" },
      privacyTrackingState: "CAN_TRACK",
    });
    expect(op.extensions).toEqual({ persistedQuery: { version: 1, sha256Hash: LEGACY_HASH } });
  });

  it("reads a Revamp page: ids, names, 10-point scores, trimmed text, the date from the id's time prefix (the messages name only the stay); more while pagination is there", () => {
    const page = parseExpediaPage(answer(0), ctx(0));
    expect(page.next).toEqual({ page: 1, token: null });
    // 50 on the page; detail 33's text is not a string: skipped.
    expect(page.reviews).toHaveLength(49);
    expect(page.reviews[0]).toEqual({
      id: ARTISAN_DETAILS[0].id,
      author_name: "Guest 0",
      rating: { value: 10, best: 10, worst: 1 },
      text: "Stay 0 was fine.",
      url: PAGE,
      date: "2026-11-16T10:00:00.000Z (from the review id)",
    });
    expect(page.reviews[1]).toMatchObject({
      author_name: "Anna",
      text: "Quiet rooms and a great breakfast.",
    });
    const last = parseExpediaPage(answer(1), ctx(1));
    expect([last.next, last.reviews.length]).toEqual([null, 10]);
  });

  it("dates a review by its id only when no message is a date, and only for a plausible ObjectId", () => {
    expect(dateOfReviewId("5f1a2b3c4d5e6f7a8b9c0d1e")).toBe("2020-07-24T00:28:44.000Z (from the review id)");
    expect(dateOfReviewId("not-an-object-id")).toBeNull();
    // Before 2005 or after now: not a creation time.
    expect(dateOfReviewId("00000001aaaaaaaaaaaaaaaa")).toBeNull();
    expect(dateOfReviewId("ffffffffaaaaaaaaaaaaaaaa")).toBeNull();
  });

  it("reads the older operation's page: the printed date as a calendar date", () => {
    const request = expediaReviewsRequest(KEY, { page: 0, token: "legacy" }, PAGE);
    const legacy = fixtureJson(fixture, request.url, {
      method: "POST",
      headers: { "content-type": "application/json", "client-info": CONTEXT.clientInfo },
      body: JSON.stringify(request.options.json),
    });
    const page = parseExpediaPage({ kind: "expedia-answer", operation: "legacy", answer: legacy }, ctx(0));
    expect(page.reviews[1]).toEqual({
      id: ARTISAN_DETAILS[1].id,
      author_name: "Anna",
      rating: { value: 9, best: 10, worst: 1 },
      text: "Quiet rooms and a great breakfast.",
      url: PAGE,
      date: "2026-11-13",
    });
    expect(page.next).toEqual({ page: 1, token: "legacy" });
  });

  it("reads the review id and the property's first non-blank reply (Expedia's own ReviewFragment); a detail whose id is not a string is skipped", () => {
    const detail = {
      __typename: "ProductReview",
      id: "5f1a2b3c4d5e6f7a8b9c0d1e",
      review: { __typename: "ReviewSection", text: "Lovely staff." },
      managementResponses: [
        { __typename: "ReviewSection", text: "  ", title: null },
        { __typename: "ReviewSection", text: " Thank you, Anna! ", title: "Response from the hotel" },
      ],
      summary: { primary: "8/10 Good", secondary: "Anna", supportingMessages: [{ text: "Nov 3, 2025" }] },
    };
    const data = [
      {
        data: {
          productReviewDetails: {
            reviews: { details: [detail, { ...detail, id: 7, managementResponses: null }], pagination: null },
          },
        },
      },
    ];
    const page = parseExpediaPage(data, ctx(0));
    expect(page.reviews).toEqual([
      {
        id: "5f1a2b3c4d5e6f7a8b9c0d1e",
        author_name: "Anna",
        rating: { value: 8, best: 10, worst: 1 },
        text: "Lovely staff.",
        url: PAGE,
        date: "2025-11-03",
        reply_text: "Thank you, Anna!",
      },
    ]);
    expect(page.next).toBeNull();
  });

  it("a rotated query hash, and an empty page that offers more, are publisher_error", () => {
    expect(
      scrapeError(() => parseExpediaPage([{ errors: [{ message: "PersistedQueryNotFound" }] }], ctx(0)))
        .message,
    ).toContain("Expedia reviews: unexpected answer at 0.data");
    const hollow = [
      {
        data: {
          productReviewDetails: {
            reviews: { details: [], pagination: { button: { primary: "More reviews" } } },
          },
        },
      },
    ];
    expect(scrapeError(() => parseExpediaPage(hollow, ctx(2))).message).toBe(
      "Expedia reviews: page 2 is empty but offers more reviews",
    );
  });

  it("hostile answers and pages end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseExpediaPage);
    expectHostileInputHandled(
      parseExpediaPage,
      (details) => [{ data: { productReviewDetails: { reviews: { details } } } }],
      { wrapsItems: true },
    );
    expect(scrapeError(() => pluginStateOf(`window.__PLUGIN_STATE__ = ${"{".repeat(100_000)}`)).reason).toBe(
      "publisher_error",
    );
    expect(
      scrapeError(() => pluginStateOf(`window.__PLUGIN_STATE__ = JSON.parse("${"\\".repeat(100_001)}`))
        .reason,
    ).toBe("publisher_error");
  });

  it("states its evidence date", () => {
    expect(expedia.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
  });
});

describe("expedia end to end", () => {
  const queue = queuePerTest();

  it("opens the property page once, then walks the GraphQL reviews over two pages and returns each review exactly", async () => {
    const task = await submitScrape(
      "expedia.com",
      "https://www.expedia.com/Salem-Hotels-The-Artisan-At-Tuscan-Village.h96727634.Hotel-Information",
    );
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-expedia", "ack"]]);
    expect(await fixtureRequests("expedia.com", "/h")).toEqual({ "/h96727634.Hotel-Information": 1 });
    expect(await fixtureRequests("expedia.com", "/graphql")).toEqual({ "/graphql": 2 });
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews).toHaveLength(59);
    expect(reviews.map((r) => r.author_name)).toEqual(
      ARTISAN_DETAILS.filter((_, i) => i !== 33).map((d) => d.summary.secondary),
    );
    expect(reviews[1]).toMatchObject({
      review_id: ARTISAN_DETAILS[1].id,
      author_name: "Anna",
      rating: 5,
      text: "Quiet rooms and a great breakfast.",
      url: PAGE,
      posted_at: writtenAt(1),
      source_date: "2026-11-13T10:00:00.000Z (from the review id)",
    });
    expect(reviews.at(-1)).toMatchObject({ author_name: "Guest 59", posted_at: writtenAt(59) });
  });

  it("falls back to the older operation where the Revamp's hash is unknown, and keeps to it for later pages", async () => {
    const before = (await fixtureRequests("expedia.com", "/graphql"))["/graphql"] ?? 0;
    const task = await submitScrape("expedia.com", "h7000");
    await queue().drain();
    // Page 0: the Revamp (PersistedQueryNotFound), then the older one; page 1: the older one only.
    expect((await fixtureRequests("expedia.com", "/graphql"))["/graphql"] - before).toBe(3);
    const body = await retrieve(task, 1, 200);
    expect(body.task_status).toBe(200);
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews).toHaveLength(59);
    expect(reviews[1]).toMatchObject({
      review_id: ARTISAN_DETAILS[1].id,
      author_name: "Anna",
      posted_at: Date.UTC(2026, 10, 13),
      source_date: "2026-11-13",
    });
  });

  it("hotels.com reads the same way; Akamai's challenge ends blocked; a page without the state is publisher_error", async () => {
    const hotels = await submitScrape("hotels.com", "96727634");
    const walled = await submitScrape("expedia.com", "h4290");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const moved = await submitScrape("expedia.com", "h5000");
    await queue().drain();
    expect(((await retrieve(hotels, 1, 200)).reviews as unknown[]).length).toBe(59);
    expect((await retrieve(walled)).response_message).toEqual(failed("blocked"));
    expect((await retrieve(moved)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, moved.taskId)).toContain("Expedia property page: no window.__PLUGIN_STATE__");
  });
});
