/** airbnb.com: profile_key rules, the reviews request and answer, and end to end through the Worker and scrape-airbnb. */
import { describe, expect, it, vi } from "vitest";
import { scrapeFailures } from "../../helpers/logs";
import { parseReviews, reviewsUrl, REVIEWS_PER_PAGE } from "../../../src/publishers/airbnb/feed";
import { ScrapeError } from "../../../src/scraping/errors";
import { md5Hash, retrieve, submitScrape, taskRow } from "../../e2e/support";
import { AIRBNB_REVIEWS, type AirbnbFixtureReview } from "./data";
import fixture, { API_KEY, CAPTURED_LISTING, LIMIT } from "./site";
import capture from "./captures/StaysPdpReviewsQuery.response.json?raw";
import { failed, queuePerTest } from "../support";

const PROFILE = "https://www.airbnb.com/rooms/1001";

function answer(listingId: string, offset: number): unknown {
  const url = reviewsUrl(listingId, offset);
  const res = fixture.site({
    url,
    cookie: "",
    count: 1,
    method: "GET",
    host: "www.airbnb.com",
    headers: { "x-airbnb-api-key": API_KEY },
    body: "",
  });
  return JSON.parse(res.body);
}

/** The API review a fixture review must become, from the fixture data alone. */
function expected(review: AirbnbFixtureReview) {
  const text = review.comments.replace(/<br\/>/g, "\n");
  const reply = review.response?.replace(/<br\/>/g, "\n");
  const author = review.reviewer.firstName;
  return {
    review_id: review.id,
    author_name: author,
    author_id: review.reviewer.id,
    rating: review.rating,
    text,
    url: `${PROFILE}/reviews`,
    posted_at: Date.parse(review.createdAt),
    review_hash: md5Hash(reply ? [text, author, reply] : [text, author]),
    language: review.language,
    source_date: new Date(review.createdAt).toISOString(),
    scraped_at: expect.any(Number),
    ...(reply
      ? { owner_reply: { text: reply, posted_at: Date.parse(`1 ${review.localizedRespondedDate} UTC`) } }
      : {}),
  };
}

describe("airbnb reviews request and answer", () => {
  it("asks for the newest reviews by listing global id and offset", () => {
    const url = reviewsUrl("1001", 48);
    const variables = JSON.parse(url.searchParams.get("variables")!);
    expect(atob(variables.id)).toBe("StayListing:1001");
    expect(variables.pdpReviewsRequest).toMatchObject({
      limit: LIMIT,
      offset: "48",
      sortingPreference: "MOST_RECENT",
      showingTranslationButton: false,
    });
    expect(REVIEWS_PER_PAGE).toBe(LIMIT);
  });

  it("reads a page: native ids, original text and language, the host's reply, next offset", () => {
    const page = parseReviews(answer("1001", 0), 0);
    expect(page).toMatchObject({ count: 24, nextOffset: 24 });
    expect(page.reviews[0]).toEqual({
      id: AIRBNB_REVIEWS[0].id,
      author_name: "Claire",
      author_id: "40000",
      author_url: "https://www.airbnb.com/users/show/40000",
      rating: { value: 5, best: 5, worst: 1 },
      text: AIRBNB_REVIEWS[0].comments,
      language: "en",
      date: new Date(AIRBNB_REVIEWS[0].createdAt).toISOString(),
      reply_text: "Thanks Claire,\nyou are welcome back any time!",
      reply_date: "November 2026",
    });
    expect(page.reviews[1]).toMatchObject({
      text: "Appartement très propre,\nhôte très réactif.",
      language: "fr",
    });
    expect(parseReviews(answer("1001", 48), 48)).toMatchObject({ count: 2, nextOffset: null });
  });

  it("an unknown listing is profile_not_found; a changed answer is publisher_error naming the field", () => {
    const notFound = (() => {
      try {
        parseReviews(answer("1404", 0), 0);
      } catch (err) {
        return err as ScrapeError;
      }
    })();
    expect(notFound?.reason).toBe("profile_not_found");
    const changed = (() => {
      try {
        parseReviews(answer("1500", 0), 0);
      } catch (err) {
        return err as ScrapeError;
      }
    })();
    expect(changed?.reason).toBe("publisher_error");
    expect(changed?.message).toContain("reviews.reviews.0.rating");
  });
});

