/**
 * maps.google.com end to end: submit through the Worker, the real queue consumer, the fixture site
 * (./site.ts) through PUBLISHER_ORIGINS, retrieve through the Worker.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { googleMapsAdapter, inspectGooglePage } from "../../../src/publishers/google-maps/adapter";
import { PublisherClient } from "../../../src/scraping/client";
import { failureDetails } from "../../helpers/logs";
import { business, call, createAccount, loginCookies, postJson, submitBody } from "../../helpers/api";
import { fixtureRequests, md5Hash, retrieve, submitScrape } from "../../e2e/support";
import {
  BLUE_DOOR,
  CAPTCHA,
  CHANGED_REVIEW,
  CONSENT,
  EMPTY,
  HOSTILE,
  LIMITED,
  MOVED_LIST,
  NO_TEXT,
  SIGN_IN,
  TRANSLATED,
  UGC_REFUSES,
  UGC_REFUSES_LATER,
  THROTTLED,
  THROTTLED_HARD,
  THROTTLED_LONG,
  WIDE,
  WIDE_COPY,
  WITH_REPLY,
  nativeNewestFirst,
  type FixturePlace,
  type FixtureReview,
} from "./data";
import { failed, queuePerTest } from "../support";

const queue = queuePerTest();

const placeUrl = (p: FixturePlace) =>
  `https://www.google.com/maps/place/${p.name.replace(/ /g, "+")}/@37.7936,-122.3958,17z/data=!4m6!3m5!1s${p.featureId}!8m2!3d37.7936!4d-122.3958`;
const iso = (micros: number) => new Date(Math.floor(micros / 1000)).toISOString();

/** The API review a fixture review must become through listugcposts (signed in): exact reply time, the review's own link. */
function expected(r: FixtureReview, p: FixturePlace) {
  const text = r.text ?? "";
  return {
    review_id: r.id,
    author_name: r.author,
    author_id: r.authorId,
    rating: r.rating,
    text,
    url: `https://www.google.com/maps/reviews/data=!4m8!14m7!1m6!2m5!1s${r.id}!2m1!1s0x0:${p.featureId.split(":")[1]}`,
    posted_at: Math.floor(r.postedMicros / 1000),
    review_hash: md5Hash(r.reply ? [text, r.author, r.reply.text] : [text, r.author]),
    language: r.language ?? "und",
    source_date: iso(r.postedMicros),
    scraped_at: expect.any(Number),
    author_review_count: r.reviewerReviews ?? 1,
    // Issue 36: listugcposts labels a Local Guide's reviews so (no level is given).
    ...(r.localGuide ? { author_badges: ["local_guide"] } : {}),
    // Google's own translation into hl=en, beside the original (issue 36: translated_text).
    ...(r.translation ? { translated_text: r.translation, translated_language: "en" } : {}),
    ...(r.reply
      ? { owner_reply: { text: r.reply.text, posted_at: Math.floor(r.reply.postedMicros / 1000) } }
      : {}),
  };
}

/**
 * The same review through the Search review window (signed out): no link of its own (the place page
 * stands in), the reviewer's photo count too, and the reply's date only as "a month ago".
 */
function expectedFromWindow(r: FixtureReview, p: FixturePlace) {
  // The window gives no translation (its text is the original).
  const {
    owner_reply,
    url: _ownLink,
    translated_text: _t,
    translated_language: _l,
    // The window's record shows no Local Guide label the module could read.
    author_badges: _badges,
    ...rest
  } = expected(r, p);
  return {
    ...rest,
    url: placeUrl(p),
    author_photo_count: r.reviewerPhotos ?? 0,
    ...(owner_reply ? { owner_reply: { text: owner_reply.text, posted_at: expect.any(Number) } } : {}),
  };
}

const SIGNED_IN = { additional_cookies: { login: loginCookies("google.com") } };

/** The site's requests to one route for one place, by path and query, in order. */
async function routeRequests(route: "listugcposts" | "window", p: FixturePlace): Promise<string[]> {
  const path =
    route === "listugcposts"
      ? "/maps/rpc/listugcposts"
      : "/httpservice/web/PrivateLocalSearchUiDataService/GetLocalBoqProxy";
  const all = Object.keys(await fixtureRequests("google.com", path));
  return all.filter((k) => decodeURIComponent(k).includes(p.featureId));
}

