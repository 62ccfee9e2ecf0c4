/** Pure parts of the Tripadvisor module, on the fixture site's own answers and data. */
import { describe, expect, it } from "vitest";
import { tripadvisorAdapter } from "../../../src/publishers/tripadvisor/adapter";
import { chooseListing } from "../../../src/publishers/tripadvisor/lookup";
import {
  parseReviewListResponse,
  reviewListRequest,
  toRawReview,
} from "../../../src/publishers/tripadvisor/reviews";
import { locationPage, reviewPageUrl } from "../../../src/publishers/tripadvisor/urls";
import type { FetchedPage } from "../../../src/scraping/client";
import { business } from "../../helpers/api";
import { LISTINGS, LOCATIONS } from "./data";
import fixture, { ISSUED_TAUNIQUE } from "./site";
import { scrapeError } from "../support";

const HOTEL = LOCATIONS.find((l) => l.locationId === 1001)!;

/** The fixture site's answer to the review list request the adapter builds. */
function answer(
  locationId: number,
  offset: number,
  body: unknown = reviewListRequest(locationId, offset),
  session: { token: string; cookie: string } = {
    token: ISSUED_TAUNIQUE,
    cookie: `TAUnique=${ISSUED_TAUNIQUE}`,
  },
): unknown {
  const response = fixture.site({
    url: new URL("http://fixture/data/graphql/ids"),
    method: "POST",
    host: "www.tripadvisor.com",
    headers: { "x-requested-by": session.token },
    body: JSON.stringify(body),
    cookie: session.cookie,
    count: 1,
  });
  return JSON.parse(response.body);
}

describe("tripadvisor review list", () => {
  it("reads a page of the review list with ids, authors, reply, dates and the review's own language", () => {
    const page = parseReviewListResponse(answer(1001, 0));
    expect(page.totalCount).toBe(45);
    expect(page.reviews.map((r) => r.id)).toEqual(HOTEL.reviews.slice(0, 20).map((r) => r.id));
    const raws = page.reviews.map((r) => toRawReview(r, "https://www.tripadvisor.com"));
    expect(raws[0]).toEqual({
      id: "945000045",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Lovely rooms and a quiet courtyard.\nWe will be back.",
      author_name: "Dana K",
      author_id: "UID945000045",
      author_url: "https://www.tripadvisor.com/Profile/danak",
      url: "https://www.tripadvisor.com/ShowUserReviews-g60713-d1001-r945000045-Blue_Door_Hotel-San_Francisco_California.html",
      date: "2026-11-20",
      language: "en",
      reply_text: "Thank you Dana, see you again soon.",
      reply_date: "2026-11-21",
      visit_date: "2026-11",
      title: "Quiet gem",
      likes: 0,
    });
    // Asked without machine translation, the German review keeps its own words and language.
    expect(raws[1]).toMatchObject({
      id: "945000044",
      text: "Sehr freundliches Personal und ein gutes Frühstück.",
      language: "de",
    });
    expect(raws[1].reply_text).toBeUndefined();
    // A rating without words stays a review with empty text.
    expect(raws[2]).toMatchObject({ id: "945000043", text: "", rating: { value: 3 } });
  });

  it("gets the newest 20 whatever the offset, as the 2026 operation answers (so the walk cannot page with it)", () => {
    const page = parseReviewListResponse(answer(1001, 40));
    expect(page.reviews.map((r) => r.id)).toEqual(HOTEL.reviews.slice(0, 20).map((r) => r.id));
  });

  it("reads the older answer shape (data.locations[0].reviewListPage)", () => {
    const current = answer(1003, 0) as [{ data: { ReviewsProxy_getReviewListPageForLocation: unknown[] } }];
    const legacy = [
      {
        data: {
          locations: [
            {
              locationId: 1003,
              reviewListPage: current[0].data.ReviewsProxy_getReviewListPageForLocation[0],
            },
          ],
        },
      },
    ];
    expect(parseReviewListResponse(legacy).reviews.map((r) => r.language)).toEqual(["en", "fr", "de"]);
  });

  it("fails as publisher_error naming what is missing or refused", () => {
    const changed = scrapeError(() => parseReviewListResponse(answer(1006, 0)));
    expect(changed).toMatchObject({ reason: "publisher_error", transient: false });
    expect(changed.message).toContain("data.ReviewsProxy_getReviewListPageForLocation[0]");
    // PersistedQueryNotFound is a distrusted session's answer: blocked (the next route is tried), not a changed site.
    const distrusted = scrapeError(() => parseReviewListResponse(answer(1007, 0)));
    expect(distrusted).toMatchObject({ reason: "blocked" });
    expect(distrusted.message).toContain("PersistedQueryNotFound for query 3d5e9aff1e00e113");
    expect(scrapeError(() => parseReviewListResponse(answer(1008, 0))).message).toContain("reviews.0.rating");
    expect(scrapeError(() => parseReviewListResponse({ error: "nope" })).reason).toBe("publisher_error");
    const [request] = reviewListRequest(1001, 0);
    const noLocale = [{ ...request, variables: { ...request.variables, locale: undefined } }];
    expect(scrapeError(() => parseReviewListResponse(answer(1001, 0, noLocale))).message).toContain(
      '"$locale"',
    );
  });
});

