import { describe, expect, it, vi } from "vitest";
import { call } from "../helpers/api";
import { queuePerTest } from "../helpers/queue";
import {
  DUPES_PAGES,
  DUPES_UNIQUE,
  GRAPH,
  MARKUP_LANGUAGES,
  MICRODATA,
  MULTILINGUAL,
  MULTIPAGE,
  paged,
} from "../fixtures/reviews";
import {
  expectedReview,
  fixtureRequests,
  md5Hash,
  newestFirst,
  retrieve,
  slug,
  storedPageFileKeys,
  submitScrape,
  taskRow,
} from "./support";

const queue = queuePerTest();

/** Expected API reviews of a paged fixture site, each with the URL of the page it first appeared on. */
function expectedFromPages(pages: { id?: string }[][], base: string) {
  const seen = new Set<string>();
  const out: ReturnType<typeof expectedReview>[] = [];
  pages.forEach((reviews, i) => {
    for (const review of reviews as Parameters<typeof expectedReview>[0][]) {
      const url = i === 0 ? base : `${base}?page=${i + 1}`;
      const key = review.id ?? review.text;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(expectedReview(review, url));
    }
  });
  return newestFirst(out);
}

describe("generic structured-data adapter, end to end", () => {
  it("gives each review its own language, not the page's interface language", async () => {
    const path = `/biz/${slug("languages")}`;
    const profile = `https://multilingual.test${path}`;
    const task = await submitScrape("multilingual.test", profile);
    await queue().drain();
    const body = await retrieve(task);
    expect(body.reviews).toEqual(
      newestFirst(MULTILINGUAL.map((r) => ({ ...expectedReview(r, profile), language: r.language }))),
    );
  });

  it("takes a microdata or RDFa review's language from its own markup (lang on its element or its text's, inLanguage), not from <html lang>", async () => {
    const profile = `https://langmarkup.test/biz/${slug("langmarkup")}`;
    const task = await submitScrape("langmarkup.test", profile);
    await queue().drain();
    const body = await retrieve(task);
    expect(
      body.reviews.map((r: { author_name: string; language: string }) => [r.author_name, r.language]),
    ).toEqual([
      ["Uwe", "de"],
      ["Luc", "fr"],
      ["Sanne", "nl"],
    ]);
    expect(body.reviews).toEqual(
      newestFirst(MARKUP_LANGUAGES.map((r) => ({ ...expectedReview(r, profile), language: r.language }))),
    );
  });

  it("walks 12 JSON-LD pages over three runs and serves them newest first on every page", async () => {
    const path = `/biz/${slug("multi")}`;
    const profile = `https://multipage.test${path}`;
    const task = await submitScrape("multipage.test", profile);
    const deliveries = await queue().drain();

    // PAGES_PER_RUN is 5: runs of 5, 5 and 2 pages, each run handing over to the next.
    expect(queue().sent).toEqual([
      { task_id: task.taskId },
      { task_id: task.taskId, run: 2 },
      { task_id: task.taskId, run: 3 },
    ]);
    expect(deliveries.map((d) => d.outcome)).toEqual(["ack", "ack", "ack"]);
    const counts = await fixtureRequests("multipage.test", path);
    expect(counts).toEqual(
      Object.fromEntries(
        [path, ...Array.from({ length: 11 }, (_, i) => `${path}?page=${i + 2}`)].map((k) => [k, 1]),
      ),
    );

    const expected = expectedFromPages(paged(MULTIPAGE), profile);
    expect(expected).toHaveLength(36);
    const first = await retrieve(task, 1, 10);
    expect(first.task_status).toBe(200);
    expect(first.business).toMatchObject({
      id: "biz-1",
      name: "Blue Door Cafe",
      publisher: "multipage.test",
      profile_key: profile,
    });
    expect(first.business.reviews_urls).toHaveLength(12);
    expect(first.related_task_ids).toEqual([]);
    for (const page of [1, 2, 3, 4]) {
      const body = page === 1 ? first : await retrieve(task, page, 10);
      expect(body.reviews).toEqual(expected.slice((page - 1) * 10, page * 10));
      expect(body.pagination).toEqual({
        total_reviews: 36,
        page,
        page_size: 10,
        total_pages: 4,
        has_next: page < 4,
        has_previous: page > 1,
      });
    }
    const past = await retrieve(task, 5, 10);
    expect(past.reviews).toEqual([]);
    expect(past.pagination).toEqual({
      total_reviews: 36,
      page: 5,
      page_size: 10,
      total_pages: 4,
      has_next: false,
      has_previous: true,
    });
    const all = await retrieve(task);
    expect(all.reviews).toEqual(expected);
    expect(all.pagination).toMatchObject({ page: 1, page_size: 50, total_pages: 1 });

    const row = await taskRow(task.taskId);
    expect(row).toMatchObject({
      status: 200,
      pages_scraped: 12,
      reviews_found: 36,
      runs: 3,
      lease_token: null,
      cookies_enc: null,
    });
  });

  it("serves each scraped page's reviews as a signed JSON Lines file", async () => {
    const path = `/biz/${slug("files")}`;
    const task = await submitScrape("multipage.test", `https://multipage.test${path}`, {
      first_page_only: true,
    });
    await queue().drain();
    const body = await retrieve(task);
    expect(body.business.reviews_urls).toHaveLength(1);
    const url = new URL(body.business.reviews_urls[0]);
    expect(url.origin).toBe("https://api.test");
    const file = await call(url.pathname + url.search);
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toContain("application/x-ndjson");
    const lines = new TextDecoder()
      .decode(await file.arrayBuffer())
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toEqual(body.reviews);

    const tampered = new URL(url);
    tampered.pathname = url.pathname.replace(/pages\/1-/, "pages/2-");
    expect(tampered.pathname).not.toBe(url.pathname);
    expect((await call(tampered.pathname + tampered.search)).status).toBe(403);
    const forged = new URL(url);
    forged.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 60));
    expect((await call(forged.pathname + forged.search)).status).toBe(403);
    expect(await storedPageFileKeys(task.taskId)).toEqual([
      expect.stringMatching(new RegExp(`^tasks/${task.taskId}/pages/1-[0-9a-f]{8}\\.jsonl$`)),
    ]);

    // Eight days later the URL (valid for REVIEW_FILE_URL_TTL = 7 days) has expired.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 8 * 86_400_000 });
    try {
      const expired = await call(url.pathname + url.search);
      expect(expired.status).toBe(403);
      expect(await expired.json()).toEqual({ error: "This link has expired" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("follows a redirect from a moved profile and reports the publisher-side URLs", async () => {
    const name = slug("moved");
    const task = await submitScrape("multipage.test", `https://multipage.test/moved/${name}`, {
      first_page_only: true,
    });
    await queue().drain();
    const body = await retrieve(task);
    expect(body.reviews).toEqual(
      expectedFromPages([MULTIPAGE.slice(0, 3)], `https://multipage.test/biz/${name}`),
    );
    expect(body.business.profile_key).toBe(`https://multipage.test/biz/${name}`);
    expect(await fixtureRequests("multipage.test", `/moved/${name}`)).toEqual({ [`/moved/${name}`]: 1 });
    expect(await fixtureRequests("multipage.test", `/biz/${name}`)).toEqual({ [`/biz/${name}`]: 1 });
  });

  it("reads JSON-LD @graph, nested and standalone reviews", async () => {
    const path = `/biz/${slug("graph")}`;
    const profile = `https://graph.test${path}`;
    const task = await submitScrape("graph.test", profile);
    await queue().drain();
    const body = await retrieve(task);
    expect(body.reviews).toEqual(expectedFromPages([GRAPH.slice(0, 3), GRAPH.slice(3)], profile));
    expect(body.pagination.total_reviews).toBe(5);
  });

  it("reads microdata and follows an <a rel=next> link", async () => {
    const path = `/biz/${slug("micro")}`;
    const profile = `https://microdata.test${path}`;
    const task = await submitScrape("microdata.test", profile);
    await queue().drain();
    const body = await retrieve(task);
    expect(body.reviews).toEqual(expectedFromPages([MICRODATA.slice(0, 2), MICRODATA.slice(2)], profile));
  });

  it("deduplicates reviews repeated across and within pages by review_id", async () => {
    const path = `/biz/${slug("dupes")}`;
    const profile = `https://dupes.test${path}`;
    const task = await submitScrape("dupes.test", profile);
    await queue().drain();
    const body = await retrieve(task, 1, 4);
    const expected = expectedFromPages(DUPES_PAGES, profile);
    expect(expected).toHaveLength(DUPES_UNIQUE.length);
    expect(body.pagination).toEqual({
      total_reviews: 7,
      page: 1,
      page_size: 4,
      total_pages: 2,
      has_next: true,
      has_previous: false,
    });
    const second = await retrieve(task, 2, 4);
    const got = [...body.reviews, ...second.reviews];
    // The review without an id of its own gets a derived one, the same on both pages it appears on.
    const unnamed = got.find((r: { author_name: string }) => r.author_name === "No-id reviewer");
    expect(unnamed.review_id).toMatch(/^gen_[0-9a-f]{32}$/);
    expect(got).toEqual(
      expected.map((r) => (r.review_id === undefined ? { ...r, review_id: unnamed.review_id } : r)),
    );
    expect(new Set(got.map((r: { review_id: string }) => r.review_id)).size).toBe(7);
  });

  it("ends the walk when a next link leads back to pages already scraped", async () => {
    const path = `/biz/${slug("loop")}`;
    const profile = `https://looping.test${path}`;
    const task = await submitScrape("looping.test", profile);
    await queue().drain();
    expect(await fixtureRequests("looping.test", path)).toEqual({
      [path]: 1,
      [`${path}?page=2`]: 1,
      [`${path}?page=3`]: 1,
      [`${path}?page=1`]: 1,
    });
    const body = await retrieve(task);
    expect(body.reviews).toEqual(expectedFromPages(paged(MULTIPAGE.slice(0, 9)), profile));
    // Page 1 read again holds no review new to the task, so it leaves no file of its own.
    expect(body.business.reviews_urls).toHaveLength(3);
  });

  it("ends the walk at a next link to a missing page (404) and keeps what it found", async () => {
    const path = `/biz/${slug("dangling")}`;
    const profile = `https://dangling.test${path}`;
    const task = await submitScrape("dangling.test", profile);
    await queue().drain();
    expect(await fixtureRequests("dangling.test", path)).toEqual({
      [path]: 1,
      [`${path}?page=2`]: 1,
      [`${path}?page=3`]: 1,
    });
    const body = await retrieve(task);
    expect(body.task_status).toBe(200);
    expect(body.reviews).toEqual(expectedFromPages(paged(MULTIPAGE.slice(0, 6)), profile));
  });

  it("completes a business without reviews with zero reviews", async () => {
    const path = `/biz/${slug("empty")}`;
    const task = await submitScrape("empty.test", `https://empty.test${path}`);
    await queue().drain();
    const body = await retrieve(task);
    expect(body.task_status).toBe(200);
    expect(body.reviews).toEqual([]);
    expect(body.business.reviews_urls).toEqual([]);
    expect(body.pagination).toEqual({
      total_reviews: 0,
      page: 1,
      page_size: 50,
      total_pages: 0,
      has_next: false,
      has_previous: false,
    });
    const past = await retrieve(task, 3);
    expect(past.pagination).toMatchObject({ page: 3, total_pages: 0, has_next: false, has_previous: true });
  });
});

describe("incremental and first-page-only scraping", () => {
  it("stops at the first page holding a known review and never returns known reviews", async () => {
    const path = `/biz/${slug("incr")}`;
    const profile = `https://multipage.test${path}`;
    // Review 8 is on page 3; review 30 (page 10) is known too but never reached.
    const known = [MULTIPAGE[7], MULTIPAGE[29]].map((r) => md5Hash([r.text, r.author]));
    const task = await submitScrape("multipage.test", profile, { last_review_hashes: known });
    await queue().drain();
    expect(await fixtureRequests("multipage.test", path)).toEqual({
      [path]: 1,
      [`${path}?page=2`]: 1,
      [`${path}?page=3`]: 1,
    });
    const body = await retrieve(task);
    const pages = paged(MULTIPAGE)
      .slice(0, 3)
      .map((reviews) => reviews.filter((r) => r !== MULTIPAGE[7]));
    expect(body.reviews).toEqual(expectedFromPages(pages, profile));
    expect(body.reviews).toHaveLength(8);
    expect(body.reviews.map((r: { review_hash: string }) => r.review_hash)).not.toContain(known[0]);
  });

  it("fetches exactly one page with first_page_only", async () => {
    const path = `/biz/${slug("first")}`;
    const profile = `https://multipage.test${path}`;
    const task = await submitScrape("multipage.test", profile, { first_page_only: true });
    await queue().drain();
    expect(await fixtureRequests("multipage.test", path)).toEqual({ [path]: 1 });
    const body = await retrieve(task);
    expect(body.reviews).toEqual(expectedFromPages([MULTIPAGE.slice(0, 3)], profile));
  });
});
