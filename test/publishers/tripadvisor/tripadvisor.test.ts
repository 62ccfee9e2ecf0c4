/**
 * tripadvisor.com end to end: submit through the Worker, the real queue consumer, the fixture site
 * (test/publishers/tripadvisor/site.ts) reached through PUBLISHER_ORIGINS, retrieve.
 */
import { describe, expect, it, vi } from "vitest";
import { failureDetails } from "../../helpers/logs";
import { business, postJson, submitBody, createAccount } from "../../helpers/api";
import { PRODUCERS } from "../../helpers/queue";
import { fixtureCookies, fixtureRequests, md5Hash, retrieve, submitScrape } from "../../e2e/support";
import { LOCATIONS, locationPath, type FixtureTaReview } from "./data";
import { ISSUED_TAUNIQUE } from "./site";
import { failed, queuePerTest } from "../support";

const queue = queuePerTest();

const location = (id: number) => LOCATIONS.find((l) => l.locationId === id)!;
const profileUrl = (id: number, host = "www.tripadvisor.com") =>
  `https://${host}${locationPath(location(id))}`;
const day = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** The API review a fixture review must become, written out from the fixture's fields. */
function expected(review: FixtureTaReview, host = "www.tripadvisor.com") {
  const author = review.userProfile.displayName;
  const reply = review.mgmtResponse;
  return {
    review_id: String(review.id),
    author_name: author,
    author_id: review.userProfile.id,
    rating: review.rating,
    text: review.text,
    url: `https://${host}${review.reviewDetailPageWrapper.reviewDetailPageRoute.url}`,
    posted_at: day(review.publishedDate),
    review_hash: md5Hash(reply ? [review.text, author, reply.text] : [review.text, author]),
    language: review.originalLanguage,
    source_date: review.publishedDate,
    scraped_at: expect.any(Number),
    // Tripadvisor states the month of stay: the first day of that month.
    ...(review.tripInfo ? { visited_at: day(`${review.tripInfo.stayDate.slice(0, 7)}-01`) } : {}),
    // The reviewer's title and helpful votes (issue 36: title, likes; never hashed).
    title: review.title,
    likes: review.helpfulVotes,
    ...(reply ? { owner_reply: { text: reply.text, posted_at: day(reply.publishedDate) } } : {}),
  };
}

/**
 * A review read from a `-or<N>-` page: what its card shows. The card has no reviewer id (the profile
 * link stands for it), no language tag (detected from the text), no month of stay and no reply.
 */
