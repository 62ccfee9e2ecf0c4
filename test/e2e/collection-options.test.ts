/**
 * Collection options end to end (issue 36, point 1): `since`, `max_reviews` and `sort` on the fixture
 * sites of Google Maps, Tripadvisor, Trustpilot and Yelp, through submit, the real queue consumers
 * and retrieve. Each test checks the reviews kept, `coverage.stop_reason`, and that the walk fetched
 * no page past the one where the option was met (the fixture sites' own request counts).
 */
import { describe, expect, it } from "vitest";
import { fixtureRequests, retrieve, slug, submitScrape, taskRow, type Submitted } from "./support";
import { queuePerTest } from "../helpers/queue";
import { createAccount, postJson, submitBody } from "../helpers/api";
import { nativeNewestFirst, OPTIONS_PLACE } from "../publishers/google-maps/data";
import { LOCATIONS, locationPath, OPTIONS_INN } from "../publishers/tripadvisor/data";
import { REVIEWS as TRUSTPILOT_REVIEWS } from "../publishers/trustpilot/data";
import { REVIEWS as YELP_REVIEWS } from "../publishers/yelp/data";
import { SESSION_COOKIE } from "../publishers/yelp/site";

const queue = queuePerTest();

async function scrape(
  publisher: string,
  profile: string,
  options: Record<string, unknown>,
  persona?: unknown,
): Promise<{ task: Submitted; body: Record<string, any> }> {
  const task = await submitScrape(publisher, profile, { options, persona });
  await queue().drain();
  const body = await retrieve(task, 1, 1000);
  expect(body.task_status, JSON.stringify(body)).toBe(200);
  return { task, body };
}

const ids = (reviews: { review_id: string }[]) => reviews.map((r) => r.review_id).sort();

/** Requests a fixture site received under `prefix` between two counts, by path and query. */
function newRequests(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, n] of Object.entries(after)) if (n > (before[key] ?? 0)) out[key] = n - (before[key] ?? 0);
  return out;
}

