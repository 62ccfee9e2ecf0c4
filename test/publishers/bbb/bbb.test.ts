/** bbb.org: profile_key rules, the customer-reviews answer, and end to end through the Worker and scrape-bbb. */
import { describe, expect, it, vi } from "vitest";
import { customerReviewsUrl, parseBbbPage } from "../../../src/publishers/bbb/reviews";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureJson, parseContext } from "../walk-support";
import fixture, { ROOFER_REVIEWS } from "./site";

const PROFILE = "https://www.bbb.org/us/ca/san-diego/profile/roofing-contractors/acme-roofing-1126-1000001";
const PAGE = `${PROFILE}/customer-reviews`;
const answer = (key: string, page: number) =>
  fixtureJson(fixture, customerReviewsUrl(key, { page, token: null }));
const ctx = (page: number) => parseContext("1126-1000001", PAGE, { page, token: null });

describe("bbb customer-reviews answer", () => {
  it("asks for the business's reviews newest first, 10 a page", () => {
    const url = new URL(customerReviewsUrl("1126-1000001", { page: 2, token: null }));
    expect(url.origin + url.pathname).toBe("https://www.bbb.org/api/businessprofile/customerreviews");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      page: "2",
      pageSize: "10",
      businessId: "1000001",
      bbbId: "1126",
      sort: "reviewDate desc, id desc",
    });
  });

  it("reads a page: ids, names, stars, the full extended text, the day, the business's response and rebuttal as one reply, the total", () => {
    const page = parseBbbPage(answer("1126-1000001", 1), ctx(1));
    expect(page.publisherTotal).toBe(25);
    expect(page.next).toEqual({ page: 2, token: null });
    expect(page.reviews).toHaveLength(10);
    expect(page.reviews[0]).toEqual({
      id: "1800000",
      author_name: "Customer 0",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Review 0: work done as promised.",
      url: PAGE,
      date: "2026-11-20",
      language: "en",
    });
    expect(page.reviews[1]).toEqual({
      id: "1799999",
      author_name: "Maria G",
      rating: { value: 4, best: 5, worst: 1 },
      text: "The crew replaced our roof in two days and cleaned up every nail. The estimate matched the invoice to the dollar.",
      url: PAGE,
      date: "2026-11-17",
      language: "en",
      reply_text:
        "Thank you Maria, we are glad the crew took care of you.\n\nWe fixed the gutter the next morning.",
      reply_date: "2026-11-18",
    });
    // A review from before BBB's stars has no rating; the service cannot keep it, and the page says so.
    expect(page.reviews[4]).not.toHaveProperty("rating");
    expect(page.limitedView).toBe("1 BBB review(s) on page 1 have no star rating and cannot be returned");
    expect(parseBbbPage(answer("1126-1000001", 2), ctx(2)).limitedView).toBeNull();
    expect(parseBbbPage(answer("1126-1000001", 3), ctx(3)).next).toBeNull();
  });

  it("takes the value types a real 2026-09 reviews page carries: string id, zero-padded digit-string date, empty extendedText, null replies (invented values)", () => {
    // Types as read (not copied) from the unlicensed 2026-09-15 capture named in the README.
    const item = {
      reviewStarRating: 2,
      displayName: "Pat Q",
      customerResponseText: null,
      businessRebuttalDate: null,
      businessRebuttalText: null,
      customerResponseDate: null,
      id: "1126_1000001_900001",
      extendedText: [],
      hasExtendedText: false,
      text: "Late twice, then fine. ",
      date: { day: "03", month: "09", year: "2026" },
      businessResponseDate: null,
      businessResponseText: null,
    };
    const page = parseBbbPage(
      {
        items: [item],
        reviewId: null,
        businessId: "1000001",
        bbbId: "1126",
        numFound: 1,
        page: 1,
        pageSize: 10,
        totalPages: 1,
      },
      ctx(1),
    );
    expect(page.reviews).toEqual([
      {
        id: "1126_1000001_900001",
        author_name: "Pat Q",
        rating: { value: 2, best: 5, worst: 1 },
        text: "Late twice, then fine.",
        url: PAGE,
        date: "2026-09-03",
        language: "en",
      },
    ]);
    expect([page.publisherTotal, page.next]).toEqual([1, null]);
  });

  it("a moved list and an empty page before the last are publisher_error", () => {
    expect(scrapeError(() => parseBbbPage(answer("1126-1000500", 1), ctx(1))).message).toContain(
      "BBB reviews: unexpected answer at items",
    );
    expect(scrapeError(() => parseBbbPage({ items: [], totalPages: 4 }, ctx(2))).message).toBe(
      "BBB reviews: page 2 is empty although the answer counts pages up to 4",
    );
  });

  it("hostile answers end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseBbbPage);
    expectHostileInputHandled(parseBbbPage, (items) => ({ items, totalPages: 1, numFound: 3 }), {
      wrapsItems: true,
    });
  });
});

describe("bbb end to end", () => {
  const queue = queuePerTest();

  it("walks the endpoint newest first over three pages and keeps business responses as owner replies", async () => {
    const task = await submitScrape("bbb.org", PROFILE);
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-bbb", "ack"]]);
    const sort = "sort=reviewDate+desc%2C+id+desc";
    expect(await fixtureRequests("bbb.org", "/api/businessprofile/customerreviews?page=")).toEqual(
      Object.fromEntries(
        [1, 2, 3].map((page) => [
          `/api/businessprofile/customerreviews?page=${page}&pageSize=10&businessId=1000001&bbbId=1126&${sort}`,
          1,
        ]),
      ),
    );
    const body = await retrieve(task, 1, 100);
    expect(body.business.profile_key).toBe(PAGE);
    const reviews = body.reviews as Record<string, unknown>[];
    // Every review but the one without stars (the API requires a rating).
    expect(reviews.map((r) => r.review_id)).toEqual(
      ROOFER_REVIEWS.filter((r) => r.reviewStarRating).map((r) => String(r.id)),
    );
    expect(reviews[1]).toMatchObject({
      review_id: "1799999",
      author_name: "Maria G",
      rating: 4,
      url: PAGE,
      posted_at: Date.UTC(2026, 10, 17),
      owner_reply: {
        text: "Thank you Maria, we are glad the crew took care of you.\n\nWe fixed the gutter the next morning.",
        posted_at: Date.UTC(2026, 10, 18),
      },
    });
  });

  it("a business without reviews completes with none", async () => {
    const task = await submitScrape(
      "bbb.org",
      "https://www.bbb.org/us/ca/san-diego/profile/roofing-contractors/quiet-roofing-1126-1000002",
    );
    await queue().drain();
    const body = await retrieve(task);
    expect([body.task_status, body.reviews]).toEqual([200, []]);
  });

  it.each([
    ["1000403", "blocked"],
    ["1000429", "blocked"],
  ])("business %s behind Cloudflare's challenge fails as %s", async (id, reason) => {
    const task = await submitScrape(
      "bbb.org",
      `https://www.bbb.org/us/ca/san-diego/profile/roofing-contractors/walled-1126-${id}`,
    );
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed(reason));
  });

  it("a changed answer is publisher_error naming what is missing", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const task = await submitScrape(
      "bbb.org",
      "https://www.bbb.org/us/ca/san-diego/profile/roofing-contractors/moved-1126-1000500",
    );
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, task.taskId)).toContain("BBB reviews: unexpected answer at items");
  });
});
