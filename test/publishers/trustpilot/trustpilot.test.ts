/**
 * trustpilot.com end to end: submit through the Worker, the real queue consumer on scrape-trustpilot,
 * the fixture site (./site.ts) behind PUBLISHER_ORIGINS, retrieve through the Worker.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { failureDetails, logLines, scrapeFailures } from "../../helpers/logs";
import { business, createAccount, postJson, submitBody } from "../../helpers/api";
import { PRODUCERS, QueueDriver } from "../../helpers/queue";
import { fixtureRequests, md5Hash, retrieve, slug, submitScrape, taskRow } from "../../e2e/support";
import { REVIEWS, type FixtureTrustpilotReview } from "./data";
import { failed } from "../support";

let queue: QueueDriver;
let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  queue = new QueueDriver();
  warn = vi.spyOn(console, "warn");
});
afterEach(() => {
  queue.restore();
  warn.mockRestore();
});

const LIST = "?languages=all&sort=recency";

/** The API review a fixture review becomes (review_hash from node:crypto, as docs/architecture.md defines it). */
function apiReview(review: FixtureTrustpilotReview) {
  const hashed = review.reply
    ? [review.text, review.consumer.displayName, review.reply.message]
    : [review.text, review.consumer.displayName];
  return {
    review_id: review.id,
    author_name: review.consumer.displayName,
    author_id: review.consumer.id,
    rating: review.rating,
    text: review.text,
    url: `https://www.trustpilot.com/reviews/${review.id}`,
    posted_at: Date.parse(review.dates.publishedDate),
    review_hash: md5Hash(hashed),
    language: review.language,
    source_date: review.dates.publishedDate,
    scraped_at: expect.any(Number),
    // The reviewer's title and the likes (issue 36; never hashed).
    title: review.title,
    likes: review.likes,
    ...(review.reply
      ? { owner_reply: { text: review.reply.message, posted_at: Date.parse(review.reply.publishedDate) } }
      : {}),
  };
}