describe("maps.google.com: since, max_reviews and sort through the Search review window", () => {
  const WINDOW = "/httpservice/web/PrivateLocalSearchUiDataService/GetLocalBoqProxy";
  const profile = `https://www.google.com/maps/place/Options+Test+Roastery/data=!4m6!3m5!1s${OPTIONS_PLACE.featureId}!8m2!3d37.8!4d-122.4`;
  const newest = nativeNewestFirst(OPTIONS_PLACE);

  /** The window requests made for the place while `run` ran: [sort, page token] of each. */
  async function windowRequests(run: () => Promise<unknown>): Promise<[number, string][]> {
    const before = await fixtureRequests("google.com", WINDOW);
    await run();
    const made = newRequests(before, await fixtureRequests("google.com", WINDOW));
    return Object.keys(made)
      .filter((key) => decodeURIComponent(key).includes(OPTIONS_PLACE.featureId))
      .map((key) => {
        const args = (
          JSON.parse(new URL(key, "https://x").searchParams.get("reqpld")!) as unknown[][][]
        )[1][9];
        return [args[1] as number, args[19] as string];
      });
  }
  const token = (offset: number) => (offset === 0 ? "" : `CAESY0NBRVFBQ${btoa(`offset=${offset}`)}`);

  it("since: stops at the page holding the first older review, keeps the newer ones, and names the reason", async () => {
    // 75 days back: the first review older than since is on the second page of 60.
    const since = "2026-07-18";
    let body: Record<string, any> = {};
    const requests = await windowRequests(async () => {
      ({ body } = await scrape("maps.google.com", profile, { since }));
    });
    const kept = newest.filter((r) => r.postedMicros / 1000 >= Date.parse(since));
    expect(kept).toHaveLength(76);
    expect(ids(body.reviews)).toEqual(ids(kept.map((r) => ({ review_id: r.id }))));
    // Pages of 60: the second holds the first review older than since; the third is never asked for.
    expect(requests).toEqual([
      [2, token(0)],
      [2, token(60)],
    ]);
    expect(body.coverage).toEqual({
      publisher_total: 150,
      collected: 76,
      complete: true,
      stop_reason: "since: the walk reached a review older than 2026-07-18T00:00:00.000Z",
    });
  });

  it("max_reviews: keeps the newest ones and fetches no page past the cap", async () => {
    let body: Record<string, any> = {};
    const requests = await windowRequests(async () => {
      ({ body } = await scrape("maps.google.com", profile, { max_reviews: 72 }));
    });
    expect(ids(body.reviews)).toEqual(ids(newest.slice(0, 72).map((r) => ({ review_id: r.id }))));
    expect(requests).toEqual([
      [2, token(0)],
      [2, token(60)],
    ]);
    expect(body.coverage).toMatchObject({
      collected: 72,
      complete: true,
      stop_reason: "max_reviews: the walk collected the 72 reviews asked for",
    });
  });

  it("sort: asks the window for the highest ratings first (sort 3); max_reviews then keeps the first of that order", async () => {
    let body: Record<string, any> = {};
    const requests = await windowRequests(async () => {
      ({ body } = await scrape("maps.google.com", profile, { sort: "highest", max_reviews: 5 }));
    });
    expect(requests).toEqual([[3, token(0)]]);
    const fives = newest.filter((r) => r.rating === 5).slice(0, 5);
    expect(fives).toHaveLength(5);
    expect(ids(body.reviews)).toEqual(ids(fives.map((r) => ({ review_id: r.id }))));
    // Retrieve still lists them newest first.
    expect(body.reviews.map((r: { posted_at: number }) => r.posted_at)).toEqual(
      fives.map((r) => Math.floor(r.postedMicros / 1000)),
    );
  });

  it("sort with since: the walk is not newest first, so since filters without stopping it", async () => {
    let body: Record<string, any> = {};
    const requests = await windowRequests(async () => {
      ({ body } = await scrape("maps.google.com", profile, { sort: "lowest", since: "2026-07-18" }));
    });
    // Every page of the lowest-first order is read (an older review may be followed by a newer one).
    expect(requests.map(([sort]) => sort)).toEqual([4, 4, 4]);
    const kept = newest.filter((r) => r.postedMicros / 1000 >= Date.parse("2026-07-18"));
    expect(ids(body.reviews)).toEqual(ids(kept.map((r) => ({ review_id: r.id }))));
    // Reached the end of the list: complete, and not compared with the publisher's total.
    expect(body.coverage).toEqual({
      publisher_total: 150,
      collected: kept.length,
      complete: true,
      stop_reason: null,
    });
  });
});

