/**
 * booking.com: the pure parsers on the fixture's data, then end to end through the Worker, the real
 * queue consumer and the fixture site (test/publishers/booking/site.ts) via PUBLISHER_ORIGINS.
 */
import { describe, expect, it, vi } from "vitest";
import { failureDetails } from "../../helpers/logs";
import {
  bookingAdapter,
  csrfToken,
  hotelIds,
  type BookingCursor,
} from "../../../src/publishers/booking/adapter";
import type { ScrapeContext } from "../../../src/publishers/types";
import {
  parseReviewListResponse,
  reviewListRequest,
  toRawReview,
} from "../../../src/publishers/booking/reviews";
import { hotelPage } from "../../../src/publishers/booking/urls";
import type { FetchedPage } from "../../../src/scraping/client";
import { createAccount, postJson, submitBody } from "../../helpers/api";
import { PRODUCERS } from "../../helpers/queue";
import { fixtureRequests, md5Hash, retrieve, submitScrape } from "../../e2e/support";
import { HOTELS, csrfOf, hotelPath, type FixtureCard } from "./data";
import fixture from "./site";
import { failed, queuePerTest, scrapeError } from "../support";

const hotel = (id: number) => HOTELS.find((h) => h.hotelId === id)!;
const profileUrl = (id: number) => `https://www.booking.com${hotelPath(hotel(id))}`;
const HARBOUR = hotel(501);

function siteAnswer(body: { variables: { input: { hotelId: number } } }) {
  const response = fixture.site({
    url: new URL("http://fixture/dml/graphql?lang=en-gb"),
    method: "POST",
    host: "www.booking.com",
    headers: { "x-booking-csrf-token": csrfOf(body.variables.input) },
    body: JSON.stringify(body),
    cookie: "",
    count: 1,
  });
  return JSON.parse(response.body);
}
const ids = (h = HARBOUR) => ({ hotelId: h.hotelId, ufi: h.ufi, countryCode: h.countryCode });

/** The text the service keeps for a card, written out from the fixture's fields. */
function text(card: FixtureCard): string {
  const parts = [];
  if (card.textDetails.positiveText) parts.push(`Liked: ${card.textDetails.positiveText}`);
  if (card.textDetails.negativeText) parts.push(`Disliked: ${card.textDetails.negativeText}`);
  return parts.join("\n\n");
}

/** 10-point score onto 1–5 as the README documents it. */
const STARS: Record<number, number> = { 10: 5, 9.2: 5, 9: 5, 8: 4, 7.5: 4, 6: 3, 4: 2, 2.5: 2, 1: 1 };

/** Alpha-3 codes of the fixture guests' alpha-2 countries (ISO 3166-1); "xk" (Kosovo) has none. */
const ALPHA3: Record<string, string> = { gb: "GBR", ie: "IRL", de: "DEU" };

function expected(card: FixtureCard, url: string) {
  const country = ALPHA3[card.guestDetails.countryCode];
  const checkin = card.bookingDetails.checkinDate;
  const body = text(card);
  const author = card.guestDetails.username;
  const reply = card.partnerReply?.reply;
  const postedAt = card.reviewedDate * 1000;
  return {
    review_id: card.reviewUrl,
    author_name: author,
    author_id: null,
    rating: STARS[card.reviewScore],
    text: body,
    url,
    posted_at: postedAt,
    review_hash: md5Hash(reply ? [body, author, reply] : [body, author]),
    language: card.textDetails.lang,
    source_date: new Date(postedAt).toISOString(),
    scraped_at: expect.any(Number),
    ...(country ? { author_country: country } : {}),
    ...(checkin ? { visited_at: Date.parse(`${checkin}T00:00:00Z`) } : {}),
    // The optional fields (issue 36) sit beside the text and never enter review_hash (above).
    title: card.textDetails.title,
    likes: card.helpfulVotesCount,
    ...(card.photos ? { photos: card.photos.map((p) => p.urls[0].url) } : {}),
    ...(reply ? { owner_reply: { text: reply, posted_at: null } } : {}),
  };
}

