import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fiveStarRating } from "../../src/core/reviews/rating";
import { normalizeReview } from "../../src/core/reviews/normalize";
import { extractStructuredData } from "../../src/scraping/extract";
import { MULTIPAGE } from "../fixtures/reviews";
import { failed } from "../helpers/api";
import { QueueDriver } from "../helpers/queue";
import { expectedReview, retrieve, slug, submitScrape, taskRow } from "../e2e/support";

let queue: QueueDriver;
beforeEach(() => {
  queue = new QueueDriver();
});
afterEach(() => queue.restore());

/** Scrapes one hostile.test page through the real pipeline and returns the task's answer. */
async function scrapeHostile(kind: string) {
  const profile = `https://hostile.test/${kind}/${slug(kind)}`;
  const task = await submitScrape("hostile.test", profile);
  const deliveries = await queue.drain();
  return { task, profile, deliveries, body: await retrieve(task) };
}

const good = (profile: string) => MULTIPAGE.slice(0, 2).map((r) => expectedReview(r, profile));

// These would take tens of seconds each before the fix (quadratic backtracking); the limit is the
// suite's 30 s default, nothing tighter: no timing is asserted, only that the work finishes.
describe("page-controlled text never reaches a regex unbounded", () => {
  it("a 100,000-digit ratingValue is no rating, and the rest of the page is kept", async () => {
    const { task, profile, deliveries, body } = await scrapeHostile("rating");
    expect(deliveries.map((d) => d.outcome)).toEqual(["ack"]);
    expect(body.reviews).toEqual(good(profile));
    expect(await taskRow(task.taskId)).toMatchObject({ status: 200, reviews_found: 2 });
  });

  it("a review body of 50,000 unclosed tags is read in one pass", async () => {
    const { profile, deliveries, body } = await scrapeHostile("markup");
    expect(deliveries.map((d) => d.outcome)).toEqual(["ack"]);
    expect(body.reviews.slice(0, 2)).toEqual(good(profile));
    expect(body.reviews[2]).toMatchObject({
      review_id: "https://hostile.test/reviews/bad-1",
      text: "<a".repeat(25_000),
    });
  });

  it("bounds every rating form, a long date and long text (100,000 characters) in the normalizer", () => {
    const long = "9".repeat(100_000);
    expect(fiveStarRating({ value: long })).toBeNull();
    expect(fiveStarRating({ value: `${long} out of 5` })).toBeNull();
    expect(fiveStarRating({ value: "4", best: long })).toBe(4); // a bogus scale is no scale
    expect(fiveStarRating({ value: "4 out of 5" })).toBe(4);
    const scrapedAt = Date.UTC(2024, 6, 1);
    const review = normalizeReview(
      {
        rating: { value: 5 },
        author_name: "x".repeat(100_000),
        text: `${"word ".repeat(20_000)}`,
        date: "1-".repeat(50_000),
        language: "e".repeat(100_000),
      },
      { publisherKey: "example.com", pageUrl: "https://example.com/p", scrapedAt, pageLanguage: null },
    );
    expect(review.author_name).toHaveLength(1_000);
    expect(review.text.length).toBeLessThanOrEqual(50_000);
    expect(review).toMatchObject({ posted_at: scrapedAt, source_date: "" });
  });
});

describe("deeply nested structured data", () => {
  it("skips a JSON-LD block nested 200,000 deep and keeps the page's other blocks, without a retry", async () => {
    const { task, profile, deliveries, body } = await scrapeHostile("deep");
    expect(deliveries.map((d) => d.outcome)).toEqual(["ack"]);
    expect(body.reviews).toEqual(good(profile));
    expect(await taskRow(task.taskId)).toMatchObject({ status: 200, reason: null });
  });

  it("ignores microdata items nested past the depth limit", async () => {
    const depth = 5_000;
    const html = `<html><body><div itemscope itemtype="https://schema.org/Review"><span itemprop="reviewBody">Fine</span><span itemprop="author">Ann</span><div itemprop="reviewRating" itemscope itemtype="https://schema.org/Rating"><meta itemprop="ratingValue" content="4"></div></div>${'<i itemscope itemprop="x">'.repeat(depth)}${"</i>".repeat(depth)}</body></html>`;
    const page = await extractStructuredData(html, "https://example.com/p");
    expect(page.reviews).toEqual([{ author_name: "Ann", rating: { value: "4" }, text: "Fine" }]);
  });
});

describe("2 MB of unclosed tags (issue 23)", () => {
  it("unclosed <script openings: the task completes with the page's reviews in one delivery", async () => {
    const { task, profile, deliveries, body } = await scrapeHostile("unclosed-scripts");
    expect(deliveries.map((d) => d.outcome)).toEqual(["ack"]);
    expect(body.reviews).toEqual(good(profile));
    expect(await taskRow(task.taskId)).toMatchObject({ status: 200 });
  });

  it("tens of thousands of review items left open: publisher_error at once (not internal, no retry)", async () => {
    const { task, deliveries, body } = await scrapeHostile("unclosed-items");
    expect(deliveries.map((d) => d.outcome)).toEqual(["ack"]);
    expect(body.response_message).toEqual(failed("publisher_error"));
    expect(await taskRow(task.taskId)).toMatchObject({ status: 500, reason: "publisher_error" });
  });
});

describe("review links", () => {
  it("keep only absolute http(s) URLs: url falls back to the page, author_id to the profile URL or null", async () => {
    const { profile, body } = await scrapeHostile("links");
    const byId = Object.fromEntries(body.reviews.map((r: { review_id: string }) => [r.review_id, r]));
    expect(byId["https://hostile.test/reviews/bad-1"]).toMatchObject({ url: profile, author_id: null });
    expect(byId["https://hostile.test/reviews/bad-2"]).toMatchObject({
      url: profile,
      author_id: "https://hostile.test/users/2",
    });
    expect(byId["https://hostile.test/reviews/bad-3"]).toMatchObject({
      url: "https://hostile.test/reviews/3",
      author_id: "user-3",
    });
    expect(byId["https://hostile.test/reviews/bad-4"]).toMatchObject({
      url: "https://hostile.test/reviews/4",
      author_id: null,
    });
  });
});