/** Each window request for one place, in order: its page token and how often it was made. */
async function windowCalls(p: FixturePlace): Promise<[unknown, number][]> {
  const counts = await fixtureRequests(
    "google.com",
    "/httpservice/web/PrivateLocalSearchUiDataService/GetLocalBoqProxy",
  );
  return Object.entries(counts)
    .filter(([key]) => decodeURIComponent(key).includes(p.featureId))
    .map(([key, count]) => [windowToken(key), count]);
}

/** The window's request arguments (reqpld [null, [<9 nulls>, args]]). */
const windowArgs = (key: string) =>
  (JSON.parse(new URL(key, "https://x").searchParams.get("reqpld")!) as unknown[][][])[1][9];
/** The page token of a window request (args[19]). */
const windowToken = (key: string) => windowArgs(key)[19];
/** The token the fixture window hands out for the page starting at `offset`. */
const tokenAt = (offset: number) => (offset === 0 ? "" : `CAESY0NBRVFBQ${btoa(`offset=${offset}`)}`);

describe("maps.google.com reviews without login cookies: the Search review window", () => {
  it("reads a place of 44 reviews in one window request of 60, newest first, and keeps ids, original texts, exact times, languages, replies and reviewer counts", async () => {
    const task = await submitScrape("maps.google.com", placeUrl(BLUE_DOOR));
    await queue().drain();
    const all = nativeNewestFirst(BLUE_DOOR).map((r) => expectedFromWindow(r, BLUE_DOOR));
    expect(all).toHaveLength(44);

    const first = await retrieve(task, 1, 20);
    expect(first.business.profile_key).toBe(placeUrl(BLUE_DOOR));
    expect(first.pagination).toEqual({
      total_reviews: 44,
      page: 1,
      page_size: 20,
      total_pages: 3,
      has_next: true,
      has_previous: false,
    });
    expect(first.reviews).toEqual(all.slice(0, 20));
    expect((await retrieve(task, 2, 20)).reviews).toEqual(all.slice(20, 40));
    const last = await retrieve(task, 3, 20);
    expect(last.reviews).toEqual(all.slice(40));

    // One request for 60, the most the window serves: all 44 fit; listugcposts never asked.
    const requests = await routeRequests("window", BLUE_DOOR);
    expect(requests.map((key) => [windowArgs(key)[9], windowToken(key)])).toEqual([[60, ""]]);
    expect(await routeRequests("listugcposts", BLUE_DOOR)).toEqual([]);

    const byId = new Map(first.reviews.map((r: { review_id: string }) => [r.review_id, r]));
    expect(byId.get(WITH_REPLY.id)).toMatchObject({
      text: "Best flat white in town.\nThe barista remembered my order.",
      posted_at: Date.parse("2026-10-01T09:30:00.123Z"),
      author_review_count: 27,
      author_photo_count: 4,
      owner_reply: { text: "Thank you, Dana! See you soon." },
      // The reviewer's counts are not part of the hash.
      review_hash: md5Hash([
        "Best flat white in town.\nThe barista remembered my order.",
        "Dana K.",
        "Thank you, Dana! See you soon.",
      ]),
    });
    const reply = byId.get(WITH_REPLY.id) as { owner_reply: { posted_at: number }; scraped_at: number };
    // "a month ago", resolved against the scrape time.
    expect(reply.scraped_at - reply.owner_reply.posted_at).toBeGreaterThan(27 * 86_400_000);
    expect(reply.scraped_at - reply.owner_reply.posted_at).toBeLessThan(32 * 86_400_000);
    expect(byId.get(TRANSLATED.id)).toMatchObject({
      text: "Der Kuchen war köstlich, der Service freundlich.",
      language: "de",
      posted_at: Date.parse("2026-09-30T09:29:59.623Z"),
    });
    expect(byId.get(NO_TEXT.id)).toMatchObject({
      text: "",
      language: "und",
      review_hash: md5Hash(["", "Lysann L."]),
    });
    expect(byId.get(nativeNewestFirst(BLUE_DOOR)[3].id)).toMatchObject({
      text: "Visit 1: good coffee, the team's friendly.",
    });
  });

  it("walks every window page by token, 60 a page, newest first, to the last page", async () => {
    const task = await submitScrape("maps.google.com", placeUrl(WIDE));
    await queue().drain();
    const body = await retrieve(task, 1, 200);
    expect(body.reviews).toEqual(nativeNewestFirst(WIDE).map((r) => expectedFromWindow(r, WIDE)));
    expect(body.coverage).toEqual({
      publisher_total: 150,
      collected: 150,
      complete: true,
      stop_reason: null,
    });
    // 150 reviews in three requests (not 15 of 10), each for 60 with the token the previous answer gave.
    const requests = await routeRequests("window", WIDE);
    expect(requests.map((key) => [windowArgs(key)[9], windowToken(key)])).toEqual([
      [60, tokenAt(0)],
      [60, tokenAt(60)],
      [60, tokenAt(120)],
    ]);
  });

  it("stops at the page holding a review the client already has, without asking for older pages", async () => {
    const native = nativeNewestFirst(WIDE_COPY);
    const known = native[90]; // on the second page of 60
    const task = await submitScrape("maps.google.com", placeUrl(WIDE_COPY), {
      last_review_hashes: [md5Hash([known.text!, known.author])],
    });
    await queue().drain();
    const body = await retrieve(task, 1, 200);
    expect(body.reviews).toEqual(
      native
        .slice(0, 120)
        .filter((r) => r !== known)
        .map((r) => expectedFromWindow(r, WIDE_COPY)),
    );
    expect((await routeRequests("window", WIDE_COPY)).map(windowToken)).toEqual([tokenAt(0), tokenAt(60)]);
  });

  it("completes with no reviews for a place that has none", async () => {
    const task = await submitScrape("maps.google.com", "https://maps.app.goo.gl/qUiEtCoRnEr22");
    await queue().drain();
    const body = await retrieve(task);
    expect(body.reviews).toEqual([]);
    expect(body.pagination).toMatchObject({ total_reviews: 0, total_pages: 0 });
    expect(body.business.profile_key).toContain(EMPTY.featureId);
  });

  it("completes with the five reviews of the signed-out place page when the window refuses (a limited view)", async () => {
    const task = await submitScrape("maps.google.com", placeUrl(LIMITED));
    await queue().drain();
    const body = await retrieve(task, 1, 50);
    // Newest first: the place's own two (2026-09), then the three real captures (2026-02 and 2019).
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).toEqual([
      ...nativeNewestFirst(LIMITED).map((r) => r.id),
      "Ci9DQUlRQUNvZENodHljRjlvT2xGMmRraFdhSFowWW0xWVNURTBObEptU3pWWVgxRRAB",
      "Ci9DQUlRQUNvZENodHljRjlvT21jMmJ6UnpkemN6Y0dscE9YRndaUzFuVVhCSVprRRAB",
      "ChZDSUhNMG9nS0VJQ0FnSUNZemVhOFpREAE",
    ]);
    expect(body.reviews[2]).toMatchObject({
      author_name: "E. Ö.",
      rating: 1,
      language: "de",
      author_review_count: 2,
      posted_at: Date.parse("2026-02-27T10:02:02.193Z"),
    });
    expect(await routeRequests("window", LIMITED)).toHaveLength(1);
    // Never a silent success: the retrieve says only five of the place's 57 were reachable, and why.
    expect(body.coverage).toEqual({
      publisher_total: 57,
      collected: 5,
      complete: false,
      stop_reason: "limited_view: google signed-out view: 5 of 57 reviews",
    });
  });

  it("shows the module's evidence date (the Search window, 2026-09) in GET /publishers/maps.google.com", async () => {
    const res = await call("/publishers/maps.google.com");
    expect(res.status).toBe(200);
    const row = await res.json<{ support: string; evidence_date: string }>();
    expect(row.support).toBe("dedicated");
    expect(row.evidence_date >= "2026-09").toBe(true);
  });
});