function expectedCard(review: FixtureTaReview, host = "www.tripadvisor.com") {
  const author = review.userProfile.displayName;
  const written = new Date(`${review.publishedDate}T00:00:00Z`).toLocaleDateString("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
  return {
    review_id: String(review.id),
    author_name: author,
    author_id: `https://${host}/Profile/${review.userProfile.username}`,
    rating: review.rating,
    text: review.text,
    url: `https://${host}${review.reviewDetailPageWrapper.reviewDetailPageRoute.url}`,
    posted_at: day(review.publishedDate),
    review_hash: md5Hash([review.text, author]),
    language: "en",
    source_date: written,
    scraped_at: expect.any(Number),
    // The card's review-title (issue 36: title).
    title: review.title,
  };
}

/** How often each of the hotel's review pages at 20, 30 and 40 was asked for. */
async function reviewPageRequests(): Promise<number[]> {
  const counts = await fixtureRequests("tripadvisor.com", "/Hotel_Review-g60713-d1001-Reviews-or");
  return [20, 30, 40].map(
    (offset) => counts[locationPath(location(1001)).replace("-Reviews-", `-Reviews-or${offset}-`)] ?? 0,
  );
}

async function graphqlRequests(): Promise<number> {
  return (await fixtureRequests("tripadvisor.com", "/data/graphql/ids"))["/data/graphql/ids"] ?? 0;
}

describe("tripadvisor.com scraping", () => {
  it("walks past the newest 20 of the review list through the -or<N>- review pages: all 45, with ids, texts, authors, dates, replies, languages and months of stay", async () => {
    const before = await graphqlRequests();
    const pagesBefore = await reviewPageRequests();
    const task = await submitScrape("tripadvisor.com", profileUrl(1001));
    expect(queue().sent.length).toBe(1);
    await queue().drain();
    expect(
      queue().deliveries.every((d) => d.queue === PRODUCERS.SCRAPE_TRIPADVISOR && d.outcome === "ack"),
    ).toBe(true);
    // One review list request (it ignores its offset and stops at 20), then the pages at 20, 30 and 40.
    expect((await graphqlRequests()) - before).toBe(1);
    const pagesAfter = await reviewPageRequests();
    expect(pagesAfter.map((n, i) => n - pagesBefore[i])).toEqual([1, 1, 1]);

    const first = await retrieve(task, 1, 20);
    expect(first.task_status).toBe(200);
    expect(first.business.profile_key).toBe(profileUrl(1001));
    expect(first.pagination).toEqual({
      total_reviews: 45,
      page: 1,
      page_size: 20,
      total_pages: 3,
      has_next: true,
      has_previous: false,
    });
    const all = [
      ...first.reviews,
      ...(await retrieve(task, 2, 20)).reviews,
      ...(await retrieve(task, 3, 20)).reviews,
    ];
    const reviews = location(1001).reviews;
    // Newest first, exactly the site's reviews: 20 from the review list, 25 from the review pages.
    expect(all).toHaveLength(45);
    expect(all).toEqual(reviews.map((r, i) => (i < 20 ? expected(r) : expectedCard(r))));
    expect(all.slice(0, 3).map((r) => r.visited_at)).toEqual([
      Date.UTC(2026, 10, 1),
      Date.UTC(2026, 10, 1),
      undefined,
    ]);
    expect(all[2]).not.toHaveProperty("visited_at");

    // The ones that matter, written out.
    expect(all[0]).toEqual({
      review_id: "945000045",
      author_name: "Dana K",
      author_id: "UID945000045",
      rating: 5,
      text: "Lovely rooms and a quiet courtyard.\nWe will be back.",
      url: "https://www.tripadvisor.com/ShowUserReviews-g60713-d1001-r945000045-Blue_Door_Hotel-San_Francisco_California.html",
      posted_at: Date.UTC(2026, 10, 20),
      review_hash: md5Hash([
        "Lovely rooms and a quiet courtyard.\nWe will be back.",
        "Dana K",
        "Thank you Dana, see you again soon.",
      ]),
      language: "en",
      source_date: "2026-11-20",
      scraped_at: expect.any(Number),
      visited_at: Date.UTC(2026, 10, 1),
      title: "Quiet gem",
      likes: 0,
      owner_reply: { text: "Thank you Dana, see you again soon.", posted_at: Date.UTC(2026, 10, 21) },
    });
    // Written in German: the original words and language, not the site's English translation.
    expect(all[1]).toMatchObject({
      review_id: "945000044",
      text: "Sehr freundliches Personal und ein gutes Frühstück.",
      language: "de",
      review_hash: md5Hash(["Sehr freundliches Personal und ein gutes Frühstück.", "Jonas M"]),
    });
    expect(all[1]).not.toHaveProperty("owner_reply");
    // Stars without words.
    expect(all[2]).toMatchObject({
      review_id: "945000043",
      text: "",
      rating: 3,
      review_hash: md5Hash(["", "Sam P"]),
    });
    // The last page holds the five oldest.
    expect((await retrieve(task, 3, 20)).reviews.map((r: { review_id: string }) => r.review_id)).toEqual([
      "945000005",
      "945000004",
      "945000003",
      "945000002",
      "945000001",
    ]);
  });

  it("stops at the first page holding a review the client already has", async () => {
    const known = expected(location(1001).reviews[3]).review_hash;
    const before = await graphqlRequests();
    const task = await submitScrape("tripadvisor.com", profileUrl(1001), { last_review_hashes: [known] });
    await queue().drain();
    expect((await graphqlRequests()) - before).toBe(1);
    // The page with the known review is the last one read; the known review itself is left out.
    const body = await retrieve(task);
    const firstPage = location(1001).reviews.slice(0, 20);
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      firstPage.filter((_, i) => i !== 3).map((r) => String(r.id)),
    );
  });

  it("completes a restaurant without reviews with zero reviews", async () => {
    const task = await submitScrape("tripadvisor.com", profileUrl(1002));
    await queue().drain();
    const body = await retrieve(task);
    expect(body.task_status).toBe(200);
    expect(body.reviews).toEqual([]);
    expect(body.pagination).toMatchObject({ total_reviews: 0, total_pages: 0 });
  });

  it("scrapes an attraction on a country site, with each review's own language and links on that site", async () => {
    const task = await submitScrape("www.TripAdvisor.de", profileUrl(1003, "www.tripadvisor.de"));
    expect(task.publisher).toBe("www.TripAdvisor.de");
    await queue().drain();
    const body = await retrieve({ ...task, publisher: "tripadvisor.de" });
    expect(body.business).toMatchObject({
      publisher: "tripadvisor.de",
      profile_key: profileUrl(1003, "www.tripadvisor.de"),
    });
    expect(body.reviews).toEqual(location(1003).reviews.map((r) => expected(r, "www.tripadvisor.de")));
    expect(body.reviews.map((r: { language: string }) => r.language)).toEqual(["en", "fr", "de"]);
  });

  it("follows a renamed location's redirect and keeps its canonical address", async () => {
    const task = await submitScrape(
      "tripadvisor.com",
      "https://www.tripadvisor.com/Hotel_Review-g60713-d1001-Reviews-or20-Old_Name_Hotel.html#REVIEWS",
      {
        first_page_only: true,
      },
    );
    await queue().drain();
    const body = await retrieve(task);
    expect(body.business.profile_key).toBe(profileUrl(1001));
    expect(body.reviews).toHaveLength(20);
  });
});

