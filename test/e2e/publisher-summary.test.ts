/**
 * The publisher's totals end to end (issue 36, point 2): `business.publisher_summary` on a completed
 * retrieve and `publisher_summary` in the task.completed webhook, as the fixture sites show them.
 */
import { describe, expect, it, vi } from "vitest";
import { createAccount, postJson } from "../helpers/api";
import { queuePerTest } from "../helpers/queue";
import { OPTIONS_PLACE } from "../publishers/google-maps/data";
import { REVIEWS as YELP_REVIEWS } from "../publishers/yelp/data";
import { SESSION_COOKIE } from "../publishers/yelp/site";
import { origins, receivedHooks, retrieve, slug, submitScrape } from "./support";

const queue = queuePerTest();

describe("business.publisher_summary", () => {
  it("trustpilot.com: the TrustScore on 1-5, the stated count and the star breakdown; the same in the webhook", async () => {
    const name = slug("hook-summary");
    const { apiKey } = await createAccount();
    const hook = await postJson("/webhooks/create-webhook/", {
      api_key: apiKey,
      webhook: `${origins["status.test"]}/__hook/${name}`,
    });
    expect(hook.status).toBe(201);
    const domain = `multi-${crypto.randomUUID().slice(0, 8)}.com`;
    const task = await submitScrape(
      "trustpilot.com",
      `https://www.trustpilot.com/review/${domain}`,
      {},
      {},
      apiKey,
    );
    await queue().drain();
    const body = await retrieve(task, 1, 100);
    // The fixture page data: trustScore 4.3, ratings {one: 1, two: 1, three: 1, four: 3, five: 4}, ten reviews.
    const summary = {
      rating: 4.3,
      rating_scale: "1-5",
      review_count: 10,
      histogram: { 1: 1, 2: 1, 3: 1, 4: 3, 5: 4 },
    };
    expect(body.business.publisher_summary).toEqual(summary);
    // Beside the spec's business fields, before the file URLs.
    expect(Object.keys(body.business).slice(-3)).toEqual([
      "profile_key",
      "publisher_summary",
      "reviews_urls",
    ]);
    await vi.waitFor(async () => expect((await receivedHooks(name)).length).toBeGreaterThanOrEqual(2), {
      timeout: 10_000,
      interval: 50,
    });
    const completed = (await receivedHooks(name))
      .map((h) => JSON.parse(h.body) as Record<string, unknown>)
      .find((b) => b.event === "task.completed");
    expect(completed?.publisher_summary).toEqual(summary);
  });

  it("maps.google.com: the place's average rating with its count, no breakdown", async () => {
    const profile = `https://www.google.com/maps/place/Options+Test+Roastery/data=!4m6!3m5!1s${OPTIONS_PLACE.featureId}!8m2!3d37.8!4d-122.4`;
    const task = await submitScrape("maps.google.com", profile, { options: { max_reviews: 1 } });
    await queue().drain();
    expect((await retrieve(task, 1, 10)).business.publisher_summary).toEqual({
      rating: 4.4,
      rating_scale: "1-5",
      review_count: 150,
      histogram: null,
    });
  });

  it("yelp.com: only the count the feed states; the rest null", async () => {
    const persona = {
      additional_cookies: {
        login: [{ name: SESSION_COOKIE.name, value: SESSION_COOKIE.value, domain: ".yelp.com" }],
      },
    };
    const task = await submitScrape("yelp.com", `https://www.yelp.com/biz/${slug("sum")}`, {
      persona,
      options: { max_reviews: 1 },
    });
    await queue().drain();
    expect((await retrieve(task, 1, 10)).business.publisher_summary).toEqual({
      rating: null,
      rating_scale: null,
      review_count: YELP_REVIEWS.length,
      histogram: null,
    });
  });

  it("a publisher that shows no totals: null", async () => {
    const task = await submitScrape("multipage.test", `https://multipage.test/biz/${slug("nosum")}`, {
      first_page_only: true,
    });
    await queue().drain();
    const body = await retrieve(task, 1, 10);
    expect(body.coverage.publisher_total).toBeNull();
    expect(body.business.publisher_summary).toBeNull();
  });
});
