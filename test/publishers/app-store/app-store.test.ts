/** App Store: profile_key rules, the customer-reviews feed, and end to end through the Worker and scrape-app-store. */
import { describe, expect, it } from "vitest";
import { feedUrl, parseFeedPage } from "../../../src/publishers/app-store/feed";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureJson, parseContext } from "../walk-support";
import fixture, { entriesOf } from "./site";

const US_PAGE = "https://apps.apple.com/us/app/id1001";
const answer = (key: string, page: number) => fixtureJson(fixture, feedUrl(key, { page, token: null }));
const ctx = (key: string, page: number, pageUrl = US_PAGE) =>
  parseContext(key, pageUrl, { page, token: null });

describe("App Store customer-reviews feed", () => {
  it("asks the storefront's feed for a page of the newest reviews", () => {
    expect(feedUrl("gb:1002", { page: 3, token: null })).toBe(
      "https://itunes.apple.com/gb/rss/customerreviews/page=3/id=1002/sortby=mostrecent/json",
    );
  });

  it("reads a page: ids, authors, ratings, title and content as text, the updated instant, the next page from the feed's last link", () => {
    const page = parseFeedPage(answer("us:1001", 1), ctx("us:1001", 1));
    expect(page.next).toEqual({ page: 2, token: null });
    expect(page.limitedView).toBeNull();
    expect(page.reviews).toHaveLength(50);
    expect(page.reviews[0]).toEqual({
      id: "11001001000",
      author_name: "user0",
      author_url: "https://itunes.apple.com/us/reviews/id900000",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Title 0\n\nReview 0 of app 1001.",
      url: US_PAGE,
      date: "2026-11-20T14:00:00-07:00",
      title: "Title 0",
    });
    expect(page.reviews[1]).toEqual({
      id: "11001000999",
      author_name: "sunny_dev",
      author_url: "https://itunes.apple.com/us/reviews/id900001",
      rating: { value: 4, best: 5, worst: 1 },
      text: "Does what it says\n\nSyncs fast.\nWidgets could be bigger.",
      url: US_PAGE,
      date: "2026-11-20T12:00:00-07:00",
      title: "Does what it says",
    });
    expect(parseFeedPage(answer("us:1001", 3), ctx("us:1001", 3)).next).toBeNull();
  });

  it("a feed that reaches page 10 with reviews on it says the storefront has more than it shows", () => {
    const gb = "https://apps.apple.com/gb/app/id1002";
    expect(parseFeedPage(answer("gb:1002", 9), ctx("gb:1002", 9, gb))).toMatchObject({
      next: { page: 10, token: null },
      limitedView: null,
    });
    expect(parseFeedPage(answer("gb:1002", 10), ctx("gb:1002", 10, gb))).toMatchObject({
      next: null,
      limitedView: "The App Store's review feed stops after 10 pages (about 500 reviews) per storefront",
    });
  });

  it("no reviews, one review as an object, and an empty page in the middle of the feed (retried, not the end)", () => {
    expect(parseFeedPage(answer("us:1004", 1), ctx("us:1004", 1))).toEqual({
      reviews: [],
      next: null,
      limitedView: null,
    });
    expect(parseFeedPage(answer("us:1005", 1), ctx("us:1005", 1)).reviews.map((r) => r.id)).toEqual([
      "11001005000",
    ]);
    const midFeed = scrapeError(() => parseFeedPage(answer("us:1006", 2), ctx("us:1006", 2)));
    expect([midFeed.reason, midFeed.transient, midFeed.message]).toEqual([
      "publisher_error",
      true,
      "App Store reviews: page 2 came back empty although the feed has 3 pages",
    ]);
  });

  it("a feed without a last link goes on while its pages have reviews, and ends at an empty one", () => {
    const withoutLinks = (page: number) => {
      const feed = answer("us:1001", page) as { feed: Record<string, unknown> };
      return { feed: { ...feed.feed, link: undefined } };
    };
    expect(parseFeedPage(withoutLinks(3), ctx("us:1001", 3)).next).toEqual({ page: 4, token: null });
    expect(parseFeedPage(withoutLinks(4), ctx("us:1001", 4))).toEqual({
      reviews: [],
      next: null,
      limitedView: null,
    });
  });

  it("an answer without a feed is publisher_error; hostile answers never end in a TypeError", () => {
    expect(scrapeError(() => parseFeedPage({ results: [] }, ctx("us:1001", 1))).message).toContain(
      "unexpected answer at feed",
    );
    expectHostileInputHandled(parseFeedPage);
    expectHostileInputHandled(parseFeedPage, (entry) => ({ feed: { entry } }), { wrapsItems: true });
  });
});

describe("App Store end to end", () => {
  const queue = queuePerTest();

  it("walks the storefront's feed newest first over three pages and returns each review exactly", async () => {
    const task = await submitScrape("apps.apple.com", "https://apps.apple.com/us/app/acme-notes/id1001");
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-app-store", "ack"]]);
    // The fixture site's counts are shared with the capture test's app: only this app's pages count.
    const requested = await fixtureRequests("itunes.apple.com", "/us/rss/customerreviews/");
    expect(
      Object.fromEntries(Object.entries(requested).filter(([path]) => path.includes("/id=1001/"))),
    ).toEqual(
      Object.fromEntries(
        [1, 2, 3].map((page) => [`/us/rss/customerreviews/page=${page}/id=1001/sortby=mostrecent/json`, 1]),
      ),
    );
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(US_PAGE);
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(entriesOf("1001").map((e) => e.id.label));
    expect(reviews[1]).toMatchObject({
      review_id: "11001000999",
      author_name: "sunny_dev",
      rating: 4,
      text: "Does what it says\n\nSyncs fast.\nWidgets could be bigger.",
      url: US_PAGE,
      posted_at: Date.UTC(2026, 10, 20, 19, 0, 0),
    });
  });

  it("a storefront with more than the feed shows stops after page 10 with 500 reviews", async () => {
    const task = await submitScrape("itunes.apple.com", "https://apps.apple.com/gb/app/acme-notes/id1002");
    await queue().drain();
    expect(Object.keys(await fixtureRequests("itunes.apple.com", "/gb/rss/customerreviews/"))).toHaveLength(
      10,
    );
    const body = await retrieve(task, 1, 1000);
    expect(body.task_status).toBe(200);
    expect(body.reviews).toHaveLength(500);
  });
});
