/** The trustpilot module's pure parts on the fixture site's own pages: page data, profile_key rules, page checks, search matching. */
import { describe, expect, it } from "vitest";
import { inspectTrustpilotPage, reviewPageUrl } from "../../../src/publishers/trustpilot/adapter";
import { chooseCandidate, parseSearchPage } from "../../../src/publishers/trustpilot/lookup";
import { parseReviewPage } from "../../../src/publishers/trustpilot/reviews";
import { ScrapeError } from "../../../src/scraping/errors";
import type { FetchedPage } from "../../../src/scraping/client";
import { SEARCH_RESULTS } from "./data";
import fixture from "./site";

/** The fixture site's page (body) for a URL on www.trustpilot.com. */
async function serve(pathAndQuery: string): Promise<string> {
  const url = new URL(pathAndQuery, "https://www.trustpilot.com");
  return fixture.site({
    url,
    cookie: "",
    count: 1,
    method: "GET",
    host: "www.trustpilot.com",
    headers: {},
    body: "",
  }).body;
}

async function fetched(pathAndQuery: string, text?: string): Promise<FetchedPage> {
  return {
    url: new URL(pathAndQuery, "https://www.trustpilot.com"),
    status: 200,
    headers: new Headers(),
    text: text ?? (await serve(pathAndQuery)),
    rendered: false,
  };
}

async function scrapeError(promise: Promise<unknown>): Promise<ScrapeError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ScrapeError);
  return err as ScrapeError;
}

describe("trustpilot review page data", () => {
  it("reads page 1's list with native ids, authors, ratings, exact dates, languages and the owner's reply, leaving out the relevant-reviews block", async () => {
    const page = await parseReviewPage(await serve("/review/multi-0000000a.com?languages=all&sort=recency"));
    expect(page).toMatchObject({
      pagination: { currentPage: 1, totalPages: 3, perPage: 4 },
      totalCount: 10,
      ratings: [1, 1, 1, 3, 4],
    });
    expect(page.reviews).toEqual([
      {
        id: "6650a1f2000000000000000a",
        author_name: "Dana K.",
        author_id: "c050a1f2000000000000000a",
        author_url: "https://www.trustpilot.com/users/c050a1f2000000000000000a",
        rating: { value: 5, best: 5, worst: 1 },
        text: "Best flat white in town. The oat milk one is even better.",
        url: "https://www.trustpilot.com/reviews/6650a1f2000000000000000a",
        date: "2026-10-30T18:04:11.000Z",
        language: "en",
        title: "Best flat white in town",
        likes: 0,
      },
      {
        id: "6650a1f2000000000000000b",
        author_name: "Mikkel Sørensen",
        author_id: "c050a1f2000000000000000b",
        author_url: "https://www.trustpilot.com/users/c050a1f2000000000000000b",
        rating: { value: 4, best: 5, worst: 1 },
        text: "Hyggelig café med god kaffe og venligt personale. Vi kommer igen næste gang vi er i byen.",
        url: "https://www.trustpilot.com/reviews/6650a1f2000000000000000b",
        date: "2026-10-28T09:15:00.000Z",
        language: "da",
        title: "Hyggelig café",
        likes: 0,
      },
      {
        id: "6650a1f2000000000000000c",
        author_name: "Ron P.",
        author_id: "c050a1f2000000000000000c",
        author_url: "https://www.trustpilot.com/users/c050a1f2000000000000000c",
        rating: { value: 2, best: 5, worst: 1 },
        text: "Waited forty minutes and the eggs came cold.\n\nNot what I expected.",
        url: "https://www.trustpilot.com/reviews/6650a1f2000000000000000c",
        date: "2026-10-20T12:00:00.000Z",
        language: "en",
        reply_text: "Sorry, Ron. We had two cooks out that morning; please ask for Sam next time.",
        reply_date: "2026-10-21T08:30:00.000Z",
        title: "Cold food",
        likes: 0,
      },
      {
        id: "6650a1f2000000000000000d",
        author_name: "Amelia",
        author_id: "c050a1f2000000000000000d",
        author_url: "https://www.trustpilot.com/users/c050a1f2000000000000000d",
        rating: { value: 5, best: 5, worst: 1 },
        text: "Lovely staff and a cosy corner to read in.",
        url: "https://www.trustpilot.com/reviews/6650a1f2000000000000000d",
        date: "2026-10-11T07:45:30.000Z",
        language: "en",
        title: "Lovely staff",
        likes: 0,
      },
    ]);
  });

  it("keeps a review without text as an empty body: the title (Trustpilot's first words of the text) is never the body", async () => {
    const page = await parseReviewPage(
      await serve("/review/multi-0000000a.com?languages=all&sort=recency&page=2"),
    );
    expect(page.pagination?.currentPage).toBe(2);
    const untitled = page.reviews.find((r) => r.id === "6650a1f2000000000000000e");
    expect(untitled).toMatchObject({
      author_name: "J. Osei",
      text: "",
      rating: { value: 3, best: 5, worst: 1 },
    });
  });

  it("reads an empty profile as no reviews on no pages", async () => {
    const page = await parseReviewPage(await serve("/review/empty-0000000a.com?languages=all&sort=recency"));
    expect(page).toEqual({
      reviews: [],
      pagination: { currentPage: 1, totalPages: 0, perPage: 4 },
      totalCount: 0,
      ratings: [0, 0, 0, 0, 0],
      // The fixture's TrustScore and its star counts (publisher_summary).
      summary: { rating: 4.3, ratingScale: "1-5", histogram: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } },
    });
  });

  it("names what is missing when the page data changed shape", async () => {
    const changed = await scrapeError(
      parseReviewPage(await serve("/review/changed-0000000a.com?languages=all&sort=recency")),
    );
    expect(changed.reason).toBe("publisher_error");
    expect(changed.message).toContain("__NEXT_DATA__.props.pageProps.reviews");
    const bare = await scrapeError(
      parseReviewPage(await serve("/review/bare-0000000a.com?languages=all&sort=recency")),
    );
    expect(bare).toMatchObject({
      reason: "publisher_error",
      message: "Trustpilot review page: no __NEXT_DATA__ script",
    });
    const noJson = await scrapeError(
      parseReviewPage(`<script id="__NEXT_DATA__" type="application/json">{"props":</script>`),
    );
    expect(noJson.message).toBe("Trustpilot review page: __NEXT_DATA__ is not JSON");
  });

  it("asks for every language, newest first, and the page number from page 2 on", () => {
    expect(reviewPageUrl("https://www.trustpilot.com/review/bluedoorcafe.com", 1)).toBe(
      "https://www.trustpilot.com/review/bluedoorcafe.com?languages=all&sort=recency",
    );
    expect(reviewPageUrl("https://www.trustpilot.com/review/bluedoorcafe.com?stars=5#x", 3)).toBe(
      "https://www.trustpilot.com/review/bluedoorcafe.com?languages=all&sort=recency&page=3",
    );
  });
});

