import { describe, expect, it, vi } from "vitest";
import { scrapeFailures } from "../../helpers/logs";
import { fixtureRequests, md5Hash, retrieve, submitScrape } from "../../e2e/support";
import { PAGE_ID, REVIEWS, type FbReview } from "./data";
import { failed, queuePerTest } from "../support";

const queue = queuePerTest();

const SESSION = {
  additional_cookies: {
    login: [
      { name: "c_user", value: "100000000000042", domain: ".facebook.com" },
      { name: "xs", value: "42%3Afixture-session", domain: ".facebook.com" },
    ],
  },
};
const NO_SESSION = {
  additional_cookies: { login: [{ name: "c_user", value: "100000000000042", domain: ".facebook.com" }] },
};

/** What retrieve must answer for a fixture review (hash computed here from the rule in docs/architecture.md). */
function expected(review: FbReview, language: string) {
  const reply = review.comments?.find((c) => c.author.id === PAGE_ID);
  const text = review.text ?? "";
  return {
    review_id: review.postId,
    author_name: review.author.name,
    author_id: review.author.id,
    rating: review.recommends ? 5 : 1,
    text,
    url: `https://www.facebook.com/${review.author.id}/posts/${review.postId}`,
    posted_at: review.time * 1000,
    review_hash: md5Hash(reply ? [text, review.author.name, reply.text] : [text, review.author.name]),
    language,
    source_date: new Date(review.time * 1000).toISOString(),
    scraped_at: expect.any(Number),
    ...(reply ? { owner_reply: { text: reply.text, posted_at: reply.time * 1000 } } : {}),
  };
}

async function scrape(
  profileKey: string,
  persona: unknown = SESSION,
  config: { first_page_only?: boolean } = {},
) {
  const task = await submitScrape("facebook.com", profileKey, { persona, ...config });
  const deliveries = await queue().drain();
  return { task, deliveries, body: await retrieve(task, 1, 50) };
}

describe("facebook.com end to end", () => {
  it("collects every recommendation across the tab and two GraphQL pages, newest first", async () => {
    const { task, body } = await scrape("bluedoorcafe");
    expect(body.task_status, JSON.stringify(body)).toBe(200);
    expect(body.business.profile_key).toBe("https://www.facebook.com/bluedoorcafe/reviews");
    const languages = ["en", "en", "und", "en", "fr", "en", "en", "en"];
    expect(body.reviews).toEqual(REVIEWS.map((r, i) => expected(r, languages[i])));
    expect(body.pagination).toMatchObject({ total_reviews: 8, total_pages: 1 });
    // The tab once for the first page, then once per GraphQL page for fresh tokens.
    expect(await fixtureRequests("facebook.com", "/")).toMatchObject({
      "/bluedoorcafe/reviews": 3,
      "/api/graphql/": 2,
    });
    const paged = await retrieve(task, 2, 3);
    expect(paged.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      REVIEWS.slice(3, 6).map((r) => r.postId),
    );
  });

  it("takes a page URL on another Facebook host and reads only the tab with first_page_only", async () => {
    const { body } = await scrape("https://m.facebook.com/bluedoorcafe/?ref=page_internal", SESSION, {
      first_page_only: true,
    });
    expect(body.task_status, JSON.stringify(body)).toBe(200);
    expect(body.business.profile_key).toBe("https://www.facebook.com/bluedoorcafe/reviews");
    expect(body.reviews).toEqual(REVIEWS.slice(0, 3).map((r, i) => expected(r, ["en", "en", "und"][i])));
  });

  it("completes with zero reviews for a page that has none", async () => {
    const { body } = await scrape("https://www.facebook.com/emptycafe");
    expect(body.task_status, JSON.stringify(body)).toBe(200);
    expect(body.reviews).toEqual([]);
  });

  it.each([
    ["without the session cookie, the login form", "bluedoorcafe", NO_SESSION, "login_required"],
    ["a checkpoint page", "checkpointcafe", SESSION, "blocked"],
    ["a captcha page", "captchacafe", SESSION, "blocked"],
    ["a page that does not exist", "nosuchcafe", SESSION, "profile_not_found"],
  ])("fails on %s with %s", async (_title, page, persona, reason) => {
    const { body } = await scrape(page, persona);
    expect(body.response_message).toEqual(failed(reason));
  });

  it("keeps page 1 and completes incomplete when the session expires on the GraphQL page (login_required)", async () => {
    const { body } = await scrape("expiredcafe", SESSION);
    expect(body.task_status).toBe(200);
    expect(body.reviews.length).toBeGreaterThan(0);
    expect(body.coverage).toMatchObject({
      complete: false,
      stop_reason: expect.stringMatching(/^login_required: /),
    });
  });

  it("fails a tab whose structure changed with publisher_error and logs what was missing", async () => {
    const warn = vi.spyOn(console, "warn");
    const { task, body } = await scrape("changedcafe");
    expect(body.response_message).toEqual(failed("publisher_error"));
    expect(scrapeFailures(warn, task.taskId)).toContainEqual(
      expect.objectContaining({
        publisher: "facebook.com",
        reason: "publisher_error",
        detail: expect.stringMatching(/ratings_list_feed_units\.reviews_feed/),
      }),
    );
  });
});
