/** glassdoor.com: the Apollo-cache parser on the fixture's pages, and the module end to end. */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { glassdoorAdapter, inspectGlassdoorPage } from "../../../src/publishers/glassdoor/adapter";
import { PublisherClient } from "../../../src/scraping/client";
import { failureDetails } from "../../helpers/logs";
import {
  apolloCache,
  employerProfileId,
  pageToken,
  rawReview,
  reviewsResult,
} from "../../../src/publishers/glassdoor/apollo";
import {
  EMPLOYER_REVIEWS_PATH,
  employerReviewsRequest,
  parseEmployerReviewsAnswer,
} from "../../../src/publishers/glassdoor/graph";
import { rscFirstPage } from "../../../src/publishers/glassdoor/rsc";
import { ScrapeError } from "../../../src/scraping/errors";
import { fixtureRequests, md5Hash, retrieve, submitScrape } from "../../e2e/support";
import {
  ACME,
  ANONYMOUS,
  BIG_CO,
  BOT_CHECK,
  CHANGED,
  EMPTY_EMPLOYER,
  GRAPH_CHANGED,
  GRAPH_ERROR,
  GRAPH_LOGIN,
  GRAPH_PAGE_ONE,
  HIDDEN,
  HOSTILE_FAN,
  HOSTILE_TAGS,
  NO_PAGE_COUNT,
  LOGIN_REDIRECT,
  NO_TOKEN,
  RSC_CO,
  STALE_TOKEN,
  TRANSLATED,
  WITH_RESPONSE,
  newestFirst,
  profileIdOf,
  tokenOf,
  type FixtureEmployer,
  type FixtureGlassdoorReview,
} from "./data";
import fixture from "./site";
import { failed, queuePerTest } from "../support";

const SORT = "?sort.sortType=RD&sort.ascending=false";
const reviewsUrl = (e: FixtureEmployer, page = 1) =>
  `https://www.glassdoor.com/Reviews/${e.name.replace(/ /g, "-")}-Reviews-E${e.id}${page > 1 ? `_P${page}` : ""}.htm${SORT}`;

function answer(url: string) {
  const u = new URL(url);
  return fixture.site({ url: u, host: u.host, method: "GET", cookie: "", count: 1, headers: {}, body: "" });
}

/** The fixture's answer to the adapter's JSON call for one page (with the employer's token unless told). */
function graphAnswer(
  e: FixtureEmployer,
  page: number,
  headers: Record<string, string> = { "gd-csrf-token": tokenOf(e) },
) {
  const url = new URL(`https://www.glassdoor.com${EMPLOYER_REVIEWS_PATH}`);
  return fixture.site({
    url,
    host: url.host,
    method: "POST",
    cookie: "",
    count: 1,
    headers,
    body: JSON.stringify(employerReviewsRequest({ employerId: e.id, page, profileId: profileIdOf(e) })),
  });
}

/** The documented text layout: title, then Pros, Cons and Advice to Management under headings. */
function documentedText(r: FixtureGlassdoorReview): string {
  const o = r.original;
  return [
    o?.summary ?? r.summary,
    `Pros:\n${o?.pros ?? r.pros}`,
    `Cons:\n${o?.cons ?? r.cons}`,
    ...(r.advice ? [`Advice to Management:\n${r.advice}`] : []),
  ].join("\n\n");
}

/** The rated aspects under the API's names, each on the 1–5 scale as given. */
function expectedSubRatings(given: NonNullable<FixtureGlassdoorReview["subRatings"]>) {
  const names: Record<string, string> = {
    ratingWorkLifeBalance: "work_life_balance",
    ratingCultureAndValues: "culture_and_values",
    ratingDiversityAndInclusion: "diversity_and_inclusion",
    ratingSeniorLeadership: "senior_leadership",
    ratingCareerOpportunities: "career_opportunities",
    ratingCompensationAndBenefits: "compensation_and_benefits",
  };
  return Object.fromEntries(Object.entries(given).map(([field, value]) => [names[field], value]));
}

