/** Pure parts of the yelp.com module, on the fixture site's own answers. */
import { describe, expect, it } from "vitest";
import { inspectYelpPage, readBizPage } from "../../../src/publishers/yelp/biz-page";
import {
  FEED_DOCUMENT_ID,
  feedRequest,
  parseFeed,
  REVIEWS_PER_PAGE,
} from "../../../src/publishers/yelp/feed";
import { matchingResults, searchResults } from "../../../src/publishers/yelp/lookup";
import { business } from "../../helpers/api";
import { REVIEWS } from "./data";
import fixture, { DATADOME_PAGE, DOCUMENT_ID, PER_PAGE, SESSION_COOKIE, bizId } from "./site";
import { scrapeError } from "../support";

const PROFILE = "https://www.yelp.com/biz/blue-door-cafe-san-francisco";
const cookie = `${SESSION_COOKIE.name}=${SESSION_COOKIE.value}`;

/** What the fixture site answers to a request (no HTTP: its handler, called directly). */
function ask(path: string, init: { method?: string; body?: string } = {}) {
  const url = new URL(path, "https://www.yelp.com");
  return fixture.site({
    url,
    cookie,
    count: 1,
    method: init.method ?? "GET",
    host: "www.yelp.com",
    headers: {},
    body: init.body ?? "",
  });
}

function feedAnswer(alias: string, offset: number): unknown {
  const answer = ask("/gql/batch", {
    method: "POST",
    body: JSON.stringify(feedRequest(bizId(alias), offset)),
  });
  expect(answer.status, answer.body).toBe(200);
  return JSON.parse(answer.body);
}

describe("yelp review feed request", () => {
  it("asks for the newest reviews first, untranslated, through the persisted query", () => {
    const [op] = feedRequest("enc_x", 0) as [
      { operationName: string; variables: Record<string, unknown>; extensions: Record<string, unknown> },
    ];
    expect(op.operationName).toBe("GetBusinessReviewFeed");
    expect(op.extensions).toEqual({ operationType: "query", documentId: DOCUMENT_ID });
    expect(FEED_DOCUMENT_ID).toBe(DOCUMENT_ID);
    expect(op.variables).toMatchObject({
      encBizId: "enc_x",
      reviewsPerPage: PER_PAGE,
      sortBy: "DATE_DESC",
      isTranslating: false,
      ratings: [5, 4, 3, 2, 1],
    });
    expect(op.variables).not.toHaveProperty("after");
  });

  it("pages by offset: after is base64 of Yelp's offset cursor", () => {
    const [op] = feedRequest("enc_x", 20) as [{ variables: { after: string } }];
    expect(JSON.parse(atob(op.variables.after))).toEqual({ version: 1, type: "offset", offset: 20 });
    expect(REVIEWS_PER_PAGE).toBe(PER_PAGE);
  });
});

describe("yelp review feed answer", () => {
  it("reads a page: native ids, author ids, exact dates, the owner reply, each review's language", () => {
    const page = parseFeed(feedAnswer("blue-door-cafe-san-francisco", 0), PROFILE, 0);
    expect(page).toMatchObject({ count: 10, hasNextPage: true, reviewCount: 23 });
    expect(page.reviews.map((r) => r.id)).toEqual(REVIEWS.slice(0, 10).map((r) => r.encid));
    expect(page.reviews[0]).toEqual({
      id: REVIEWS[0].encid,
      author_name: "Dana K.",
      author_id: REVIEWS[0].author.encid,
      author_url: `https://www.yelp.com/user_details?userid=${REVIEWS[0].author.encid}`,
      rating: { value: 5, best: 5, worst: 1 },
      text: REVIEWS[0].text!.full,
      language: "en",
      url: `${PROFILE}?hrid=${REVIEWS[0].encid}`,
      date: "2026-10-30T18:04:11.000Z",
      // author.reviewCount and feedback.usefulCount ("Useful" votes) of the fixture node.
      author_review_count: 12,
      likes: 1,
      reply_text: "Thank you Dana! See you tomorrow.\nThe Blue Door team",
      reply_date: "2026-10-31T09:15:00.000Z",
    });
    // The German review keeps its original text and language, not the translation Yelp can show.
    expect(page.reviews[2]).toMatchObject({ text: REVIEWS[2].text!.full, language: "de" });
    // A rating without text has neither text nor language.
    expect(page.reviews[4].text).toBeUndefined();
    expect(page.reviews[4].language).toBeUndefined();
    expect(page.reviews[1]).not.toHaveProperty("reply_text");
  });

  it("the last page says there is no next one", () => {
    const page = parseFeed(feedAnswer("blue-door-cafe-san-francisco", 20), PROFILE, 20);
    expect(page).toMatchObject({ count: 3, hasNextPage: false });
    expect(page.reviews.map((r) => r.id)).toEqual(REVIEWS.slice(20).map((r) => r.encid));
  });

  it("pages by offset up to reviewCount when the answer has no pageInfo (as public clients page), and states the count", () => {
    const offsets: number[] = [];
    let offset: number | null = 0;
    let read = 0;
    while (offset !== null) {
      offsets.push(offset);
      const page = parseFeed(feedAnswer("nopageinfo-cafe", offset), PROFILE, offset);
      expect(page.reviewCount).toBe(REVIEWS.length);
      read += page.count;
      offset = page.hasNextPage ? offset + page.count : null;
    }
    expect(offsets).toEqual([0, 10, 20]);
    expect(read).toBe(REVIEWS.length);
  });

  it("a business without reviews is an empty last page", () => {
    expect(parseFeed(feedAnswer("empty-cafe", 0), PROFILE, 0)).toEqual({
      reviews: [],
      count: 0,
      hasNextPage: false,
      reviewCount: 0,
    });
  });

  it("an unknown business is profile_not_found", () => {
    const err = scrapeError(() => parseFeed(feedAnswer("nobiz-cafe", 0), PROFILE, 0));
    expect({ reason: err.reason, transient: err.transient }).toEqual({
      reason: "profile_not_found",
      transient: false,
    });
  });

  it("a changed answer is publisher_error naming what is missing", () => {
    const err = scrapeError(() => parseFeed(feedAnswer("feedchanged-cafe", 0), PROFILE, 0));
    expect(err.reason).toBe("publisher_error");
    expect(err.message).toContain("0.data.business.reviews.edges.0.node.encid");
  });

  it("GraphQL errors are publisher_error with Yelp's message", () => {
    const err = scrapeError(() =>
      parseFeed([{ data: null, errors: [{ message: "Variable encBizId is invalid" }] }], PROFILE, 0),
    );
    expect({ reason: err.reason, message: err.message }).toEqual({
      reason: "publisher_error",
      message: "Yelp review feed: GraphQL errors: Variable encBizId is invalid",
    });
  });

  it("an unreadable date is publisher_error, not a review dated now", () => {
    const answer = feedAnswer("blue-door-cafe-san-francisco", 0) as any;
    answer[0].data.business.reviews.edges[3].node.createdAt.utcDateTime = "last Tuesday-ish";
    const err = scrapeError(() => parseFeed(answer, PROFILE, 0));
    expect(err.reason).toBe("publisher_error");
    expect(err.message).toContain("edges.3.node.createdAt.utcDateTime");
  });

  it("an empty page where Yelp counts more reviews is publisher_error", () => {
    const answer = feedAnswer("blue-door-cafe-san-francisco", 0) as any;
    answer[0].data.business.reviews.edges = [];
    const err = scrapeError(() => parseFeed(answer, PROFILE, 0));
    expect({ reason: err.reason, message: err.message }).toEqual({
      reason: "publisher_error",
      message: "Yelp review feed: no reviews at offset 0 although the business has 23",
    });
  });
});