describe("tripadvisor.com: since and max_reviews across the review list and the -or<N>- pages", () => {
  const location = LOCATIONS.find((l) => l.locationId === OPTIONS_INN.locationId)!;
  const profile = `https://www.tripadvisor.com${locationPath(location)}`;
  const prefix = `/Hotel_Review-g${OPTIONS_INN.geoId}-d${OPTIONS_INN.locationId}-Reviews-or`;
  const orPage = (offset: number) => locationPath(location).replace("-Reviews-", `-Reviews-or${offset}-`);

  async function orPages(run: () => Promise<unknown>): Promise<Record<string, number>> {
    const before = await fixtureRequests("tripadvisor.com", prefix);
    await run();
    return newRequests(before, await fixtureRequests("tripadvisor.com", prefix));
  }

  it("since: the first -or<N>- page holding an older review ends the walk", async () => {
    let body: Record<string, any> = {};
    const pages = await orPages(async () => {
      ({ body } = await scrape("tripadvisor.com", profile, { since: "2026-10-20T00:00:00Z" }));
    });
    // One a day back from 2026-11-12: 24 since 2026-10-20; the review list gave 20, -or20- the rest.
    const kept = location.reviews.filter(
      (r) => Date.parse(`${r.publishedDate}T00:00:00Z`) >= Date.parse("2026-10-20"),
    );
    expect(kept).toHaveLength(24);
    expect(ids(body.reviews)).toEqual(ids(kept.map((r) => ({ review_id: String(r.id) }))));
    expect(pages).toEqual({ [orPage(20)]: 1 });
    expect(body.coverage).toEqual({
      publisher_total: 45,
      collected: 24,
      complete: true,
      stop_reason: "since: the walk reached a review older than 2026-10-20T00:00:00.000Z",
    });
  });

  it("max_reviews: met by the review list's 20, no -or<N>- page is fetched", async () => {
    let body: Record<string, any> = {};
    const pages = await orPages(async () => {
      ({ body } = await scrape("tripadvisor.com", profile, { max_reviews: 10 }));
    });
    expect(ids(body.reviews)).toEqual(
      ids(location.reviews.slice(0, 10).map((r) => ({ review_id: String(r.id) }))),
    );
    expect(pages).toEqual({});
    expect(body.coverage.stop_reason).toBe("max_reviews: the walk collected the 10 reviews asked for");
  });

  it("max_reviews past the first page: -or20- is the last page fetched", async () => {
    let body: Record<string, any> = {};
    const pages = await orPages(async () => {
      ({ body } = await scrape("tripadvisor.com", profile, { max_reviews: 25 }));
    });
    expect(ids(body.reviews)).toEqual(
      ids(location.reviews.slice(0, 25).map((r) => ({ review_id: String(r.id) }))),
    );
    expect(pages).toEqual({ [orPage(20)]: 1 });
    expect(body.coverage).toMatchObject({ collected: 25, complete: true });
  });

  it("sort: Tripadvisor is walked newest first only; newest is accepted, any other sort is a 400 naming it", async () => {
    const ok = await submitScrape("tripadvisor.com", profile, {
      options: { sort: "newest", max_reviews: 1 },
    });
    await queue().drain();
    expect((await retrieve(ok, 1, 10)).reviews).toHaveLength(1);
    const { apiKey } = await createAccount();
    const res = await postJson(
      "/submit/request-reviews/",
      submitBody(apiKey, {
        "tripadvisor.com": {
          profile_key: profile,
          last_review_hashes: [],
          first_page_only: false,
          sort: "relevant",
        },
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: "Invalid payload",
      details: {
        data: {
          publishers: {
            "tripadvisor.com": {
              sort: ['tripadvisor.com cannot be walked in the "relevant" order; it offers: newest.'],
            },
          },
        },
      },
    });
  });
});

describe("trustpilot.com: since, max_reviews and sort on the profile's ?page=N list", () => {
  const domainOf = (scenario: string) => `${scenario}-${crypto.randomUUID().slice(0, 8)}.com`;
  const recency = (domain: string, page: number) =>
    `/review/${domain}?languages=all&sort=recency${page > 1 ? `&page=${page}` : ""}`;

  it("since: page 2 holds the first older review; page 3 is never asked for", async () => {
    const domain = domainOf("multi");
    const { body } = await scrape("trustpilot.com", `https://www.trustpilot.com/review/${domain}`, {
      since: "2026-09-01",
    });
    const kept = TRUSTPILOT_REVIEWS.filter(
      (r) => Date.parse(r.dates.publishedDate) >= Date.parse("2026-09-01"),
    );
    expect(kept).toHaveLength(6);
    expect(ids(body.reviews)).toEqual(ids(kept.map((r) => ({ review_id: r.id }))));
    expect(await fixtureRequests("trustpilot.com", `/review/${domain}`)).toEqual({
      [recency(domain, 1)]: 1,
      [recency(domain, 2)]: 1,
    });
    expect(body.coverage).toEqual({
      publisher_total: 10,
      collected: 6,
      complete: true,
      stop_reason: "since: the walk reached a review older than 2026-09-01T00:00:00.000Z",
    });
  });

  it("max_reviews: a cap met exactly at a page's end fetches no further page", async () => {
    const domain = domainOf("multi");
    const { body } = await scrape("trustpilot.com", `https://www.trustpilot.com/review/${domain}`, {
      max_reviews: 4,
    });
    expect(ids(body.reviews)).toEqual(ids(TRUSTPILOT_REVIEWS.slice(0, 4).map((r) => ({ review_id: r.id }))));
    expect(await fixtureRequests("trustpilot.com", `/review/${domain}`)).toEqual({ [recency(domain, 1)]: 1 });
    expect(body.coverage.stop_reason).toBe("max_reviews: the walk collected the 4 reviews asked for");
  });

  it("sort relevant: asks for Trustpilot's default order (no sort parameter) and keeps its first reviews", async () => {
    const domain = domainOf("multi");
    const { body } = await scrape("trustpilot.com", `https://www.trustpilot.com/review/${domain}`, {
      sort: "relevant",
      max_reviews: 3,
    });
    expect(await fixtureRequests("trustpilot.com", `/review/${domain}`)).toEqual({
      [`/review/${domain}?languages=all`]: 1,
    });
    // The fixture's relevance order is the highest rating first.
    const relevant = [...TRUSTPILOT_REVIEWS].sort((a, b) => b.rating - a.rating).slice(0, 3);
    expect(ids(body.reviews)).toEqual(ids(relevant.map((r) => ({ review_id: r.id }))));
  });

  it("combines with last_review_hashes: whichever stops first wins", async () => {
    const domain = domainOf("multi");
    const profile = `https://www.trustpilot.com/review/${domain}`;
    const first = await scrape("trustpilot.com", profile, {});
    // The client knows the 2nd newest review: the walk stops on page 1, before max_reviews (8) would.
    const known = first.body.reviews[1].review_hash as string;
    const task = await submitScrape("trustpilot.com", profile, {
      last_review_hashes: [known],
      options: { max_reviews: 8 },
    });
    await queue().drain();
    const body = await retrieve(task, 1, 100);
    expect(body.reviews).toHaveLength(3);
    expect(body.coverage).toMatchObject({ collected: 3, complete: true, stop_reason: null });
    expect((await taskRow(task.taskId))!.pages_scraped).toBe(1);
  });
});

describe("yelp.com: since, max_reviews and sort through the GraphQL review feed", () => {
  const persona = {
    additional_cookies: {
      login: [{ name: SESSION_COOKIE.name, value: SESSION_COOKIE.value, domain: ".yelp.com" }],
    },
  };
  const profile = () => `https://www.yelp.com/biz/${slug("options")}`;

  it("since: the second feed page holds the first older review; the third is never asked for", async () => {
    const { task, body } = await scrape("yelp.com", profile(), { since: "2026-10-10" }, persona);
    const kept = YELP_REVIEWS.filter((r) => Date.parse(r.createdAt) >= Date.parse("2026-10-10"));
    expect(kept).toHaveLength(13);
    expect(ids(body.reviews)).toEqual(ids(kept.map((r) => ({ review_id: r.encid }))));
    // The biz page and two feed pages.
    expect(body.requests).toEqual({ direct: 3, browser: 0, provider: 0 });
    expect((await taskRow(task.taskId))!.pages_scraped).toBe(2);
    expect(body.coverage).toEqual({
      publisher_total: 23,
      collected: 13,
      complete: true,
      stop_reason: "since: the walk reached a review older than 2026-10-10T00:00:00.000Z",
    });
  });

  it("max_reviews: ten is one feed page, and only one is fetched", async () => {
    const { task, body } = await scrape("yelp.com", profile(), { max_reviews: 10 }, persona);
    expect(ids(body.reviews)).toEqual(ids(YELP_REVIEWS.slice(0, 10).map((r) => ({ review_id: r.encid }))));
    expect(body.requests).toEqual({ direct: 2, browser: 0, provider: 0 });
    expect((await taskRow(task.taskId))!.pages_scraped).toBe(1);
    expect(body.coverage.stop_reason).toBe("max_reviews: the walk collected the 10 reviews asked for");
  });

  it("sort lowest: the feed is asked for RATING_ASC and the lowest ratings come first", async () => {
    const { body } = await scrape("yelp.com", profile(), { sort: "lowest", max_reviews: 4 }, persona);
    // Three one-star reviews, then the first two-star one (the fixture ties by encid).
    const expected = [...YELP_REVIEWS]
      .sort((a, b) => a.rating - b.rating || a.encid.localeCompare(b.encid))
      .slice(0, 4);
    expect(expected.map((r) => r.rating)).toEqual([1, 1, 1, 2]);
    expect(ids(body.reviews)).toEqual(ids(expected.map((r) => ({ review_id: r.encid }))));
  });

  it("the task stores the options it was submitted with", async () => {
    const task = await submitScrape("yelp.com", profile(), {
      persona,
      options: { since: "2026-10-10T12:00:00+02:00", max_reviews: 7, sort: "relevant" },
    });
    const options = JSON.parse((await taskRow(task.taskId))!.options as string) as Record<string, unknown>;
    expect(options).toMatchObject({
      since: Date.parse("2026-10-10T10:00:00Z"),
      max_reviews: 7,
      sort: "relevant",
    });
    await queue().drain();
  });
});