describe("tripadvisor location pages", () => {
  it.each([
    [
      "https://www.tripadvisor.com/Hotel_Review-g60713-d1001-Reviews-Blue_Door_Hotel-San_Francisco_California.html",
      1001,
      "https://www.tripadvisor.com/Hotel_Review-g60713-d1001-Reviews-Blue_Door_Hotel-San_Francisco_California.html",
    ],
    [
      "https://www.tripadvisor.co.uk/Restaurant_Review-g186338-d737451-Reviews-or20-Dishoom-London_England.html?m=1#REVIEWS",
      737451,
      "https://www.tripadvisor.co.uk/Restaurant_Review-g186338-d737451-Reviews-Dishoom-London_England.html",
    ],
    [
      "https://tripadvisor.de/Attraction_Review-g187323-d190508-Reviews-Museumsinsel-Berlin.html",
      190508,
      "https://tripadvisor.de/Attraction_Review-g187323-d190508-Reviews-Museumsinsel-Berlin.html",
    ],
  ])("%s is location %i", (url, id, canonical) => {
    expect(locationPage(new URL(url))).toMatchObject({ locationId: id, url: canonical });
  });

  it.each([
    "https://www.tripadvisor.com/Tourism-g60713-San_Francisco_California-Vacations.html",
    "https://www.tripadvisor.com/Profile/danak",
    "https://www.example.com/Hotel_Review-g60713-d1001-Reviews-Blue_Door_Hotel.html",
  ])("%s is no location page", (url) => {
    expect(locationPage(new URL(url))).toBeNull();
  });

  it("names the -or<offset>- page of an offset", () => {
    const url =
      "https://www.tripadvisor.com/Hotel_Review-g60713-d1001-Reviews-Blue_Door_Hotel-San_Francisco_California.html";
    expect(reviewPageUrl(url, 0)).toBe(url);
    expect(reviewPageUrl(url, 20)).toBe(
      "https://www.tripadvisor.com/Hotel_Review-g60713-d1001-Reviews-or20-Blue_Door_Hotel-San_Francisco_California.html",
    );
  });
});

describe("tripadvisor lookup choice", () => {
  it("chooses the listing with the name and the address among decoys", () => {
    const chosen = chooseListing(business(), LISTINGS, "https://www.tripadvisor.com");
    expect(chosen?.url).toBe(
      "https://www.tripadvisor.com/Restaurant_Review-g60713-d1010-Reviews-Blue_Door_Cafe-San_Francisco_California.html",
    );
  });

  it("chooses nothing when only the name or only the address matches", () => {
    const elsewhere = { ...business(), name: "Green Lantern Bistro" };
    expect(chooseListing(elsewhere, LISTINGS, "https://www.tripadvisor.com")).toBeNull();
    const withoutTarget = LISTINGS.filter((l) => l.value !== 1010);
    expect(chooseListing(business(), withoutTarget, "https://www.tripadvisor.com")).toBeNull();
  });
});

describe("tripadvisor page inspection", () => {
  const page = (text: string, type = "text/html"): FetchedPage => ({
    url: new URL("https://www.tripadvisor.com/x"),
    status: 200,
    headers: new Headers({ "Content-Type": type }),
    text,
    rendered: false,
  });

  it("takes DataDome's captcha page and XHR answer for a block", async () => {
    const captcha = fixture.site({
      url: new URL(
        "http://fixture/Hotel_Review-g60713-d1004-Reviews-Captcha_Hotel-San_Francisco_California.html",
      ),
      method: "GET",
      host: "www.tripadvisor.com",
      headers: {},
      body: "",
      cookie: "",
      count: 1,
    });
    expect(await tripadvisorAdapter.inspect!(page(captcha.body))).toMatchObject({ reason: "blocked" });
    expect(
      await tripadvisorAdapter.inspect!(
        page('{"url":"https://geo.captcha-delivery.com/captcha/?initialCid=x"}', "application/json"),
      ),
    ).toMatchObject({
      reason: "blocked",
    });
  });

  it("takes a review list answering PersistedQueryNotFound (a session without the page's token) for a block", async () => {
    const random = { token: "0123abcd", cookie: "TAUnique=0123abcd" };
    const refused = JSON.stringify(answer(1001, 0, reviewListRequest(1001, 0), random));
    const graphql = (text: string): FetchedPage => ({
      ...page(text, "application/json"),
      url: new URL("https://www.tripadvisor.com/data/graphql/ids"),
    });
    expect(refused).toContain("PersistedQueryNotFound");
    expect(await tripadvisorAdapter.inspect!(graphql(refused))).toMatchObject({ reason: "blocked" });
    expect(await tripadvisorAdapter.inspect!(graphql(JSON.stringify(answer(1001, 0))))).toBeNull();
  });

  it("lets ordinary pages through, DataDome's own tag and reviews quoting it included", async () => {
    const ordinary = fixture.site({
      url: new URL(`http://fixture${new URL(HOTEL_URL).pathname}`),
      method: "GET",
      host: "www.tripadvisor.com",
      headers: {},
      body: "",
      cookie: "",
      count: 1,
    });
    expect(ordinary.status).toBe(200);
    expect(await tripadvisorAdapter.inspect!(page(ordinary.body))).toBeNull();
    const quoting = JSON.stringify([{ data: { text: 'it said src="https://geo.captcha-delivery.com/x"' } }]);
    expect(await tripadvisorAdapter.inspect!(page(quoting, "application/json"))).toBeNull();
  });
});

const HOTEL_URL =
  "https://www.tripadvisor.com/Hotel_Review-g60713-d1001-Reviews-Blue_Door_Hotel-San_Francisco_California.html";