describe("trustpilot.com, end to end", () => {
  it("walks three pages of every language, newest first, on its own queue, from a country-site URL", async () => {
    const domain = `${slug("multi")}.com`;
    const task = await submitScrape("trustpilot.com", `https://uk.trustpilot.com/review/${domain}`);
    const deliveries = await queue.drain();
    expect(queue.sentTo.map((m) => m.queue)).toEqual([PRODUCERS.SCRAPE_TRUSTPILOT]);
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-trustpilot", "ack"]]);
    const path = `/review/${domain}`;
    expect(await fixtureRequests("trustpilot.com", path)).toEqual({
      [`${path}${LIST}`]: 1,
      [`${path}${LIST}&page=2`]: 1,
      [`${path}${LIST}&page=3`]: 1,
    });

    const body = await retrieve(task);
    expect(body.task_status).toBe(200);
    expect(body.business).toMatchObject({
      publisher: "trustpilot.com",
      profile_key: `https://www.trustpilot.com/review/${domain}`,
    });
    expect(body.business.reviews_urls).toHaveLength(3);
    expect(body.reviews).toEqual(REVIEWS.map(apiReview));
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).not.toContain(
      "6650a1f2000000000000ffff",
    );
    expect(body.pagination).toEqual({
      total_reviews: 10,
      page: 1,
      page_size: 50,
      total_pages: 1,
      has_next: false,
      has_previous: false,
    });
  });

  it("keeps the owner's reply (in the hash too), the reviewer's own language and untranslated text, and a review without text", async () => {
    const task = await submitScrape("trustpilot.com", `${slug("multi")}.com`);
    await queue.drain();
    const { reviews } = await retrieve(task);
    const byId = (id: string) => reviews.find((r: { review_id: string }) => r.review_id === id);
    expect(byId("6650a1f2000000000000000c")).toEqual({
      review_id: "6650a1f2000000000000000c",
      author_name: "Ron P.",
      author_id: "c050a1f2000000000000000c",
      rating: 2,
      text: "Waited forty minutes and the eggs came cold.\n\nNot what I expected.",
      url: "https://www.trustpilot.com/reviews/6650a1f2000000000000000c",
      posted_at: Date.UTC(2026, 9, 20, 12, 0, 0),
      review_hash: md5Hash([
        "Waited forty minutes and the eggs came cold.\n\nNot what I expected.",
        "Ron P.",
        "Sorry, Ron. We had two cooks out that morning; please ask for Sam next time.",
      ]),
      language: "en",
      source_date: "2026-10-20T12:00:00.000Z",
      scraped_at: expect.any(Number),
      title: "Cold food",
      likes: 0,
      owner_reply: {
        text: "Sorry, Ron. We had two cooks out that morning; please ask for Sam next time.",
        posted_at: Date.UTC(2026, 9, 21, 8, 30, 0),
      },
    });
    // A Danish review on an English-language page: kept as written, tagged with its own language.
    expect(byId("6650a1f2000000000000000b")).toMatchObject({
      text: "Hyggelig café med god kaffe og venligt personale. Vi kommer igen næste gang vi er i byen.",
      language: "da",
      posted_at: Date.UTC(2026, 9, 28, 9, 15, 0),
      review_hash: md5Hash([
        "Hyggelig café med god kaffe og venligt personale. Vi kommer igen næste gang vi er i byen.",
        "Mikkel Sørensen",
      ]),
    });
    expect(byId("6650a1f2000000000000000f")).toMatchObject({ language: "de", author_name: "Lena Hoffmann" });
    // No text: the title ("Rated 3 stars") is not made the body.
    expect(byId("6650a1f2000000000000000e")).toMatchObject({
      text: "",
      author_name: "J. Osei",
      rating: 3,
      review_hash: md5Hash(["", "J. Osei"]),
    });
    expect(byId("6650a1f2000000000000000a")).not.toHaveProperty("owner_reply");
  });

  it("follows the profile's redirect to its canonical name and stores that profile", async () => {
    const domain = `${slug("moved")}.com`;
    const task = await submitScrape("trustpilot.com", `https://www.trustpilot.com/review/${domain}`);
    await queue.drain();
    const body = await retrieve(task);
    expect(body.business.profile_key).toBe(`https://www.trustpilot.com/review/www.${domain}`);
    expect(body.reviews).toHaveLength(10);
    expect(await fixtureRequests("trustpilot.com", `/review/www.${domain}`)).toEqual({
      [`/review/www.${domain}${LIST}`]: 1,
      [`/review/www.${domain}${LIST}&page=2`]: 1,
      [`/review/www.${domain}${LIST}&page=3`]: 1,
    });
  });

  it("stops at the first page holding a known review_hash (the hashes clients already store keep working)", async () => {
    const domain = `${slug("multi")}.com`;
    const known = REVIEWS[5]; // on page 2
    const task = await submitScrape("trustpilot.com", domain, {
      last_review_hashes: [md5Hash([known.text, known.consumer.displayName])],
    });
    await queue.drain();
    const body = await retrieve(task);
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      REVIEWS.slice(0, 5)
        .concat(REVIEWS.slice(6, 8))
        .map((r) => r.id),
    );
    expect(Object.keys(await fixtureRequests("trustpilot.com", `/review/${domain}`))).toEqual([
      `/review/${domain}${LIST}`,
      `/review/${domain}${LIST}&page=2`,
    ]);
  });

  it("completes a profile without reviews with none", async () => {
    const task = await submitScrape("trustpilot.com", `${slug("empty")}.com`);
    await queue.drain();
    const body = await retrieve(task);
    expect(body.task_status).toBe(200);
    expect(body.reviews).toEqual([]);
    expect(body.pagination).toMatchObject({ total_reviews: 0, total_pages: 0 });
  });

  it("keeps the pages read when Trustpilot asks to sign in for a deeper page, and says so in the log", async () => {
    const domain = `${slug("walled")}.com`;
    const task = await submitScrape("trustpilot.com", domain);
    await queue.drain();
    const body = await retrieve(task);
    expect(body.task_status).toBe(200);
    expect(body.reviews).toEqual(REVIEWS.slice(0, 8).map(apiReview));
    expect(logLines(warn)).toContainEqual({
      level: "warn",
      message: "trustpilot asks to sign in; the walk ends early",
      profile_url: `https://www.trustpilot.com/review/${domain}`,
      page: 3,
      last_page_read: 2,
    });
    expect(
      await fixtureRequests(
        "trustpilot.com",
        `/users/connect?redirect=${encodeURIComponent(`/review/${domain}${LIST}&page=3`)}`,
      ),
    ).toEqual({
      [`/users/connect?redirect=${encodeURIComponent(`/review/${domain}${LIST}&page=3`)}`]: 1,
    });
  });
});