describe("maps.google.com adapter pages (what the pipeline turns into coverage)", () => {
  const client = () =>
    new PublisherClient(env, { cookies: [], deadline: Date.now() + 60_000, inspect: inspectGooglePage });
  const ctx = () => ({ publisherKey: "maps.google.com", client: client() });

  it("marks the signed-out five-review view as limited, with the place's own total", async () => {
    const c = ctx();
    const { cursor } = await googleMapsAdapter.start(placeUrl(LIMITED), c);
    expect(cursor).toMatchObject({ route: "window", reviewCount: 57 });
    const page = await googleMapsAdapter.page(cursor, c);
    expect(page.reviews).toHaveLength(5);
    expect(page).toMatchObject({
      next: null,
      publisherTotal: 57,
      limitedView: "google signed-out view: 5 of 57 reviews",
    });
  });

  it("states the publisher's total on the window's first page and no limit", async () => {
    const c = ctx();
    const { cursor } = await googleMapsAdapter.start(placeUrl(WIDE), c);
    const first = await googleMapsAdapter.page(cursor, c);
    expect(first.reviews).toHaveLength(60);
    expect(first).toMatchObject({ publisherTotal: 150 });
    expect(first.limitedView ?? null).toBeNull();
    const second = await googleMapsAdapter.page(first.next!, c);
    expect(second).not.toHaveProperty("publisherTotal");
  });
});