describe("airbnb on a real capture (captures/SOURCE.md: airbnb.com, 2026-09-28, anonymised by its collector)", () => {
  const queue = queuePerTest();

  it("reads the captured answer: 24 reviews, the stated count, and the exact fields of three of them", () => {
    const page = parseReviews(JSON.parse(capture), 0);
    expect(page).toMatchObject({ count: 24, total: 490, nextOffset: 24 });
    // Read by hand from the capture: the first review (four lines of text), the third (French, with
    // a translation the module leaves alone) and the fifth (German, four stars).
    expect(page.reviews[0]).toEqual({
      id: "1000001",
      author_name: "Person2",
      author_id: "1000004",
      author_url: "https://www.airbnb.com/users/show/1000004",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Placeholder text 1.\nPlaceholder text 1.\nPlaceholder text 1.\nPlaceholder text 1.",
      language: "en",
      date: "2026-09-15T14:30:10.000Z",
    });
    expect(page.reviews[2]).toEqual({
      id: "1000009",
      author_name: "Person4",
      author_id: "1000010",
      author_url: "https://www.airbnb.com/users/show/1000010",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Placeholder text 9.",
      language: "fr",
      date: "2026-09-25T08:40:19.000Z",
    });
    expect(page.reviews[4]).toEqual({
      id: "1000015",
      author_name: "Person6",
      author_id: "1000016",
      author_url: "https://www.airbnb.com/users/show/1000016",
      rating: { value: 4, best: 5, worst: 1 },
      text: "Placeholder text 18.",
      language: "de",
      date: "2026-09-12T14:28:51.000Z",
    });
    expect(page.reviews.at(-1)).toMatchObject({ id: "1000072", date: "2024-08-04T11:19:05.000Z" });
  });

  it("serves the capture through the fixture site and the Worker: the first page's reviews as the API returns them", async () => {
    const task = await submitScrape("airbnb.com", `https://www.airbnb.com/rooms/${CAPTURED_LISTING}`, {
      first_page_only: true,
    });
    await queue().drain();
    const body = await retrieve(task, 1, 50);
    expect(body.task_status).toBe(200);
    expect(body.reviews).toHaveLength(24);
    const byId = (id: string) => body.reviews.find((r: { review_id: string }) => r.review_id === id);
    // The API lists newest first; the capture's own order is Airbnb's.
    expect(body.reviews[0].review_id).toBe("1000009");
    expect(byId("1000001")).toEqual({
      review_id: "1000001",
      author_name: "Person2",
      author_id: "1000004",
      rating: 5,
      text: "Placeholder text 1.\nPlaceholder text 1.\nPlaceholder text 1.\nPlaceholder text 1.",
      url: `https://www.airbnb.com/rooms/${CAPTURED_LISTING}/reviews`,
      posted_at: Date.parse("2026-09-15T14:30:10Z"),
      review_hash: md5Hash([
        "Placeholder text 1.\nPlaceholder text 1.\nPlaceholder text 1.\nPlaceholder text 1.",
        "Person2",
      ]),
      language: "en",
      source_date: "2026-09-15T14:30:10.000Z",
      scraped_at: expect.any(Number),
    });
    expect(byId("1000015")).toMatchObject({
      author_name: "Person6",
      author_id: "1000016",
      rating: 4,
      language: "de",
      text: "Placeholder text 18.",
    });
  });
});

describe("airbnb end to end", () => {
  const queue = queuePerTest();

  it("walks every page newest first and returns each review exactly", async () => {
    const task = await submitScrape("airbnb.com", "https://www.airbnb.com/rooms/1001?adults=2");
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-airbnb", "ack"]]);
    const body = await retrieve(task, 1, 100);
    expect(body.business.profile_key).toBe(PROFILE);
    expect(body.business.reviews_urls).toHaveLength(3);
    expect(body.pagination).toMatchObject({ total_reviews: 50, total_pages: 1 });
    expect(body.reviews).toEqual(AIRBNB_REVIEWS.map(expected));
    expect(body.reviews[30].owner_reply).toEqual({
      text: AIRBNB_REVIEWS[30].response,
      posted_at: Date.parse("2026-08-01T00:00:00Z"),
    });
    const page2 = await retrieve(task, 2, 24);
    expect(page2.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      AIRBNB_REVIEWS.slice(24, 48).map((r) => r.id),
    );
  });

  it("a listing without reviews completes with none", async () => {
    const task = await submitScrape("airbnb.com", "1002");
    await queue().drain();
    const body = await retrieve(task);
    expect([body.task_status, body.reviews]).toEqual([200, []]);
  });

  it.each([
    ["1404", "profile_not_found"],
    ["1403", "blocked"],
    ["1429", "blocked"],
    ["1302", "login_required"],
  ])("listing %s fails with %s", async (id, reason) => {
    const task = await submitScrape("airbnb.com", id);
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed(reason));
  });

  it("a changed answer fails with publisher_error and the log names the field", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const task = await submitScrape("airbnb.com", "1500");
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed("publisher_error"));
    expect(scrapeFailures(warn, task.taskId)).toContainEqual(
      expect.objectContaining({
        publisher: "airbnb.com",
        reason: "publisher_error",
        detail: expect.stringContaining("reviews.reviews.0.rating"),
      }),
    );
    expect(await taskRow(task.taskId)).toMatchObject({ reason: "publisher_error" });
  });
});
