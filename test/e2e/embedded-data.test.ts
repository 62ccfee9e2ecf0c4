/**
 * The generic module on pages that carry their reviews only as JSON for their own scripts, on
 * domains no module knows: submit → queue → the real consumer → retrieve, through the Worker.
 */
import { describe, expect, it } from "vitest";
import { queuePerTest } from "../helpers/queue";
import {
  APOLLO_REVIEWS,
  INITIAL_STATE_REVIEWS,
  INITIAL_STATE_TOTAL,
  MIXED_REVIEWS,
  NEXT_DATA_REVIEWS,
  NUMBERED_REVIEWS,
  RSC_REVIEWS,
} from "../fixtures/embedded-sites";
import { expectedEmbedded } from "./embedded-support";
import { fixtureRequests, newestFirst, retrieve, slug, submitScrape } from "./support";

const queue = queuePerTest();

async function scrape(domain: string, path: string) {
  const profile = `https://${domain}${path}`;
  const task = await submitScrape(domain, profile);
  await queue().drain();
  return { profile, body: await retrieve(task) };
}

describe("generic module: reviews in the page's embedded JSON", () => {
  it("reads Next.js __NEXT_DATA__ props, the owner's nested reply included, from the plain GET alone", async () => {
    const path = `/biz/${slug("nextdata")}`;
    const { profile, body } = await scrape("nextdata.test", path);
    expect(body.task_status).toBe(200);
    expect(body.reviews).toEqual(newestFirst(NEXT_DATA_REVIEWS.map((r) => expectedEmbedded(r, profile))));
    expect(body.reviews[0].owner_reply).toEqual({
      text: "Thank you, see you soon!",
      posted_at: expect.any(Number),
    });
    expect(body.coverage).toEqual({ publisher_total: 3, collected: 3, complete: true, stop_reason: null });
    // The reviews were in the HTML: no browser render was needed.
    expect(await fixtureRequests("nextdata.test", path)).toEqual({ [path]: 1 });
  });

  it("reads an Apollo cache, resolving __ref links from the query through the connection's edges to reviews and their authors", async () => {
    const { profile, body } = await scrape("apollostate.test", `/biz/${slug("apollo")}`);
    expect(body.reviews).toEqual(
      newestFirst(APOLLO_REVIEWS.map((r, i) => expectedEmbedded(r, profile, `u${i + 1}`))),
    );
    expect(body.coverage).toMatchObject({ publisher_total: 4, collected: 4, complete: true });
  });

  it("reads a window.__INITIAL_STATE__ assignment (scores out of 10, epoch-millisecond dates) among other scripts", async () => {
    const { profile, body } = await scrape("initialstate.test", `/complete/${slug("state")}`);
    expect(body.reviews).toEqual(newestFirst(INITIAL_STATE_REVIEWS.map((r) => expectedEmbedded(r, profile))));
    expect(body.coverage).toEqual({ publisher_total: 3, collected: 3, complete: true, stop_reason: null });
  });

  it("says in coverage that the walk is incomplete when the data states more reviews and a next cursor but the page links to no next page", async () => {
    const { profile, body } = await scrape("initialstate.test", `/biz/${slug("state-more")}`);
    expect(body.reviews).toEqual(newestFirst(INITIAL_STATE_REVIEWS.map((r) => expectedEmbedded(r, profile))));
    expect(body.coverage).toEqual({
      publisher_total: INITIAL_STATE_TOTAL,
      collected: INITIAL_STATE_REVIEWS.length,
      complete: false,
      stop_reason: expect.stringMatching(/^limited_view: the page's data says more reviews follow/),
    });
  });

  it("reads an App Router flight payload (self.__next_f), joining its chunks and resolving a long text sent as a text row", async () => {
    const { profile, body } = await scrape("rscpayload.test", `/biz/${slug("rsc")}`);
    expect(body.reviews).toEqual(newestFirst(RSC_REVIEWS.map((r) => expectedEmbedded(r, profile))));
    expect(body.reviews.map((r: { text: string }) => r.text)).toContain("$5 flat white, worth every cent.");
  });
});

describe("generic module: paging", () => {
  it("follows a numbered pager link (?page=2) to the same address when the page has no rel=next, and nothing else", async () => {
    const path = `/biz/${slug("numbered")}`;
    const { profile, body } = await scrape("numberedpages.test", path);
    expect(body.reviews).toEqual(
      newestFirst([
        ...NUMBERED_REVIEWS.slice(0, 2).map((r) => expectedEmbedded(r, profile)),
        ...NUMBERED_REVIEWS.slice(2).map((r) => expectedEmbedded(r, `${profile}?page=2`)),
      ]),
    );
    expect(await fixtureRequests("numberedpages.test", path)).toEqual({ [path]: 1, [`${path}?page=2`]: 1 });
    expect(await fixtureRequests("numberedpages.test", "/search")).toEqual({});
  });
});

describe("generic module: precision on pages with ratings that are not reviews", () => {
  it("takes nothing from products, a menu, nearby places and bare star ratings: none has a review's text and date", async () => {
    const path = `/biz/${slug("products")}`;
    const { body } = await scrape("productlist.test", path);
    expect(body.task_status).toBe(200);
    expect(body.reviews).toEqual([]);
    // Nothing in the HTML, so the page was rendered too, and nothing there either.
    expect(await fixtureRequests("productlist.test", path)).toEqual({ [path]: 2 });
  });

  it("takes only the reviews from a page carrying the same lists and a list of reviews", async () => {
    const { profile, body } = await scrape("productlist.test", `/mixed/${slug("mixed")}`);
    expect(body.reviews).toEqual(newestFirst(MIXED_REVIEWS.map((r) => expectedEmbedded(r, profile))));
  });
});