describe("maps.google.com reviews with login cookies: listugcposts", () => {
  it("walks listugcposts pages of 20 newest first, with each review's own link and the exact reply time", async () => {
    const task = await submitScrape("maps.google.com", placeUrl(BLUE_DOOR), { persona: SIGNED_IN });
    await queue().drain();
    const all = nativeNewestFirst(BLUE_DOOR).map((r) => expected(r, BLUE_DOOR));
    const body = await retrieve(task, 1, 50);
    expect(body.reviews).toEqual(all);
    expect(body.reviews.find((r: { review_id: string }) => r.review_id === WITH_REPLY.id)).toMatchObject({
      owner_reply: {
        text: "Thank you, Dana! See you soon.",
        posted_at: Date.parse("2026-10-03T09:30:00.777Z"),
      },
    });
    expect(body.reviews.at(-1)).toMatchObject({
      owner_reply: {
        text: "Das tut uns leid, wir arbeiten daran.",
        posted_at: Date.parse("2026-03-25T09:30:00.123Z"),
      },
    });
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).not.toContain("AGG_REVIEW_ID_001");
    expect(await routeRequests("listugcposts", BLUE_DOOR)).toHaveLength(3);
  });

  it("completes through the window when listugcposts answers 403 to the signed-in client", async () => {
    const task = await submitScrape("maps.google.com", placeUrl(UGC_REFUSES), { persona: SIGNED_IN });
    await queue().drain();
    const body = await retrieve(task, 1, 50);
    expect(body.reviews).toEqual(
      nativeNewestFirst(UGC_REFUSES).map((r) => expectedFromWindow(r, UGC_REFUSES)),
    );
    expect(await routeRequests("listugcposts", UGC_REFUSES)).toHaveLength(1);
    // All 25 in the window's first page of 60.
    expect(await routeRequests("window", UGC_REFUSES)).toHaveLength(1);
  });

  it("goes on through the window, without repeats, when listugcposts refuses after its first page", async () => {
    const task = await submitScrape("maps.google.com", placeUrl(UGC_REFUSES_LATER), { persona: SIGNED_IN });
    await queue().drain();
    const body = await retrieve(task, 1, 50);
    const native = nativeNewestFirst(UGC_REFUSES_LATER);
    expect(body.reviews).toEqual([
      ...native.slice(0, 20).map((r) => expected(r, UGC_REFUSES_LATER)),
      ...native.slice(20).map((r) => expectedFromWindow(r, UGC_REFUSES_LATER)),
    ]);
    expect(await routeRequests("listugcposts", UGC_REFUSES_LATER)).toHaveLength(2);
    // The window's first page holds all 30; the 20 listugcposts delivered are dropped from it.
    expect((await routeRequests("window", UGC_REFUSES_LATER)).map(windowToken)).toEqual([""]);
  });
});