describe("tripadvisor.com cookies", () => {
  it("opens the location page first and sends its cookies, the TAUnique it issued, with the login cookies", async () => {
    const before =
      (await fixtureCookies("tripadvisor.com", "/data/graphql/ids"))["/data/graphql/ids"]?.length ?? 0;
    const login = [{ name: "TASession", value: "V2ID.ABC", domain: ".tripadvisor.com" }];
    const task = await submitScrape("tripadvisor.com", profileUrl(1003), {
      first_page_only: true,
      persona: { additional_cookies: { login } },
    });
    await queue().drain();
    expect((await retrieve(task)).task_status).toBe(200);
    const cookies = (await fixtureCookies("tripadvisor.com", "/data/graphql/ids"))["/data/graphql/ids"].slice(
      before,
    );
    expect(cookies).toHaveLength(1);
    // The page's own TAUnique from the client's jar (the fixture answers PersistedQueryNotFound without it).
    expect(cookies[0]).toBe(`TASession=V2ID.ABC; TAUnique=${ISSUED_TAUNIQUE}`);
  });
});

describe("tripadvisor.com lookup", () => {
  it("finds the business with the site's search when profile_key is empty, among decoys", async () => {
    const task = await submitScrape("tripadvisor.com", "");
    await queue().drain();
    const body = await retrieve(task);
    expect(body.business.profile_key).toBe(profileUrl(1010));
    expect(body.reviews).toEqual(location(1010).reviews.map((r) => expected(r)));
  });

  it("fails as profile_not_found when no listing has the name and the address", async () => {
    const warn = vi.spyOn(console, "warn");
    const task = await submitScrape(
      "tripadvisor.com",
      "",
      {},
      { business: { ...business(), name: "Green Lantern Bistro" } },
    );
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed("profile_not_found"));
    expect(failureDetails(warn, task.taskId)).toContain("No Tripadvisor listing among");
  });
});