function expected(r: FixtureGlassdoorReview) {
  const author = r.jobTitle ?? "Anonymous Employee";
  const text = documentedText(r);
  return {
    review_id: String(r.reviewId),
    author_name: author,
    author_id: null,
    rating: r.ratingOverall,
    text,
    url: `https://www.glassdoor.com/Reviews/Employee-Review-Acme-Widgets-RVW${r.reviewId}.htm`,
    posted_at: Date.parse(`${r.reviewDateTime}Z`),
    review_hash: md5Hash(r.response ? [text, author, r.response.text] : [text, author]),
    language: r.original ? "de" : "en",
    source_date: `${r.reviewDateTime}Z`,
    scraped_at: expect.any(Number),
    // Issue 36: the title on its own (it also opens `text`), and the rated aspects where given.
    title: r.original?.summary ?? r.summary,
    ...(r.subRatings ? { sub_ratings: expectedSubRatings(r.subRatings) } : {}),
    ...(r.response
      ? { owner_reply: { text: r.response.text, posted_at: Date.parse(`${r.response.dateTime}Z`) } }
      : {}),
  };
}

describe("glassdoor parser", () => {
  it("reads the reviews of the Next.js cache and of the older inline apolloState", async () => {
    const first = reviewsResult((await apolloCache(answer(reviewsUrl(ACME)).body))!);
    expect(first).toMatchObject({ currentPage: 1, numberOfPages: 3, allReviewsCount: 23 });
    expect(first.reviews.map((r, i) => rawReview(r, i)).slice(0, 2)).toEqual([
      {
        id: "98000001",
        author_name: "Senior Software Engineer",
        rating: { value: 4, best: 5, worst: 1 },
        text: "Good team, slow releases\n\nPros:\nKind colleagues and real ownership.\n\nCons:\nReleases take weeks.\n\nAdvice to Management:\nAutomate the release train.",
        url: "https://www.glassdoor.com/Reviews/Employee-Review-Acme-Widgets-RVW98000001.htm",
        date: "2026-10-02T16:45:56.643Z",
        language: "en",
        title: "Good team, slow releases",
        sub_ratings: { work_life_balance: 4, culture_and_values: 5, career_opportunities: 3 },
        reply_text: "Thanks for the feedback, we are working on faster releases.",
        reply_date: "2026-10-04T08:00:00.000Z",
      },
      {
        id: "98000002",
        author_name: "Werkstudent",
        rating: { value: 5, best: 5, worst: 1 },
        text: "Toller Ort zum Lernen\n\nPros:\nFlexible Arbeitszeiten\n\nCons:\nWenig Parkplätze",
        url: "https://www.glassdoor.com/Reviews/Employee-Review-Acme-Widgets-RVW98000002.htm",
        date: "2026-10-01T09:00:00.001Z",
        language: "de",
        // The original's title, as in `text`.
        title: "Toller Ort zum Lernen",
      },
    ]);
    const second = reviewsResult((await apolloCache(answer(reviewsUrl(ACME, 2)).body))!);
    expect(second).toMatchObject({ currentPage: 2, numberOfPages: 3 });
    expect(second.reviews).toHaveLength(10);
  });

  it("reads page 1 from an RSC payload (self.__next_f) as from the Apollo cache, with the profile id and token the JSON call needs", async () => {
    const html = answer(reviewsUrl(RSC_CO)).body;
    expect(html).not.toContain("__NEXT_DATA__");
    expect(await apolloCache(html)).toBeNull();
    const rsc = (await rscFirstPage(html, RSC_CO.id))!;
    expect(rsc.result).toMatchObject({ currentPage: 1, numberOfPages: 3, allReviewsCount: 23 });
    expect([rsc.profileId, rsc.token]).toEqual([profileIdOf(RSC_CO), tokenOf(RSC_CO)]);
    const classic = reviewsResult((await apolloCache(answer(reviewsUrl(ACME)).body))!);
    const read = (reviews: typeof rsc.result.reviews) =>
      reviews.map((r, i) => rawReview(r, i)).map(({ url: _url, ...rest }) => rest);
    expect(read(rsc.result.reviews)).toEqual(read(classic.reviews));
    // Another employer's object in the payload gives no profile id; a page without a payload gives null.
    expect((await rscFirstPage(html, ACME.id))!.profileId).toBeNull();
    expect(await rscFirstPage(answer(reviewsUrl(ACME)).body, ACME.id)).toBeNull();
  });

  it("names what is missing when the page changed", async () => {
    const error = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return err as ScrapeError;
      }
      throw new Error("expected an error");
    };
    expect(await apolloCache("<html><body>no cache</body></html>")).toBeNull();
    const changed = (await apolloCache(answer(reviewsUrl(CHANGED)).body))!;
    expect(error(() => reviewsResult(changed))).toMatchObject({
      reason: "publisher_error",
      message: "Glassdoor page: ROOT_QUERY has no employerReviews result",
    });
    expect(error(() => rawReview({ reviewId: 1, reviewDateTime: "2026-01-01T00:00:00" }, 3)).message).toBe(
      "Glassdoor page: review 3 has no ratingOverall",
    );
  });

  it("reads a page of the JSON call with the same mapping as the page's cache", async () => {
    expect(pageToken(answer(reviewsUrl(ACME)).body)).toBe(tokenOf(ACME));
    expect(pageToken(answer(reviewsUrl(NO_TOKEN)).body)).toBeNull();
    expect(employerProfileId(answer(reviewsUrl(ACME)).body, ACME.id)).toBe(profileIdOf(ACME));
    expect(employerProfileId(answer(reviewsUrl(ACME)).body, 1)).toBeNull();
    const fromPage = reviewsResult((await apolloCache(answer(reviewsUrl(ACME, 2)).body))!);
    const fromCall = parseEmployerReviewsAnswer(JSON.parse(graphAnswer(ACME, 2).body), 2);
    expect(fromCall).toMatchObject({ currentPage: 2, numberOfPages: 3, allReviewsCount: 23 });
    expect(fromCall.reviews.map((r, i) => rawReview(r, i))).toEqual(
      fromPage.reviews.map((r, i) => rawReview(r, i)),
    );
    // A batched answer (a list, one entry per operation) is read the same way.
    expect(
      parseEmployerReviewsAnswer([
        { data: { recordPageView: { totalCount: 1 } } },
        JSON.parse(graphAnswer(ACME, 3).body),
      ]).reviews,
    ).toHaveLength(3);
    // Without numberOfPages/currentPage (as a 2026 client says the call now answers): pages from the count.
    expect(parseEmployerReviewsAnswer(JSON.parse(graphAnswer(NO_PAGE_COUNT, 2).body), 2)).toMatchObject({
      currentPage: 2,
      numberOfPages: 3,
      allReviewsCount: 25,
    });
  });

  it("names what is wrong with an answer of the JSON call", () => {
    const error = (body: unknown) => {
      try {
        parseEmployerReviewsAnswer(body);
      } catch (err) {
        return err as ScrapeError;
      }
      throw new Error("expected an error");
    };
    expect(error(JSON.parse(graphAnswer(GRAPH_CHANGED, 2).body))).toMatchObject({
      reason: "publisher_error",
      message: "Glassdoor JSON call: the answer has no data.employerReviews",
    });
    expect(error(JSON.parse(graphAnswer(GRAPH_ERROR, 2).body))).toMatchObject({
      reason: "publisher_error",
      message: "Glassdoor JSON call: GraphQL error (Internal server error)",
    });
    expect(
      error({ errors: [{ message: "Please sign in", extensions: { code: "UNAUTHENTICATED" } }], data: null }),
    ).toMatchObject({ reason: "login_required" });
    expect(error({ data: { employerReviews: { currentPage: 2, numberOfPages: 3 } } }).message).toBe(
      "Glassdoor JSON call: employerReviews has no reviews list",
    );
    expect(error({ data: { employerReviews: { reviews: [] } } }).message).toBe(
      "Glassdoor JSON call: the reviews result has no currentPage/numberOfPages (nor a review count to page by)",
    );
    expect(error("<html>").message).toBe("Glassdoor JSON call: expected a GraphQL answer object");
  });

  it("the fixture refuses the JSON call the way the site does: a wrong token, a wrong profile id, GET", () => {
    expect(graphAnswer(ACME, 2).status).toBe(200);
    expect(graphAnswer(ACME, 2, {}).status).toBe(200);
    expect(graphAnswer(ACME, 2, { "gd-csrf-token": tokenOf(STALE_TOKEN) }).status).toBe(403);
    const url = new URL(`https://www.glassdoor.com${EMPLOYER_REVIEWS_PATH}`);
    expect(
      fixture.site({ url, host: url.host, method: "GET", cookie: "", count: 1, headers: {}, body: "" })
        .status,
    ).toBe(405);
    const wrongProfile = fixture.site({
      url,
      host: url.host,
      method: "POST",
      cookie: "",
      count: 1,
      headers: {},
      body: JSON.stringify(employerReviewsRequest({ employerId: ACME.id, page: 2, profileId: 1 })),
    });
    expect(JSON.parse(wrongProfile.body)).toMatchObject({
      errors: [{ message: "Unknown dynamicProfileId" }],
    });
  });
});