describe("trustpilot.com past the signed-out page cap", () => {
  const ids = (body: { reviews: { review_id: string }[] }) => body.reviews.map((r) => r.review_id);

  it("ends a 300-review list at the cap as a limited view with the 200 read, when no star list can reach further", async () => {
    const domain = `${slug("capped")}.com`;
    const task = await submitScrape("trustpilot.com", domain);
    const deliveries = await queue.drain();
    expect(deliveries.every((d) => d.outcome === "ack")).toBe(true);
    const body = await retrieve(task, 1, 500);
    expect(body.task_status).toBe(200);
    expect(body.reviews).toHaveLength(200);
    expect(new Set(ids(body)).size).toBe(200);
    expect(body.coverage).toEqual({
      publisher_total: 300,
      collected: 200,
      complete: false,
      stop_reason: expect.stringMatching(
        /^limited_view: anonymous page cap: Trustpilot shows a signed-out visitor only the first 10 pages of a list; .*the 5-star list goes further/,
      ),
    });
    // Pages 1–11 (11 is the empty page that shows the cap); the five-star list would only repeat them.
    const path = `/review/${domain}`;
    expect(Object.keys(await fixtureRequests("trustpilot.com", path))).toEqual([
      `${path}${LIST}`,
      ...Array.from({ length: 10 }, (_, i) => `${path}${LIST}&page=${i + 2}`),
    ]);
  });

  it("reads past the cap with one list per star rating and reaches every review when each is within ten pages", async () => {
    const domain = `${slug("starred")}.com`;
    const task = await submitScrape("trustpilot.com", domain);
    await queue.drain();
    const body = await retrieve(task, 1, 500);
    expect(body.task_status).toBe(200);
    expect(body.reviews).toHaveLength(300);
    expect(new Set(ids(body)).size).toBe(300);
    expect(body.coverage).toEqual({
      publisher_total: 300,
      collected: 300,
      complete: true,
      stop_reason: null,
    });
    // Each star list starts at its first page the newest-first list did not cover (40 of 60 read: page 3).
    const path = `/review/${domain}`;
    const requested = Object.keys(await fixtureRequests("trustpilot.com", path));
    expect(requested.filter((u) => u.includes("stars="))).toEqual(
      [5, 4, 3, 2, 1].map((stars) => `${path}${LIST}&stars=${stars}&page=3`),
    );
  });

  it("says which star list is itself longer than the cap, keeping all it could read", async () => {
    const domain = `${slug("heavy")}.com`;
    const task = await submitScrape("trustpilot.com", domain);
    await queue.drain();
    const body = await retrieve(task, 1, 500);
    // 200 newest, then five-star reviews 151–200 of its list (pages 8–10) and one-star 51–75 (pages 3–4).
    expect(body.reviews).toHaveLength(275);
    expect(new Set(ids(body)).size).toBe(275);
    expect(body.coverage).toMatchObject({
      publisher_total: 300,
      collected: 275,
      complete: false,
      stop_reason: expect.stringContaining("the 5-star list goes further"),
    });
    const path = `/review/${domain}`;
    const requested = Object.keys(await fixtureRequests("trustpilot.com", path));
    expect(requested.filter((u) => u.includes("stars="))).toEqual([
      `${path}${LIST}&stars=5&page=8`,
      `${path}${LIST}&stars=5&page=9`,
      `${path}${LIST}&stars=5&page=10`,
      `${path}${LIST}&stars=1&page=3`,
      `${path}${LIST}&stars=1&page=4`,
    ]);
  });

  it("walks every page of the list with login cookies", async () => {
    const domain = `${slug("capped")}.com`;
    const task = await submitScrape("trustpilot.com", domain, {
      persona: {
        additional_cookies: { login: [{ name: "jwt", value: "signed-in", domain: ".trustpilot.com" }] },
      },
    });
    await queue.drain();
    const body = await retrieve(task, 1, 500);
    expect(body.reviews).toHaveLength(300);
    expect(body.coverage).toEqual({
      publisher_total: 300,
      collected: 300,
      complete: true,
      stop_reason: null,
    });
    const path = `/review/${domain}`;
    expect(Object.keys(await fixtureRequests("trustpilot.com", path))).toHaveLength(15);
  });
});

