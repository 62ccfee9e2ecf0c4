/**
 * yelp.com end to end: submit through the Worker, the real scrape-yelp consumer, the fixture
 * yelp.com (biz page + GraphQL review feed + search), retrieve.
 */
import { describe, expect, it, vi } from "vitest";
import { logLines, scrapeFailures } from "../../helpers/logs";
import { business, call } from "../../helpers/api";
import { fixtureRequests, md5Hash, retrieve, slug, submitScrape, taskRow } from "../../e2e/support";
import { photoUrl, REVIEWS, type FixtureNode } from "./data";
import { SESSION_COOKIE } from "./site";
import { failed, queuePerTest } from "../support";

const persona = (value = SESSION_COOKIE.value) => ({
  additional_cookies: { login: [{ name: SESSION_COOKIE.name, value, domain: ".yelp.com" }] },
});

const queue = queuePerTest();

/** The API review a fixture node must become, computed from the fixture data alone. */
function expected(node: FixtureNode, profileUrl: string) {
  const text = node.text?.full ?? "";
  const author = node.author.displayName;
  return {
    review_id: node.encid,
    author_name: author,
    author_id: node.author.encid,
    rating: node.rating,
    text,
    url: `${profileUrl}?hrid=${node.encid}`,
    posted_at: Date.parse(node.createdAt),
    review_hash: md5Hash(node.reply ? [text, author, node.reply.full] : [text, author]),
    // Yelp's own language field; a review without text has none and nothing to detect it from.
    language: node.text?.language ?? "und",
    source_date: new Date(node.createdAt).toISOString(),
    scraped_at: expect.any(Number),
    // The fixture's author.reviewCount and feedback.usefulCount (issue 36; never hashed).
    author_review_count: 12,
    likes: 1,
    ...(node.photos ? { photos: node.photos.map(photoUrl) } : {}),
    ...(node.reply
      ? { owner_reply: { text: node.reply.full, posted_at: Date.parse(node.reply.createdAt) } }
      : {}),
  };
}

async function scrape(
  profileKey: string,
  config: Parameters<typeof submitScrape>[2] = {},
  extra: Record<string, unknown> = {},
) {
  const task = await submitScrape("yelp.com", profileKey, { persona: persona(), ...config }, extra);
  const deliveries = await queue().drain();
  return { task, deliveries };
}

describe("yelp.com: reviews through the GraphQL review feed", () => {
  it("walks every feed page newest first and returns each review exactly, with replies, languages and native ids", async () => {
    const alias = slug("cafe");
    const profile = `https://www.yelp.com/biz/${alias}`;
    const { task, deliveries } = await scrape(profile);
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-yelp", "ack"]]);

    const body = await retrieve(task, 1, 100);
    expect(body.task_status).toBe(200);
    expect(body.business.profile_key).toBe(profile);
    // One raw file per feed page, each exactly the reviews of its offset: 0–9, 10–19, 20–22.
    const pages: string[][] = [];
    for (const fileUrl of body.business.reviews_urls as string[]) {
      const url = new URL(fileUrl);
      const text = await (await call(url.pathname + url.search)).text();
      pages.push(
        text
          .trimEnd()
          .split("\n")
          .map((line) => (JSON.parse(line) as { review_id: string }).review_id),
      );
    }
    expect(pages).toEqual(
      [REVIEWS.slice(0, 10), REVIEWS.slice(10, 20), REVIEWS.slice(20)].map((page) =>
        page.map((r) => r.encid),
      ),
    );
    expect(body.pagination).toEqual({
      total_reviews: 23,
      page: 1,
      page_size: 100,
      total_pages: 1,
      has_next: false,
      has_previous: false,
    });
    expect(body.reviews).toEqual(REVIEWS.map((node) => expected(node, profile)));
    // Spot checks of what the list above covers: a reply, the German original, a review without text.
    expect(body.reviews[0].owner_reply).toEqual({
      text: "Thank you Dana! See you tomorrow.\nThe Blue Door team",
      posted_at: Date.parse("2026-10-31T09:15:00Z"),
    });
    expect(body.reviews[2]).toMatchObject({
      language: "de",
      text: "Der beste Kaffee in der Stadt, freundliches Personal und leckerer Kuchen.",
    });
    expect(body.reviews[4]).toMatchObject({
      text: "",
      review_hash: md5Hash(["", REVIEWS[4].author.displayName]),
    });
    expect(body.reviews[13].owner_reply.text).toBe(REVIEWS[13].reply!.full);
    // The biz page was read once, for its business id.
    expect(await fixtureRequests("yelp.com", `/biz/${alias}`)).toEqual({ [`/biz/${alias}`]: 1 });

    const page3 = await retrieve(task, 3, 10);
    expect(page3.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      REVIEWS.slice(20).map((r) => r.encid),
    );
    expect(page3.pagination).toMatchObject({
      total_reviews: 23,
      total_pages: 3,
      has_next: false,
      has_previous: true,
    });
  });

  it("first_page_only reads one feed page", async () => {
    const alias = slug("cafe");
    const { task } = await scrape(alias, { first_page_only: true });
    const body = await retrieve(task, 1, 100);
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      REVIEWS.slice(0, 10).map((r) => r.encid),
    );
    expect(body.business.profile_key).toBe(`https://www.yelp.com/biz/${alias}`);
  });

  it("stops at the feed page holding a known review hash", async () => {
    const known = expected(REVIEWS[12], "https://x").review_hash;
    const { task } = await scrape(slug("cafe"), { last_review_hashes: [known] });
    const body = await retrieve(task, 1, 100);
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      [...REVIEWS.slice(0, 12), ...REVIEWS.slice(13, 20)].map((r) => r.encid),
    );
  });

  it("follows a moved biz page and keeps the address it reached", async () => {
    const alias = slug("cafe");
    const { task } = await scrape(`https://m.yelp.com/biz/moved-${alias}?osq=cafe`, {
      first_page_only: true,
    });
    const body = await retrieve(task, 1, 1);
    expect(body.business.profile_key).toBe(`https://www.yelp.com/biz/${alias}`);
    expect(body.reviews[0]).toMatchObject({
      review_id: REVIEWS[0].encid,
      url: `https://www.yelp.com/biz/${alias}?hrid=${REVIEWS[0].encid}`,
    });
  });

  it("a business without reviews completes with none", async () => {
    const { task } = await scrape(slug("empty-cafe"));
    const body = await retrieve(task);
    expect(body.task_status).toBe(200);
    expect(body.reviews).toEqual([]);
    expect(body.pagination).toMatchObject({ total_reviews: 0, total_pages: 0 });
  });
});