describe("booking review list parsing", () => {
  it("reads review cards: native id, both texts, 10-point score, exact date, language and the partner's reply", () => {
    const page = parseReviewListResponse(siteAnswer(reviewListRequest(ids(), 0)));
    expect(page.reviewsCount).toBe(23);
    expect(page.cards.map((c) => c.reviewUrl)).toEqual(HARBOUR.cards.slice(0, 10).map((c) => c.reviewUrl));
    expect(toRawReview(page.cards[0])).toEqual({
      id: "b0c0ffee00000017",
      rating: { value: 9.2, best: 10, worst: 1 },
      text: "Liked: Harbour view and a quiet room.\n\nDisliked: Parking is expensive.",
      date: new Date(Date.UTC(2026, 10, 19, 9, 0, 23)).toISOString(),
      author_name: "Olivia",
      language: "en",
      reply_text: "Dear Olivia, thank you! Ask us for the parking discount next time.",
      author_country: "ie",
      visit_date: "2026-11-15",
      title: "Superb",
      likes: 3,
      // Each photo's largest size (max1280x900), not the thumbnails.
      photos: [
        "https://cf.bstatic.com/xdata/images/xphoto/max1280x900/634208906.jpg?k=25cd428a&o=",
        "https://cf.bstatic.com/xdata/images/xphoto/max1280x900/634208907.jpg?k=25cd428b&o=",
      ],
    });
    expect(toRawReview(page.cards[2]).text).toBe("");
    expect(toRawReview(page.cards[2])).not.toHaveProperty("visit_date");
    expect(toRawReview(page.cards[3])).not.toHaveProperty("author_country");
    expect(toRawReview(page.cards[3]).text).toBe("Disliked: Noisy air conditioning all night.");
  });

  it("fails as publisher_error naming what is missing", async () => {
    expect(
      scrapeError(() => parseReviewListResponse(siteAnswer(reviewListRequest(ids(hotel(506)), 0)))).message,
    ).toContain("no data.reviewListFrontend");
    expect(
      scrapeError(() => parseReviewListResponse(siteAnswer(reviewListRequest(ids(hotel(505)), 0)))).message,
    ).toContain("ReviewsFrontendError 500");
    const answer = siteAnswer(reviewListRequest(ids(), 0));
    delete answer.data.reviewListFrontend.reviewCard[1].reviewScore;
    expect(scrapeError(() => parseReviewListResponse(answer)).message).toContain("reviewCard.1.reviewScore");
    await expect(hotelIds("<html><body>no form</body></html>", "gb")).rejects.toMatchObject({
      reason: "publisher_error",
      message: expect.stringContaining("hotel_id"),
    });
  });

  it("reads the ids from the hidden inputs or the inline b_hotel_id / b_ufi, and the page's b_csrf_token", async () => {
    const get = (h: (typeof HOTELS)[number]) =>
      fixture.site({
        url: new URL(`http://fixture${hotelPath(h)}`),
        method: "GET",
        host: "www.booking.com",
        headers: {},
        body: "",
        cookie: "",
        count: 1,
      }).body;
    expect(await hotelIds(get(HARBOUR), "gb")).toEqual({ hotelId: 501, ufi: -2601889, countryCode: "gb" });
    expect(await hotelIds(get(hotel(508)), "gb")).toEqual({ hotelId: 508, ufi: -2601890, countryCode: "gb" });
    expect(csrfToken(get(hotel(508)))).toBe(csrfOf(hotel(508)));
    // As bookingcom.py's patterns allow: double quotes or none around the ids.
    expect(await hotelIds(`<script>b_hotel_id: "77", b_ufi: -20088325,</script>`, "fr")).toEqual({
      hotelId: 77,
      ufi: -20088325,
      countryCode: "fr",
    });
    expect(csrfToken("<html>no token</html>")).toBeNull();
  });

  it("states the publisher's review count on each page (publisherTotal = reviewsCount)", async () => {
    const cursor: BookingCursor = {
      profileUrl: profileUrl(501),
      ...ids(),
      skip: 0,
      csrfToken: csrfOf(HARBOUR),
    };
    const sent: Record<string, string>[] = [];
    const client = {
      json: async (_url: URL, options: { headers: Record<string, string>; json: unknown }) => {
        sent.push(options.headers);
        return { data: siteAnswer(options.json as Parameters<typeof siteAnswer>[0]) };
      },
    };
    const page = await bookingAdapter.page(cursor, {
      publisherKey: "booking.com",
      client,
    } as unknown as ScrapeContext);
    expect(page.publisherTotal).toBe(23);
    expect(page.reviews).toHaveLength(10);
    expect(sent[0]["x-booking-csrf-token"]).toBe(csrfOf(HARBOUR));
  });

  it("reads hotel page addresses without language, query or fragment", () => {
    expect(
      hotelPage(
        new URL(
          "https://www.booking.com/hotel/gb/harbour-view.en-gb.html?aid=304142&checkin=2026-12-01#tab-reviews",
        ),
      ),
    ).toEqual({
      countryCode: "gb",
      slug: "harbour-view",
      url: "https://www.booking.com/hotel/gb/harbour-view.html",
    });
    expect(hotelPage(new URL("https://www.booking.com/searchresults.html?ss=London"))).toBeNull();
    expect(hotelPage(new URL("https://www.example.com/hotel/gb/harbour-view.html"))).toBeNull();
  });

  it("takes AWS WAF's challenge page for a block and lets hotel pages through", async () => {
    const get = (path: string) =>
      fixture.site({
        url: new URL(`http://fixture${path}`),
        method: "GET",
        host: "www.booking.com",
        headers: {},
        body: "",
        cookie: "",
        count: 1,
      });
    const page = (text: string): FetchedPage => ({
      url: new URL("https://www.booking.com/x"),
      status: 200,
      headers: new Headers(),
      text,
      rendered: false,
    });
    expect(await bookingAdapter.inspect!(page(get(hotelPath(hotel(503))).body))).toMatchObject({
      reason: "blocked",
    });
    expect(await bookingAdapter.inspect!(page(get(hotelPath(HARBOUR)).body))).toBeNull();
  });
});