describe("trustpilot.com failures", () => {
  async function scrape(scenario: string) {
    const domain = `${slug(scenario)}.com`;
    const task = await submitScrape("trustpilot.com", domain);
    const deliveries = await queue.drain();
    return { task, domain, deliveries, body: await retrieve(task) };
  }

  it("fails with login_required when the profile itself asks to sign in", async () => {
    const { task, body } = await scrape("signin");
    expect(body.response_message).toEqual(failed("login_required"));
    expect(await taskRow(task.taskId)).toMatchObject({ status: 500, reason: "login_required" });
  });

  it("retries the bot check (captcha) and then fails with blocked", async () => {
    const { domain, deliveries, body } = await scrape("captcha");
    expect(deliveries.map((d) => d.outcome)).toEqual(["retry", "retry", "retry", "ack"]);
    expect(body.response_message).toEqual(failed("blocked"));
    expect(await fixtureRequests("trustpilot.com", `/review/${domain}`)).toEqual({
      [`/review/${domain}${LIST}`]: 4,
    });
  });

  it("fails a consent wall with blocked at once", async () => {
    const { deliveries, body } = await scrape("consent");
    expect(deliveries.map((d) => d.outcome)).toEqual(["ack"]);
    expect(body.response_message).toEqual(failed("blocked"));
  });

  it.each([
    ["changed", "__NEXT_DATA__.props.pageProps.reviews is missing or malformed"],
    ["bare", "Trustpilot review page: no __NEXT_DATA__ script"],
    ["hollow", "Trustpilot review page 1 of 3 lists no reviews though the profile has 10"],
  ])(
    "fails a page whose structure changed (%s) with publisher_error and logs what was missing",
    async (scenario, missing) => {
      const { task, body } = await scrape(scenario);
      expect(body.response_message).toEqual(failed("publisher_error"));
      expect(scrapeFailures(warn, task.taskId)).toContainEqual(
        expect.objectContaining({
          publisher: "trustpilot.com",
          reason: "publisher_error",
          outcome: "failing",
          detail: expect.stringContaining(missing),
        }),
      );
    },
  );
});

describe("trustpilot.com submit rules", () => {
  it("answers 400 for a Trustpilot URL that is not a profile and for an id that is not a domain, under the canonical key", async () => {
    const { apiKey } = await createAccount();
    const config = (profile_key: string) => ({ profile_key, last_review_hashes: [], first_page_only: false });
    const res = await postJson(
      "/submit/request-reviews/",
      submitBody(apiKey, { "www.trustpilot.com": config("https://www.trustpilot.com/categories/cafe") }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: "Invalid payload",
      details: {
        data: {
          publishers: {
            "trustpilot.com": { profile_key: ["Enter the URL of a profile on trustpilot.com."] },
          },
        },
      },
    });
    const id = await postJson(
      "/submit/request-reviews/",
      submitBody(apiKey, { "trustpilot.com": config("Blue Door Cafe") }),
    );
    expect(id.body.details).toEqual({
      data: { publishers: { "trustpilot.com": { profile_key: ["Enter a valid URL."] } } },
    });
  });
});

describe("trustpilot.com lookup", () => {
  it("finds the profile with Trustpilot's search by name, street and postal code among decoys when profile_key is empty", async () => {
    const task = await submitScrape("trustpilot.com", "");
    await queue.drain();
    const body = await retrieve(task);
    expect(body.task_status).toBe(200);
    expect(body.business.profile_key).toBe("https://www.trustpilot.com/review/www.lookup-bluedoor.com");
    expect(body.reviews).toEqual(REVIEWS.map(apiReview));
    expect(await fixtureRequests("trustpilot.com", "/search")).toHaveProperty([
      "/search?query=Blue+Door+Cafe",
    ]);
  });

  it.each([
    [
      "a namesake elsewhere",
      { ...business(), address: { ...business().address, street: "99 Elm St", zip: "10001" } },
      "found 5 businesses, none with this name at 99 Elm St, 10001",
    ],
    [
      "no search results",
      { ...business(), name: "Nowhere Diner" },
      'Trustpilot search for "Nowhere Diner" found 0 businesses',
    ],
  ])("fails with profile_not_found when nothing fits (%s)", async (_, biz, logged) => {
    const task = await submitScrape("trustpilot.com", "", {}, { business: biz });
    await queue.drain();
    const body = await retrieve(task);
    expect(body.response_message).toEqual(failed("profile_not_found"));
    expect(failureDetails(warn, task.taskId)).toContain(logged);
  });
});