describe("maps.google.com profile forms", () => {
  const shortTarget = `https://www.google.com/maps/place/Blue+Door+Cafe/@37.7936,-122.3958,17z/data=!4m6!3m5!1s${BLUE_DOOR.featureId}!8m2!3d37.7936!4d-122.3958!16s%2Fg%2F11c0000000?entry=tts&g_st=ic`;
  it.each([
    ["maps.google.com", "https://maps.app.goo.gl/bLuEdOoRcAfE1", shortTarget],
    ["maps.google.com", "https://goo.gl/maps/bLuEdOoRcAfE1", shortTarget],
    [
      "maps.google.com",
      `https://maps.google.com/?cid=${BLUE_DOOR.cid}`,
      `https://www.google.com/maps?cid=${BLUE_DOOR.cid}`,
    ],
    ["google.com", BLUE_DOOR.placeId, `https://www.google.com/maps/place/?q=place_id:${BLUE_DOOR.placeId}`],
  ])("%s %s is followed to the place", async (publisher, profileKey, profileUrl) => {
    const task = await submitScrape(publisher, profileKey, { first_page_only: true });
    await queue().drain();
    const body = await retrieve(task, 1, 50);
    expect(body.business).toMatchObject({ publisher, profile_key: profileUrl });
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      // first_page_only: the window's first page, 60 at most, holds all 44.
      nativeNewestFirst(BLUE_DOOR).map((r) => r.id),
    );
  });

  it("accepts a www.google.com/maps/place link at submit and refuses other Google pages with the documented message", async () => {
    const { apiKey } = await createAccount();
    const ok = await postJson(
      "/submit/request-reviews/",
      submitBody(apiKey, {
        "www.maps.google.com": {
          profile_key: placeUrl(BLUE_DOOR),
          last_review_hashes: [],
          first_page_only: true,
        },
      }),
    );
    expect(ok.status).toBe(201);
    expect(ok.body.publisher_key).toBe("maps.google.com");
    const bad = await postJson(
      "/submit/request-reviews/",
      submitBody(apiKey, {
        "maps.google.com": {
          profile_key: "https://www.google.com/search?q=blue+door",
          last_review_hashes: [],
          first_page_only: true,
        },
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.details.data.publishers["maps.google.com"]).toEqual({
      profile_key: ["Enter the URL of a profile on maps.google.com."],
    });
  });
});

describe("maps.google.com lookup", () => {
  it("finds the place by name, street and postal code when profile_key is empty", async () => {
    const task = await submitScrape("maps.google.com", "", { first_page_only: true });
    await queue().drain();
    const body = await retrieve(task, 1, 50);
    expect(body.business.profile_key).toBe(
      `https://www.google.com/maps/place/Blue+Door+Cafe/data=!4m2!3m1!1s${BLUE_DOOR.featureId}`,
    );
    // first_page_only: the window's first page of up to 60, all of the place's 44.
    expect(body.reviews).toHaveLength(44);
  });

  it.each([
    ["no result has the name", { name: "Green Lantern Diner" }],
    [
      "the namesake on that street has another postal code",
      { address: { ...business().address, street: "500 Castro St", zip: "94103" } },
    ],
  ])("fails with profile_not_found when %s", async (_, change) => {
    const task = await submitScrape("maps.google.com", "", {}, { business: { ...business(), ...change } });
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed("profile_not_found"));
  });
});