describe("trustpilot page inspector", () => {
  it("lets real pages through, even though they mention cookie consent", async () => {
    const page = await fetched("/review/multi-0000000a.com?languages=all&sort=recency");
    expect(
      inspectTrustpilotPage({
        ...page,
        text: page.text.replace("<h1>", `<div id="onetrust-consent-sdk"></div><h1>`),
      }),
    ).toBeNull();
    expect(inspectTrustpilotPage(await fetched("/search?query=blue"))).toBeNull();
  });

  it("turns the sign-in page (by address or by Next.js's redirect in the data) into login_required", async () => {
    expect(inspectTrustpilotPage(await fetched("/users/connect?redirect=%2Freview%2Fx.com"))).toMatchObject({
      reason: "login_required",
      transient: false,
    });
    const redirectData = `<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"__N_REDIRECT":"/users/connect?redirect=%2Freview%2Fx.com%3Fpage%3D11","__N_REDIRECT_STATUS":307}}}</script>`;
    expect(inspectTrustpilotPage(await fetched("/review/x.com?page=11", redirectData))).toMatchObject({
      reason: "login_required",
    });
  });

  it("turns the bot check into blocked (worth retrying) and a consent wall into blocked", async () => {
    expect(inspectTrustpilotPage(await fetched("/review/captcha-0000000a.com"))).toMatchObject({
      reason: "blocked",
      transient: true,
    });
    expect(inspectTrustpilotPage(await fetched("/review/consent-0000000a.com"))).toMatchObject({
      reason: "blocked",
      transient: false,
    });
  });
});

describe("trustpilot search matching", () => {
  const wanted = { name: "Blue Door Cafe", street: "1 Market St", zip: "94105" };

  it("reads the search page's businesses, in both list forms", async () => {
    const candidates = await parseSearchPage(await serve("/search?query=Blue%20Door%20Cafe"));
    expect(candidates.map((c) => c.identifyingName)).toEqual(SEARCH_RESULTS.map((u) => u.identifyingName));
    expect(candidates[3]).toEqual({
      identifyingName: "www.lookup-bluedoor.com",
      displayName: "Blue Door Café",
      address: "1 Market Street, Suite 2",
      city: "San Francisco",
      zipCode: "94105",
    });
    const wrapped = `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps: { businessUnits: { businesses: SEARCH_RESULTS.slice(0, 1), totalPages: 1 } } } })}</script>`;
    expect((await parseSearchPage(wrapped)).map((c) => c.identifyingName)).toEqual([
      "bluedoorcafe-oakland.com",
    ]);
    const changed = await scrapeError(
      parseSearchPage(
        `<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"results":[]}}}</script>`,
      ),
    );
    expect(changed).toMatchObject({
      reason: "publisher_error",
      message: expect.stringContaining("Trustpilot search page: __NEXT_DATA__.props.pageProps.businessUnits"),
    });
  });

  it("picks the business by name, street and postal code among namesakes, neighbours and an address-less namesake", async () => {
    const candidates = await parseSearchPage(await serve("/search?query=Blue%20Door%20Cafe"));
    expect(chooseCandidate(wanted, candidates)?.identifyingName).toBe("www.lookup-bluedoor.com");
    // Without the real one: the namesakes (other town, other postal code, no address) and the neighbour are not enough.
    expect(
      chooseCandidate(
        wanted,
        candidates.filter((c) => c.identifyingName !== "www.lookup-bluedoor.com"),
      ),
    ).toBeNull();
    expect(chooseCandidate({ ...wanted, street: "99 Elm St", zip: "10001" }, candidates)).toBeNull();
  });
});