describe("yelp.com: finding the profile with Yelp's search", () => {
  it("chooses the result matching name, street and postal code among decoys", async () => {
    const { task } = await scrape("", { first_page_only: true });
    const body = await retrieve(task, 1, 100);
    expect(body.task_status).toBe(200);
    expect(body.business.profile_key).toBe("https://www.yelp.com/biz/blue-door-cafe-san-francisco");
    expect(body.reviews).toHaveLength(10);
    // The ad and the decoys with another name or street were never opened; the Oakland namesake
    // on the same street was opened and refused for its postal code; the match was opened by the
    // lookup (postal code) and by the adapter (business id).
    expect(await fixtureRequests("yelp.com", "/biz/blue-door")).toEqual({
      "/biz/blue-door-cafe-oakland": 1,
      "/biz/blue-door-cafe-san-francisco": 2,
    });
    const search = await fixtureRequests("yelp.com", "/search/snippet");
    const query = new URLSearchParams(Object.keys(search)[0].split("?")[1]);
    expect([query.get("find_desc"), query.get("find_loc")]).toEqual([
      "Blue Door Cafe",
      "1 Market St, San Francisco, CA 94105",
    ]);
  });

  it("fails with profile_not_found when no result matches well enough", async () => {
    const elsewhere = {
      ...business(),
      address: { ...business().address, street: "77 Harbor Rd", zip: "94111" },
    };
    const { task } = await scrape("", {}, { business: elsewhere });
    expect((await retrieve(task)).response_message).toEqual(failed("profile_not_found"));
  });
});

describe("yelp.com: failures", () => {
  it.each([
    ["gone", "profile_not_found"],
    ["wall", "login_required"],
    ["nobiz", "profile_not_found"],
    ["stale", "blocked"],
  ])("%s- fails with %s", async (kind, reason) => {
    const { task } = await scrape(slug(`${kind}-cafe`));
    expect((await retrieve(task)).response_message).toEqual(failed(reason));
  });

  it("expired login cookies (sent to the sign-in page) fail with login_required", async () => {
    const task = await submitScrape("yelp.com", slug("cafe"), { persona: persona("expired") });
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed("login_required"));
  });

  it.each(["captcha", "feedcaptcha"])(
    "a DataDome page (%s-) is retried, then fails with blocked",
    async (kind) => {
      const { task, deliveries } = await scrape(slug(`${kind}-cafe`));
      expect(deliveries.length).toBeGreaterThan(1);
      expect(deliveries.at(-1)!.outcome).toBe("ack");
      expect((await retrieve(task)).response_message).toEqual(failed("blocked"));
    },
  );

  it.each([
    ["changed", "Yelp business page has no meta[name=yelp-biz-id]"],
    ["feedchanged", "edges.0.node.encid"],
  ])(
    "a changed page structure (%s-) fails with publisher_error and the log names what is missing",
    async (kind, missing) => {
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      const info = vi.spyOn(console, "log").mockImplementation(() => {});
      const error = vi.spyOn(console, "error").mockImplementation(() => {});
      const { task } = await scrape(slug(`${kind}-cafe`));
      expect((await retrieve(task)).response_message).toEqual(failed("publisher_error"));
      expect(scrapeFailures(warn, task.taskId)).toEqual([
        {
          level: "warn",
          message: "scrape attempt failed",
          task_id: task.taskId,
          publisher: "yelp.com",
          run: expect.any(Number),
          attempt: 1,
          reason: "publisher_error",
          outcome: "failing",
          detail: expect.stringContaining(missing),
        },
      ]);
      // The login cookie and the API key were in play on this task; neither reaches any log line.
      const everything = JSON.stringify([...logLines(warn), ...logLines(info), ...logLines(error)]);
      expect(everything).not.toContain(SESSION_COOKIE.value);
      expect(everything).not.toContain(task.apiKey);
      expect(await taskRow(task.taskId)).toMatchObject({ status: 500, reason: "publisher_error" });
    },
  );
});