describe("maps.google.com failures", () => {
  it.each([
    [
      "a consent wall",
      CONSENT,
      "blocked",
      "Google answered with its cookie consent page (consent.google.com)",
    ],
    [
      "a sign-in page",
      SIGN_IN,
      "login_required",
      "Google answered with its sign-in page (accounts.google.com)",
    ],
  ])("fails at once behind %s", async (_, place, reason, message) => {
    const warn = vi.spyOn(console, "warn");
    const task = await submitScrape("maps.google.com", placeUrl(place));
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => d.outcome)).toEqual(["ack"]);
    expect((await retrieve(task)).response_message).toEqual(failed(reason));
    expect(failureDetails(warn, task.taskId)).toContain(message);
  });

  it("retries the unusual-traffic captcha, then fails with blocked", async () => {
    const task = await submitScrape("maps.google.com", placeUrl(CAPTCHA));
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => d.outcome)).toEqual(["retry", "retry", "retry", "ack"]);
    expect((await retrieve(task)).response_message).toEqual(failed("blocked"));
  });

  it("backs off when the window answers 429, honouring Retry-After, and then reads the rest", async () => {
    const task = await submitScrape("maps.google.com", placeUrl(THROTTLED));
    const deliveries = await queue().drain();
    // Page 1 stored, page 2 refused with 429 (Retry-After: 20): the run lets go and the queue brings
    // the task back no sooner than asked; the second run reads pages 2 and the end.
    expect(deliveries.map((d) => [d.outcome, d.delaySeconds])).toEqual([
      ["retry", 20],
      ["ack", undefined],
    ]);
    const body = await retrieve(task, 1, 100);
    expect(body.reviews).toEqual(nativeNewestFirst(THROTTLED).map((r) => expectedFromWindow(r, THROTTLED)));
    expect(body.coverage).toEqual({ publisher_total: 90, collected: 90, complete: true, stop_reason: null });
    // The second page was asked for twice: refused once, then served.
    expect(await windowCalls(THROTTLED)).toEqual([
      [tokenAt(0), 1],
      [tokenAt(60), 2],
    ]);
  });

  it.each([
    [
      "429 on every attempt: backoff 15, 45, 135 s, then the attempts run out",
      THROTTLED_HARD,
      [
        ["retry", 15],
        ["retry", 45],
        ["retry", 135],
        ["ack", undefined],
      ],
    ],
    [
      "429 asking for longer than the task's time budget: no wait that would outlast it",
      THROTTLED_LONG,
      [["ack", undefined]],
    ],
  ])("keeps the reviews read before a rate limit that does not lift (%s)", async (_, place, outcomes) => {
    const task = await submitScrape("maps.google.com", placeUrl(place));
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.outcome, d.delaySeconds])).toEqual(outcomes);
    // One request for page 2 per delivery: the backoff is the queue's, never a burst of retries.
    expect(await windowCalls(place)).toEqual([
      [tokenAt(0), 1],
      [tokenAt(60), outcomes.length],
    ]);
    const body = await retrieve(task, 1, 100);
    // The task completes with page 1's 60 reviews, and coverage says it stopped short and why.
    expect(body.task_status).toBe(200);
    expect(body.reviews).toEqual(
      nativeNewestFirst(place)
        .slice(0, 60)
        .map((r) => expectedFromWindow(r, place)),
    );
    expect(body.coverage).toEqual({
      publisher_total: 90,
      collected: 60,
      complete: false,
      stop_reason: "blocked: Publisher answered 429",
    });
  });

  it.each([
    [
      "a review record changed its layout",
      CHANGED_REVIEW,
      "GetLocalBoqProxy: record 0 has no rating 1–5 at [1]",
    ],
    ["the review list moved", MOVED_LIST, "GetLocalBoqProxy returned no reviews for a place that shows 3"],
  ])("fails with publisher_error and logs what was missing when %s", async (_, place, message) => {
    const warn = vi.spyOn(console, "warn");
    const task = await submitScrape("maps.google.com", placeUrl(place));
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, task.taskId)).toContain(message);
  });

  it.each([
    [
      "a place page of 2 MB of unclosed tags",
      () => `https://maps.google.com/?cid=${HOSTILE.cid}`,
      "Maps place page: no window.APP_INITIALIZATION_STATE array",
    ],
    [
      "a window answer of a million nested lists",
      () => placeUrl(HOSTILE),
      "GetLocalBoqProxy: the answer has no review block at [1][10]",
    ],
  ])("ends a hostile site's task at once with publisher_error: %s", async (_, profileKey, message) => {
    const warn = vi.spyOn(console, "warn");
    const started = Date.now();
    const task = await submitScrape("maps.google.com", profileKey());
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => d.outcome)).toEqual(["ack"]);
    expect((await retrieve(task)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, task.taskId)).toContain(message);
    // Linear work: a quadratic pattern over these 2 MB would take minutes.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it.each([
    ["an unknown cid (Maps shows the bare map)", "https://maps.google.com/?cid=42"],
    ["a dead short link", "https://maps.app.goo.gl/nOsUcHlInK"],
  ])("fails with profile_not_found for %s", async (_, profileKey) => {
    const task = await submitScrape("maps.google.com", profileKey);
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed("profile_not_found"));
  });
});
