/**
 * maps.google.com end to end: submit through the Worker, the real queue consumer, the fixture site
 * (./site.ts) through PUBLISHER_ORIGINS, retrieve through the Worker.
 */
import { describe, expect, it, vi } from "vitest";
import { failureDetails } from "../../helpers/logs";
import { business, createAccount, postJson, submitBody } from "../../helpers/api";
import { fixtureRequests, md5Hash, retrieve, submitScrape } from "../../e2e/support";
import {
  BLUE_DOOR,
  BLUE_DOOR_COPY,
  CAPTCHA,
  CHANGED_REVIEW,
  CONSENT,
  EMPTY,
  MOVED_LIST,
  NO_TEXT,
  SIGN_IN,
  TRANSLATED,
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

/** The API review a fixture review must become: original text, exact time, Google's ids. */
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
    ...(r.reply ? { owner_reply: { text: r.reply.text, posted_at: Math.floor(r.reply.postedMicros / 1000) } } : {}),
  };
}

/** The site's listugcposts requests for one place, by path and query. */
const rpcRequests = (p: FixturePlace) =>
  fixtureRequests("google.com", `/maps/rpc/listugcposts?${new URLSearchParams({ authuser: "0", hl: "en", pb: `!1m6!1s${p.featureId}` }).toString()}`);

describe("maps.google.com reviews", () => {
  it("walks every listugcposts page newest first and keeps ids, original texts, exact times, languages and replies", async () => {
    const task = await submitScrape("maps.google.com", placeUrl(BLUE_DOOR));
    await queue().drain();
    const all = nativeNewestFirst(BLUE_DOOR).map((r) => expected(r, BLUE_DOOR));
    expect(all).toHaveLength(44);

    const first = await retrieve(task, 1, 20);
    expect(first.business.profile_key).toBe(placeUrl(BLUE_DOOR));
    expect(first.pagination).toEqual({ total_reviews: 44, page: 1, page_size: 20, total_pages: 3, has_next: true, has_previous: false });
    expect(first.reviews).toEqual(all.slice(0, 20));
    expect((await retrieve(task, 2, 20)).reviews).toEqual(all.slice(20, 40));
    const last = await retrieve(task, 3, 20);
    expect(last.reviews).toEqual(all.slice(40));
    expect(last.pagination).toMatchObject({ has_next: false, has_previous: true });

    // The reviews the fixture made special, spelled out.
    const byId = new Map(first.reviews.map((r: { review_id: string }) => [r.review_id, r]));
    expect(byId.get(WITH_REPLY.id)).toMatchObject({
      posted_at: Date.parse("2026-10-01T09:30:00.123Z"),
      owner_reply: { text: "Thank you, Dana! See you soon.", posted_at: Date.parse("2026-10-03T09:30:00.777Z") },
      review_hash: md5Hash(["Best flat white in town.\nThe barista remembered my order.", "Dana K.", "Thank you, Dana! See you soon."]),
    });
    expect(byId.get(TRANSLATED.id)).toMatchObject({
      text: "Der Kuchen war köstlich, der Service freundlich.",
      language: "de",
      posted_at: Date.parse("2026-09-30T09:29:59.623Z"),
    });
    expect(byId.get(NO_TEXT.id)).toMatchObject({ text: "", language: "und", review_hash: md5Hash(["", "Lysann L."]) });
    expect(byId.has("AGG_REVIEW_ID_001")).toBe(false);
    expect(last.reviews.at(-1)).toMatchObject({
      owner_reply: { text: "Das tut uns leid, wir arbeiten daran.", posted_at: Date.parse("2026-03-25T09:30:00.123Z") },
    });
  });

  it("stops at the page holding a review the client already has, without asking for older pages", async () => {
    const native = nativeNewestFirst(BLUE_DOOR_COPY);
    const known = native[30]; // on the second page of 20 entries (the first holds one syndicated review)
    const task = await submitScrape("maps.google.com", placeUrl(BLUE_DOOR_COPY), { last_review_hashes: [md5Hash([known.text!, known.author])] });
    await queue().drain();
    const body = await retrieve(task, 1, 100);
    expect(body.reviews).toEqual(
      native
        .slice(0, 39)
        .filter((r) => r !== known)
        .map((r) => expected(r, BLUE_DOOR_COPY)),
    );
    const requests = await rpcRequests(BLUE_DOOR_COPY);
    expect(Object.keys(requests)).toHaveLength(2);
    expect(Object.keys(requests).map((k) => new URL(k, "https://x").searchParams.get("pb")!.match(/!2m2!1i(\d+)!2s([^!]*)/)![1])).toEqual(["20", "20"]);
  });

  it("completes with no reviews for a place that has none", async () => {
    const task = await submitScrape("maps.google.com", "https://maps.app.goo.gl/qUiEtCoRnEr22");
    await queue().drain();
    const body = await retrieve(task);
    expect(body.reviews).toEqual([]);
    expect(body.pagination).toMatchObject({ total_reviews: 0, total_pages: 0 });
    expect(body.business.profile_key).toContain(EMPTY.featureId);
  });
});