describe("tripadvisor.com failures", () => {
  async function failure(id: number) {
    const warn = vi.spyOn(console, "warn");
    const url =
      id === 9999
        ? "https://www.tripadvisor.com/Hotel_Review-g60713-d9999-Reviews-Nowhere_Inn-San_Francisco_California.html"
        : profileUrl(id);
    const task = await submitScrape("tripadvisor.com", url);
    await queue().drain();
    return { body: await retrieve(task), log: failureDetails(warn, task.taskId) };
  }

  it("fails a DataDome captcha page served with 200 as blocked", async () => {
    const { body, log } = await failure(1004);
    expect(body.response_message).toEqual(failed("blocked"));
    expect(log).toContain("DataDome captcha");
  });

  it("fails a review list refused by DataDome (403) as blocked", async () => {
    expect((await failure(1005)).body.response_message).toEqual(failed("blocked"));
  });

  it("fails a changed answer as publisher_error and logs what was missing", async () => {
    const { body, log } = await failure(1006);
    expect(body.response_message).toEqual(failed("publisher_error"));
    expect(log).toContain("no data.ReviewsProxy_getReviewListPageForLocation[0]");
  });

  it("fails a review list answering PersistedQueryNotFound (a distrusted session) as blocked on its last route", async () => {
    const { body, log } = await failure(1007);
    expect(body.response_message).toEqual(failed("blocked"));
    expect(log).toContain("PersistedQueryNotFound for query 3d5e9aff1e00e113");
  });

  it("fails a review without a rating as publisher_error naming the field", async () => {
    const { body, log } = await failure(1008);
    expect(body.response_message).toEqual(failed("publisher_error"));
    expect(log).toContain("reviews.0.rating");
  });

  it("fails a review list that counts reviews but lists none as publisher_error", async () => {
    const { body, log } = await failure(1009);
    expect(body.response_message).toEqual(failed("publisher_error"));
    expect(log).toContain("no reviews although totalCount is 3");
  });

  it("never completes silently when a -or<N>- page repeats the reviews already read (its offset ignored): coverage says the walk is incomplete and why", async () => {
    // A failure after page 1 keeps the pages read (docs/api.md, "Failures after page 1").
    const { body, log } = await failure(1011);
    const message =
      "Tripadvisor review page -or20- repeats the reviews of the page before: the offset was not honoured";
    expect(body.task_status).toBe(200);
    expect(body.coverage).toMatchObject({ complete: false, stop_reason: `publisher_error: ${message}` });
    expect(body.coverage.collected).toBeLessThan(body.coverage.publisher_total);
    expect(log).toContain(message);
  });

  it("fails an unknown location as profile_not_found", async () => {
    const { body } = await failure(9999);
    expect(body.response_message).toEqual(failed("profile_not_found"));
  });
});

describe("tripadvisor.com submit rules", () => {
  async function submitted(publishers: Record<string, unknown>) {
    const { apiKey } = await createAccount();
    return postJson("/submit/request-reviews/", submitBody(apiKey, publishers));
  }
  const config = (profile_key?: string) => ({
    ...(profile_key === undefined ? {} : { profile_key }),
    last_review_hashes: [],
    first_page_only: false,
  });

  it("takes a location URL on any Tripadvisor site, or no profile_key at all", async () => {
    const res = await submitted({
      "tripadvisor.com": config(profileUrl(1003, "www.tripadvisor.de")),
      "tripadvisor.co.uk": config(),
      "tripadvisor.fr": config(""),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.tasks.map((t: { publisher_key: string }) => t.publisher_key)).toEqual([
      "tripadvisor.com",
      "tripadvisor.co.uk",
      "tripadvisor.fr",
    ]);
  });

  it("refuses pages that are no location, other sites and bare ids", async () => {
    const res = await submitted({
      "tripadvisor.com": config(
        "https://www.tripadvisor.com/Tourism-g60713-San_Francisco_California-Vacations.html",
      ),
      "tripadvisor.co.uk": config("https://www.example.com/Hotel_Review-g60713-d1001-Reviews-X.html"),
      "tripadvisor.de": config("d1001"),
    });
    expect(res.status).toBe(400);
    expect(res.body.details.data.publishers).toEqual({
      "tripadvisor.com": { profile_key: ["Enter the URL of a profile on tripadvisor.com."] },
      "tripadvisor.co.uk": { profile_key: ["Enter a URL on tripadvisor.co.uk or one of its subdomains."] },
      "tripadvisor.de": { profile_key: ["Enter a valid URL."] },
    });
  });
});