describe("yelp biz page and inspection", () => {
  it("reads the encoded business id and the postal code", async () => {
    const page = ask("/biz/blue-door-cafe-oakland");
    expect(await readBizPage(page.body)).toEqual({
      bizId: "enc_blue-door-cafe-oakland",
      postalCode: "94607",
    });
    expect(await readBizPage(ask("/biz/changed-x").body)).toEqual({ bizId: null, postalCode: null });
  });

  const page = (url: string, text: string) => ({
    url: new URL(url),
    status: 200,
    headers: new Headers(),
    text,
    rendered: false,
  });

  it("DataDome's captcha page is blocked (worth retrying later)", () => {
    const err = inspectYelpPage(page(PROFILE, DATADOME_PAGE));
    expect({ reason: err?.reason, transient: err?.transient }).toEqual({
      reason: "blocked",
      transient: true,
    });
  });

  it("Yelp's sign-in page is login_required", () => {
    const err = inspectYelpPage(page("https://www.yelp.com/login?return_url=%2Fbiz%2Fx", ask("/login").body));
    expect({ reason: err?.reason, transient: err?.transient }).toEqual({
      reason: "login_required",
      transient: false,
    });
  });

  it("a biz page and a feed answer pass, even a review quoting captcha-delivery.com", () => {
    expect(inspectYelpPage(page(PROFILE, ask("/biz/blue-door-cafe-san-francisco").body))).toBeNull();
    expect(
      inspectYelpPage(
        page("https://www.yelp.com/gql/batch", JSON.stringify([{ data: { text: "captcha-delivery.com" } }])),
      ),
    ).toBeNull();
  });
});

describe("yelp lookup: choosing a search result", () => {
  const results = () =>
    searchResults(JSON.parse(ask("/search/snippet?find_desc=Blue+Door+Cafe&find_loc=x").body));

  it("lists organic results only, with their alias and street", () => {
    expect(results().map((r) => [r.alias, r.address])).toEqual([
      ["blue-door-tavern-san-francisco", "1 Market St"],
      ["blue-door-cafe-san-francisco-3", "500 Castro St"],
      ["blue-door-cafe-oakland", "1 Market Street, Ste 2"],
      ["blue-door-cafe-san-francisco", "1 Market Street, Ste 200"],
    ]);
  });

  it("keeps results matching name and street, best name first", () => {
    expect(matchingResults(business(), results()).map((r) => r.alias)).toEqual([
      "blue-door-cafe-oakland",
      "blue-door-cafe-san-francisco",
    ]);
  });

  it("skips a result whose businessUrl is no URL instead of throwing a TypeError", () => {
    const item = (bizId: string, businessUrl: string) => ({
      bizId,
      searchResultBusiness: { name: "Blue Door Cafe", businessUrl, formattedAddress: "1 Market St" },
    });
    const answer = {
      searchPageProps: {
        mainContentComponentsListProps: [
          item("x1", "http://[::1"),
          item("x2", "/biz/blue-door-cafe-san-francisco"),
        ],
      },
    };
    expect(searchResults(answer).map((r) => r.bizId)).toEqual(["x2"]);
  });

  it("a search answer without its results list is publisher_error", () => {
    expect(scrapeError(() => searchResults({ props: {} })).reason).toBe("publisher_error");
  });
});
