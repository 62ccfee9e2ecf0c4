/**
 * SSRF through the browser (and the plain GET before it), with private networks off. The profile is a fixture site on loopback
 * reached through PUBLISHER_ORIGINS (an origin the operator configured, so trusted); what the
 * rendered page then asks the browser to reach is judged on the address it would really go to.
 * An unmapped loopback service's own request log proves it was never contacted.
 */
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import { QueueDriver } from "../helpers/queue";
import { MULTIPAGE } from "../fixtures/reviews";
import { expectedReview, fixtureRequests, newestFirst, retrieve, slug, submitScrape } from "./support";

const privateOrigin = inject("unmappedOrigins")["private.internal"];

async function privateRequests(prefix: string): Promise<Record<string, number>> {
  const res = await fetch(`${privateOrigin}/__requests?prefix=${encodeURIComponent(prefix)}`);
  return await res.json<Record<string, number>>();
}

let queue: QueueDriver;
beforeEach(() => {
  queue = new QueueDriver({ settings: { ALLOW_PRIVATE_NETWORK: "false" } });
});
afterEach(() => queue.restore());

const failed = (reason: string) => [
  { status: "failed", message: "Task processing failed", task_status: 500, reason },
];

describe("a rendered page reaching for private hosts (private networks off)", () => {
  it("the mapped fixture origin itself is trusted: a script-rendered profile is scraped", async () => {
    const path = `/biz/${slug("trusted")}/fetch`;
    const profile = new URL(
      `https://cloaked.test${path}?to=${encodeURIComponent("https://cloaked.test/nothing")}`,
    ).toString();
    const task = await submitScrape("cloaked.test", profile);
    await queue.drain();
    expect((await retrieve(task)).reviews).toEqual(
      newestFirst(MULTIPAGE.slice(0, 2).map((r) => expectedReview(r, profile))),
    );
    expect(await fixtureRequests("cloaked.test", "/nothing")).toEqual({ "/nothing": 1 });
  });

  it.each([
    ["an unmapped loopback port", (secret: string) => `${privateOrigin}${secret}`],
    ["localhost", (secret: string) => `http://localhost:${new URL(privateOrigin).port}${secret}`],
  ])(
    "an HTTP 302 of the browser's page load to %s fails the task with profile_not_found, never reaching it",
    async (_name, privateUrl) => {
      const secret = `/secret/${slug("redirect")}`;
      const path = `/biz/${slug("redirect")}/redirect`;
      const task = await submitScrape(
        "cloaked.test",
        `https://cloaked.test${path}?to=${encodeURIComponent(privateUrl(secret))}`,
      );
      await queue.drain();
      expect((await retrieve(task)).response_message).toEqual(failed("profile_not_found"));
      // The plain GET got the page, the browser's load got the redirect.
      expect(Object.values(await fixtureRequests("cloaked.test", path))).toEqual([2]);
      expect(await privateRequests(secret)).toEqual({});
    },
  );

  it("an HTTP 302 of the plain GET from the mapped site to an unmapped loopback port fails with profile_not_found, never reaching it", async () => {
    const secret = `/secret/${slug("moved")}`;
    const path = `/biz/${slug("moved")}/moved`;
    const task = await submitScrape(
      "cloaked.test",
      `https://cloaked.test${path}?to=${encodeURIComponent(`${privateOrigin}${secret}`)}`,
    );
    await queue.drain();
    expect((await retrieve(task)).response_message).toEqual(failed("profile_not_found"));
    expect(Object.values(await fixtureRequests("cloaked.test", path))).toEqual([1]);
    expect(await privateRequests(secret)).toEqual({});
  });

  it("an HTTP 302 of the browser's page load to the metadata address fails with profile_not_found (refused, not unreachable)", async () => {
    const path = `/biz/${slug("metadata")}/redirect`;
    const task = await submitScrape(
      "cloaked.test",
      `https://cloaked.test${path}?to=${encodeURIComponent("http://169.254.169.254/latest/meta-data/")}`,
    );
    await queue.drain();
    expect((await retrieve(task)).response_message).toEqual(failed("profile_not_found"));
  });

  it.each(["location", "refresh", "fetch", "script", "frame"])(
    "a page whose %s reaches for an unmapped loopback port keeps its own reviews, and the port is never contacted",
    async (mode) => {
      const secret = `/secret/${slug(mode)}`;
      const profile = new URL(
        `https://cloaked.test/biz/${slug(mode)}/${mode}?to=${encodeURIComponent(`${privateOrigin}${secret}`)}`,
      ).toString();
      const task = await submitScrape("cloaked.test", profile);
      await queue.drain();
      expect((await retrieve(task)).reviews).toEqual(
        newestFirst(MULTIPAGE.slice(0, 2).map((r) => expectedReview(r, profile))),
      );
      expect(await privateRequests(secret)).toEqual({});
    },
  );
});
