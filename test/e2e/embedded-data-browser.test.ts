/**
 * The generic module in Chromium (the real Browser Rendering binding): reviews that reach the page
 * only as JSON answers of its own requests after load, in batches behind a "Show more reviews"
 * button, with the page's network rules kept for every request the reader's presses cause.
 */
import { afterEach, describe, expect, inject, it } from "vitest";
import { QueueDriver } from "../helpers/queue";
import { XHR_BATCH, XHR_REVIEWS } from "../fixtures/embedded-sites";
import { expectedEmbedded } from "./embedded-support";
import { fixtureRequests, newestFirst, retrieve, slug, submitScrape } from "./support";

let queue: QueueDriver;
afterEach(() => queue.restore());

const privateOrigin = inject("unmappedOrigins")["private.internal"];

describe("generic module: reviews that arrive only by XHR after load", () => {
  it("records the page's JSON answers while it loads and while the reader presses 'Show more reviews', and reads every batch", async () => {
    queue = new QueueDriver();
    const path = `/biz/${slug("xhr")}`;
    const profile = `https://xhrreviews.test${path}`;
    const before = await fixtureRequests("xhrreviews.test", "/api/reviews");
    const task = await submitScrape("xhrreviews.test", profile);
    await queue.drain();

    const body = await retrieve(task);
    expect(body.task_status).toBe(200);
    expect(body.reviews).toEqual(newestFirst(XHR_REVIEWS.map((r) => expectedEmbedded(r, profile))));
    // The last answer says no more follow and the stated total was reached: complete.
    expect(body.coverage).toEqual({
      publisher_total: XHR_REVIEWS.length,
      collected: XHR_REVIEWS.length,
      complete: true,
      stop_reason: null,
    });
    // The plain GET found nothing, the render loaded batch 1 and pressed the button for the others.
    expect(await fixtureRequests("xhrreviews.test", path)).toEqual({ [path]: 2 });
    const after = await fixtureRequests("xhrreviews.test", "/api/reviews");
    const batches = XHR_REVIEWS.length / XHR_BATCH;
    for (let n = 1; n <= batches; n++) {
      const key = `/api/reviews?page=${n}`;
      expect((after[key] ?? 0) - (before[key] ?? 0), key).toBe(1);
    }
    expect(after[`/api/reviews?page=${batches + 1}`]).toBeUndefined();
  });

  it("keeps the network rules for requests a press causes: a fetch to an unmapped loopback port is refused, the reviews are still read", async () => {
    queue = new QueueDriver({ settings: { ALLOW_PRIVATE_NETWORK: "false" } });
    const secret = `/secret/${slug("xhr-press")}`;
    const profile = new URL(
      `https://xhrreviews.test/biz/${slug("xhr-ssrf")}?to=${encodeURIComponent(`${privateOrigin}${secret}`)}`,
    ).toString();
    const task = await submitScrape("xhrreviews.test", profile);
    await queue.drain();
    expect((await retrieve(task)).reviews).toEqual(
      newestFirst(XHR_REVIEWS.map((r) => expectedEmbedded(r, profile))),
    );
    const res = await fetch(`${privateOrigin}/__requests?prefix=${encodeURIComponent(secret)}`);
    expect(await res.json()).toEqual({});
  });
});