describe("glassdoor end to end", () => {
  const queue = queuePerTest();

  it("walks every page newest first with titles, pros and cons, original texts, exact dates, responses and rated aspects: page 1 from the HTML, the rest from one JSON call of 50", async () => {
    const before = {
      pages: await fixtureRequests("glassdoor.com", "/Reviews/"),
      json: await fixtureRequests("glassdoor.com", EMPLOYER_REVIEWS_PATH),
    };
    const task = await submitScrape(
      "glassdoor.com",
      "https://www.glassdoor.com/Overview/Working-at-Acme-Widgets-EI_IE4242.11,23.htm",
    );
    await queue().drain();
    const pages = await fixtureRequests("glassdoor.com", "/Reviews/");
    const delta = Object.fromEntries(
      Object.entries(pages)
        .map(([key, n]) => [key, n - (before.pages[key] ?? 0)])
        .filter(([, n]) => n !== 0),
    );
    expect(delta).toEqual({ [new URL(reviewsUrl(ACME)).pathname + SORT]: 1 });
    expect(
      (await fixtureRequests("glassdoor.com", EMPLOYER_REVIEWS_PATH))[EMPLOYER_REVIEWS_PATH] -
        (before.json[EMPLOYER_REVIEWS_PATH] ?? 0),
    ).toBe(1);
    const body = await retrieve(task, 1, 50);
    expect(body.business.profile_key).toBe(reviewsUrl(ACME));
    expect(body.pagination).toMatchObject({ total_reviews: 23, total_pages: 1 });
    // The count Glassdoor states (allReviewsCount); its pages show no average the module reads.
    expect(body.business.publisher_summary).toEqual({
      rating: null,
      rating_scale: null,
      review_count: 23,
      histogram: null,
    });
    expect(body.reviews).toEqual(newestFirst(ACME).map(expected));
    expect(body.reviews[0]).toMatchObject({
      review_id: String(WITH_RESPONSE.reviewId),
      owner_reply: { text: WITH_RESPONSE.response!.text, posted_at: Date.parse("2026-10-04T08:00:00.000Z") },
      title: "Good team, slow releases",
      // Only the aspects rated; those sent as 0 are left out. Not part of review_hash.
      sub_ratings: { work_life_balance: 4, culture_and_values: 5, career_opportunities: 3 },
    });
    expect(body.reviews[1]).toMatchObject({
      review_id: String(TRANSLATED.reviewId),
      language: "de",
      text: "Toller Ort zum Lernen\n\nPros:\nFlexible Arbeitszeiten\n\nCons:\nWenig Parkplätze",
    });
    expect(body.reviews[2]).toMatchObject({
      review_id: String(ANONYMOUS.reviewId),
      author_name: "Anonymous Employee",
    });
  });

  it("walks an employer whose page 1 is an RSC payload: page 1 from the payload, the rest from the JSON call with its token and profile id", async () => {
    const before =
      (await fixtureRequests("glassdoor.com", EMPLOYER_REVIEWS_PATH))[EMPLOYER_REVIEWS_PATH] ?? 0;
    const task = await submitScrape("glassdoor.com", reviewsUrl(RSC_CO));
    await queue().drain();
    expect(
      (await fixtureRequests("glassdoor.com", EMPLOYER_REVIEWS_PATH))[EMPLOYER_REVIEWS_PATH] - before,
    ).toBe(1);
    const body = await retrieve(task, 1, 50);
    expect(body.pagination).toMatchObject({ total_reviews: 23 });
    const acme = newestFirst(ACME).map(expected);
    expect(body.reviews.map(({ url: _url, ...rest }: Record<string, unknown>) => rest)).toEqual(
      acme.map(({ url: _url, ...rest }) => rest),
    );
  });

  it("walks 123 reviews in four requests: page 1's ten, then the JSON call's pages 1, 2 and 3 of 50, without repeats", async () => {
    const before =
      (await fixtureRequests("glassdoor.com", EMPLOYER_REVIEWS_PATH))[EMPLOYER_REVIEWS_PATH] ?? 0;
    const task = await submitScrape("glassdoor.com", reviewsUrl(BIG_CO));
    await queue().drain();
    // Three JSON calls where pages of 10 would take twelve.
    expect(
      (await fixtureRequests("glassdoor.com", EMPLOYER_REVIEWS_PATH))[EMPLOYER_REVIEWS_PATH] - before,
    ).toBe(3);
    const body = await retrieve(task, 1, 200);
    // The ten of page 1 come again on the JSON call's page 1 of 50: each is stored once.
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      newestFirst(BIG_CO).map((r) => String(r.reviewId)),
    );
    expect(body.coverage).toEqual({
      publisher_total: 123,
      collected: 123,
      complete: true,
      stop_reason: null,
    });
  });

  it("asks the JSON call for page 1 of 50 after the reviews page, then for page 2 of 50", async () => {
    const client = new PublisherClient(env, {
      cookies: [],
      deadline: Date.now() + 60_000,
      inspect: inspectGlassdoorPage,
    });
    const ctx = { publisherKey: "glassdoor.com", client };
    const { cursor } = await glassdoorAdapter.start(reviewsUrl(BIG_CO), ctx);
    const first = await glassdoorAdapter.page(cursor, ctx);
    expect(first.reviews).toHaveLength(10);
    expect(first.next).toMatchObject({ page: 1, pageSize: 50, employerId: BIG_CO.id });
    expect(
      employerReviewsRequest(first.next as { employerId: number; page: number; pageSize: 50 }),
    ).toMatchObject({ page: 1, pageSize: 50 });
    const second = await glassdoorAdapter.page(first.next!, ctx);
    expect(second.reviews.map((r) => r.id)).toEqual(
      newestFirst(BIG_CO)
        .slice(0, 50)
        .map((r) => String(r.reviewId)),
    );
    expect(second.next).toMatchObject({ page: 2, pageSize: 50 });
    const third = await glassdoorAdapter.page(second.next!, ctx);
    expect(third.reviews.map((r) => r.id)).toEqual(
      newestFirst(BIG_CO)
        .slice(50, 100)
        .map((r) => String(r.reviewId)),
    );
    // A cursor stored before (no pageSize) still walks pages of 10 from page 2.
    const old = await glassdoorAdapter.page(
      { base: cursor.base, page: 2, employerId: BIG_CO.id, profileId: null, token: null },
      ctx,
    );
    expect(old.reviews.map((r) => r.id)).toEqual(
      newestFirst(BIG_CO)
        .slice(10, 20)
        .map((r) => String(r.reviewId)),
    );
    expect(old.next).toMatchObject({ page: 3 });
    expect(old.next).not.toHaveProperty("pageSize");
  });

  it("asks for the most recent reviews: the first page alone holds the ten newest", async () => {
    const task = await submitScrape("glassdoor.com", "4242", { first_page_only: true });
    await queue().drain();
    const body = await retrieve(task, 1, 50);
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      newestFirst(ACME)
        .slice(0, 10)
        .map((r) => String(r.reviewId)),
    );
  });

  it("walks past a first page without gdToken: the JSON call goes without it and every review is read", async () => {
    const task = await submitScrape("glassdoor.com", reviewsUrl(NO_TOKEN));
    await queue().drain();
    const body = await retrieve(task, 1, 50);
    expect(body.pagination).toMatchObject({ total_reviews: 12 });
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      newestFirst(NO_TOKEN).map((r) => String(r.reviewId)),
    );
  });

  it("pages by the review count when the JSON call leaves out numberOfPages and currentPage", async () => {
    const task = await submitScrape("glassdoor.com", reviewsUrl(NO_PAGE_COUNT));
    await queue().drain();
    const body = await retrieve(task, 1, 50);
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      newestFirst(NO_PAGE_COUNT).map((r) => String(r.reviewId)),
    );
  });

  // Issue 23: hostile pages end the task with publisher_error within seconds (2^30 expansions, or a
  // regex rescanning 2 MB at every opening, would run for hours and end as `internal`).
  it.each([
    [
      "a depth-30 shared-reference fan in the Apollo cache",
      HOSTILE_FAN,
      "Glassdoor page: review 0 has no reviewId",
    ],
    [
      "2 MB of unclosed tags",
      HOSTILE_TAGS,
      "Glassdoor page: no page data (__NEXT_DATA__ apolloCache, apolloState, or an RSC payload with employerReviews)",
    ],
  ])("ends a task on a page of %s within seconds", async (_, employer, message) => {
    const warn = vi.spyOn(console, "warn");
    const task = await submitScrape("glassdoor.com", reviewsUrl(employer));
    const started = Date.now();
    await queue().drain();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await retrieve(task)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, task.taskId)).toContain(message);
  });

  it("completes with no reviews for an employer nobody reviewed", async () => {
    const task = await submitScrape("glassdoor.com", reviewsUrl(EMPTY_EMPLOYER));
    await queue().drain();
    expect((await retrieve(task)).pagination).toMatchObject({ total_reviews: 0 });
  });

  it.each([
    [
      "a redirect to the sign-in page",
      LOGIN_REDIRECT,
      "login_required",
      "Glassdoor answered with its sign-in page",
    ],
    [
      "reviews hidden behind the sign-in overlay",
      HIDDEN,
      "login_required",
      "Glassdoor hides the reviews behind its sign-in form",
    ],
    ["the bot check", BOT_CHECK, "blocked", "Glassdoor answered with its bot check"],
    [
      "a changed cache layout",
      CHANGED,
      "publisher_error",
      "Glassdoor page: ROOT_QUERY has no employerReviews result",
    ],
  ])("fails behind %s and logs why", async (_, employer, reason, message) => {
    const warn = vi.spyOn(console, "warn");
    const task = await submitScrape("glassdoor.com", reviewsUrl(employer));
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed(reason));
    expect(failureDetails(warn, task.taskId)).toContain(message);
  });

  // A failure after page 1 keeps what was read (docs/api.md, "Failures after page 1"): the task
  // completes with page 1 and coverage naming the reason.
  it.each([
    ["a token the JSON call refuses", STALE_TOKEN, "blocked", "Publisher refused access (403)"],
    [
      "a JSON call sent to the sign-in page",
      GRAPH_LOGIN,
      "login_required",
      "Glassdoor answered with its sign-in page",
    ],
    [
      "an error envelope from the JSON call",
      GRAPH_ERROR,
      "publisher_error",
      "Glassdoor JSON call: GraphQL error (Internal server error)",
    ],
    [
      "a changed envelope of the JSON call",
      GRAPH_CHANGED,
      "publisher_error",
      "Glassdoor JSON call: the answer has no data.employerReviews",
    ],
    [
      "a JSON call answering another page than asked",
      GRAPH_PAGE_ONE,
      "publisher_error",
      "Glassdoor JSON call: asked for page 2, answered page 1",
    ],
  ])(
    "keeps page 1 and completes incomplete behind %s, and logs why",
    async (_, employer, reason, message) => {
      const warn = vi.spyOn(console, "warn");
      const task = await submitScrape("glassdoor.com", reviewsUrl(employer));
      await queue().drain();
      const body = await retrieve(task);
      expect(body.task_status).toBe(200);
      expect(body.reviews.length).toBeGreaterThan(0);
      expect(body.coverage).toMatchObject({ complete: false, stop_reason: `${reason}: ${message}` });
      expect(failureDetails(warn, task.taskId)).toContain(message);
    },
  );
});