describe("booking.com scraping", () => {
  const queue = queuePerTest();

  async function graphqlRequests(): Promise<number> {
    return (await fixtureRequests("booking.com", "/dml/graphql"))["/dml/graphql?lang=en-gb"] ?? 0;
  }

  it("walks the review list by skip, newest first, with both texts, mapped scores, dates, languages, replies, countries and stay dates", async () => {
    const before = await graphqlRequests();
    const task = await submitScrape(
      "booking.com",
      "https://www.booking.com/hotel/gb/harbour-view.en-gb.html?aid=304142",
    );
    await queue().drain();
    expect(queue().deliveries.every((d) => d.queue === PRODUCERS.SCRAPE_BOOKING && d.outcome === "ack")).toBe(
      true,
    );
    // skip 0, 10 and 20 of 23.
    expect((await graphqlRequests()) - before).toBe(3);
    const first = await retrieve(task, 1, 10);
    expect(first.business.profile_key).toBe(profileUrl(501));
    expect(first.pagination).toEqual({
      total_reviews: 23,
      page: 1,
      page_size: 10,
      total_pages: 3,
      has_next: true,
      has_previous: false,
    });
    const all = [
      ...first.reviews,
      ...(await retrieve(task, 2, 10)).reviews,
      ...(await retrieve(task, 3, 10)).reviews,
    ];
    expect(all).toEqual(HARBOUR.cards.map((card) => expected(card, profileUrl(501))));
    expect(all[0]).toMatchObject({
      review_id: "b0c0ffee00000017",
      rating: 5,
      text: "Liked: Harbour view and a quiet room.\n\nDisliked: Parking is expensive.",
      posted_at: Date.UTC(2026, 10, 19, 9, 0, 23),
      owner_reply: {
        text: "Dear Olivia, thank you! Ask us for the parking discount next time.",
        posted_at: null,
      },
    });
    expect(all[1]).toMatchObject({
      rating: 4,
      language: "de",
      text: "Liked: Sehr sauber und ruhig.\n\nDisliked: Das Frühstück war teuer.",
    });
    expect(all[3]).toMatchObject({ rating: 2, author_name: "Anonymous" });
    // The reviewer's country (alpha-2 → alpha-3) and the check-in day; absent where Booking gives none.
    expect(all.slice(0, 5).map((r) => [r.author_name, r.author_country, r.visited_at])).toEqual([
      ["Olivia", "IRL", Date.UTC(2026, 10, 15)],
      ["Klaus", "DEU", Date.UTC(2026, 10, 13)],
      ["Arben", undefined, undefined],
      ["Anonymous", undefined, Date.UTC(2026, 10, 9)],
      ["Guest 19", "GBR", Date.UTC(2026, 10, 7)],
    ]);
    expect(all[2]).not.toHaveProperty("author_country");
    expect(all[2]).not.toHaveProperty("visited_at");
    expect(all[3]).not.toHaveProperty("author_country");
    expect(all.map((r) => r.rating).slice(4, 9)).toEqual([3, 4, 5, 1, 2]);
    expect((await retrieve(task, 3, 10)).reviews).toHaveLength(3);
  });

  it("walks a hotel whose page gives its ids only inline (b_hotel_id, b_ufi), sending the page's CSRF token", async () => {
    const task = await submitScrape("booking.com", profileUrl(508));
    await queue().drain();
    const body = await retrieve(task, 1, 50);
    expect(body.pagination).toMatchObject({ total_reviews: 12 });
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      hotel(508).cards.map((c) => c.reviewUrl),
    );
  });

  it("completes a hotel without reviews with zero reviews", async () => {
    const task = await submitScrape("booking.com", profileUrl(502));
    await queue().drain();
    const body = await retrieve(task);
    expect(body.task_status).toBe(200);
    expect(body.pagination).toMatchObject({ total_reviews: 0, total_pages: 0 });
  });

  it.each([
    [503, "blocked", "bot challenge page"],
    [504, "publisher_error", "no hotel_id input nor b_hotel_id"],
    [505, "publisher_error", "ReviewsFrontendError 500"],
    [506, "publisher_error", "no data.reviewListFrontend"],
    [507, "publisher_error", "no reviews at skip 0 although reviewsCount is 2"],
  ])("fails hotel %i as %s and logs %s", async (id, reason, logged) => {
    const warn = vi.spyOn(console, "warn");
    const task = await submitScrape("booking.com", profileUrl(id));
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed(reason));
    expect(failureDetails(warn, task.taskId)).toContain(logged);
  });

  it("fails an unknown hotel as profile_not_found", async () => {
    const task = await submitScrape("booking.com", "https://www.booking.com/hotel/gb/nowhere-inn.html");
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed("profile_not_found"));
  });

  it("refuses a profile_key that is not a hotel page, and requires one (no lookup)", async () => {
    const { apiKey } = await createAccount();
    const config = { last_review_hashes: [], first_page_only: false };
    const wrong = await postJson(
      "/submit/request-reviews/",
      submitBody(apiKey, {
        "booking.com": { ...config, profile_key: "https://www.booking.com/searchresults.html?ss=London" },
      }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.details.data.publishers).toEqual({
      "booking.com": { profile_key: ["Enter the URL of a profile on booking.com."] },
    });
    const missing = await postJson("/submit/request-reviews/", submitBody(apiKey, { "booking.com": config }));
    expect(missing.status).toBe(400);
    expect(missing.body.details.data.publishers).toEqual({
      "booking.com": { profile_key: ["This field is required."] },
    });
  });
});