describe("maps.google.com profile forms", () => {
  const shortTarget = `https://www.google.com/maps/place/Blue+Door+Cafe/@37.7936,-122.3958,17z/data=!4m6!3m5!1s${BLUE_DOOR.featureId}!8m2!3d37.7936!4d-122.3958!16s%2Fg%2F11c0000000?entry=tts&g_st=ic`;
  it.each([
    ["maps.google.com", "https://maps.app.goo.gl/bLuEdOoRcAfE1", shortTarget],
    ["maps.google.com", "https://goo.gl/maps/bLuEdOoRcAfE1", shortTarget],
    ["maps.google.com", `https://maps.google.com/?cid=${BLUE_DOOR.cid}`, `https://www.google.com/maps?cid=${BLUE_DOOR.cid}`],
    ["google.com", BLUE_DOOR.placeId, `https://www.google.com/maps/place/?q=place_id:${BLUE_DOOR.placeId}`],
  ])("%s %s is followed to the place", async (publisher, profileKey, profileUrl) => {
    const task = await submitScrape(publisher, profileKey, { first_page_only: true });
    await queue().drain();
    const body = await retrieve(task, 1, 50);
    expect(body.business).toMatchObject({ publisher, profile_key: profileUrl });
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      nativeNewestFirst(BLUE_DOOR)
        .slice(0, 19)
        .map((r) => r.id),
    );
  });

  it("accepts a www.google.com/maps/place link at submit and refuses other Google pages with the documented message", async () => {
    const { apiKey } = await createAccount();
    const ok = await postJson(
      "/submit/request-reviews/",
      submitBody(apiKey, { "www.maps.google.com": { profile_key: placeUrl(BLUE_DOOR), last_review_hashes: [], first_page_only: true } }),
    );
    expect(ok.status).toBe(201);
    expect(ok.body.publisher_key).toBe("maps.google.com");
    const bad = await postJson(
      "/submit/request-reviews/",
      submitBody(apiKey, { "maps.google.com": { profile_key: "https://www.google.com/search?q=blue+door", last_review_hashes: [], first_page_only: true } }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.details.data.publishers["maps.google.com"]).toEqual({ profile_key: ["Enter the URL of a profile on maps.google.com."] });
  });
});

describe("maps.google.com lookup", () => {
  it("finds the place by name, street and postal code when profile_key is empty", async () => {
    const task = await submitScrape("maps.google.com", "", { first_page_only: true });
    await queue().drain();
    const body = await retrieve(task, 1, 50);
    expect(body.business.profile_key).toBe(`https://www.google.com/maps/place/Blue+Door+Cafe/data=!4m2!3m1!1s${BLUE_DOOR.featureId}`);
    expect(body.reviews).toHaveLength(19);
  });

  it.each([
    ["no result has the name", { name: "Green Lantern Diner" }],
    ["the namesake on that street has another postal code", { address: { ...business().address, street: "500 Castro St", zip: "94103" } }],
  ])("fails with profile_not_found when %s", async (_, change) => {
    const task = await submitScrape("maps.google.com", "", {}, { business: { ...business(), ...change } });
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed("profile_not_found"));
  });
});

describe("maps.google.com failures", () => {
  it.each([
    ["a consent wall", CONSENT, "blocked", "Google answered with its cookie consent page (consent.google.com)"],
    ["a sign-in page", SIGN_IN, "login_required", "Google answered with its sign-in page (accounts.google.com)"],
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

  it.each([
    ["a review record changed its layout", CHANGED_REVIEW, "listugcposts: review 0 has no rating at [2][0][0][2][0][0]"],
    ["the review list moved", MOVED_LIST, "listugcposts returned no reviews for a place that shows 3"],
  ])("fails with publisher_error and logs what was missing when %s", async (_, place, message) => {
    const warn = vi.spyOn(console, "warn");
    const task = await submitScrape("maps.google.com", placeUrl(place));
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, task.taskId)).toContain(message);
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
