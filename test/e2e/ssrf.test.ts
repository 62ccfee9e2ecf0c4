/**
 * SSRF through the scraper, with the deployed settings (private networks off, no PUBLISHER_ORIGINS):
 * a public-looking publisher (answered by MSW, which intercepts the Worker's fetch in this isolate)
 * redirects, or links its next page, to a loopback fixture site. The fixture site's own request
 * log proves the private host was never reached.
 */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { QueueDriver } from "../helpers/queue";
import { MULTIPAGE } from "../fixtures/reviews";
import {
  expectedReview,
  fixtureRequests,
  newestFirst,
  origins,
  retrieve,
  slug,
  submitScrape,
} from "./support";

// Requests MSW has no handler for (the fixture sites' request logs, the OpenAPI validator) pass through.
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "bypass" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

let queue: QueueDriver;
beforeEach(() => {
  queue = new QueueDriver({ settings: { ALLOW_PRIVATE_NETWORK: "false", PUBLISHER_ORIGINS: "" } });
});
afterEach(() => queue.restore());

const failed = (reason: string) => [
  { status: "failed", message: "Task processing failed", task_status: 500, reason },
];

const jsonLdPage = (reviews: typeof MULTIPAGE, head = "") =>
  `<!doctype html><html lang="en"><head><script type="application/ld+json">${JSON.stringify({
    "@context": "https://schema.org",
    "@type": "LocalBusiness",
    name: "Blue Door Cafe",
    review: reviews.map((r) => ({
      "@type": "Review",
      "@id": r.id,
      author: { "@type": "Person", name: r.author },
      reviewRating: { "@type": "Rating", ratingValue: r.rating, bestRating: 5 },
      reviewBody: r.text,
      datePublished: r.date,
    })),
  })}</script>${head}</head><body><h1>Blue Door Cafe</h1></body></html>`;

describe("redirects to private hosts (deployed settings)", () => {
  const loopback = (path: string) => new URL(path, origins["multipage.test"]);

  it.each([
    ["a loopback address", (path: string) => loopback(path).toString()],
    ["localhost", (path: string) => `http://localhost:${loopback(path).port}${path}`],
    [
      "a loopback address, on the second hop",
      (path: string) => `https://redirector-ssrf.com/hop?to=${encodeURIComponent(loopback(path).toString())}`,
    ],
  ])(
    "a profile redirecting to %s fails with profile_not_found and never reaches it",
    async (_name, privateUrl) => {
      const path = `/biz/${slug("ssrf")}`;
      const hops: string[] = [];
      server.use(
        http.get(
          "https://redirector-ssrf.com/biz/*",
          ({ request }) => (
            hops.push(request.url),
            new HttpResponse(null, { status: 302, headers: { Location: privateUrl(path) } })
          ),
        ),
        http.get("https://redirector-ssrf.com/hop", ({ request }) => {
          hops.push(request.url);
          return new HttpResponse(null, {
            status: 301,
            headers: { Location: new URL(request.url).searchParams.get("to")! },
          });
        }),
      );
      const task = await submitScrape("redirector-ssrf.com", `https://redirector-ssrf.com${path}`);
      await queue.drain();
      expect((await retrieve(task)).response_message).toEqual(failed("profile_not_found"));
      expect(hops[0]).toBe(`https://redirector-ssrf.com${path}`);
      expect(await fixtureRequests("multipage.test", path)).toEqual({});
    },
  );
});

describe("next links off the publisher's domain (deployed settings)", () => {
  it("are not followed, whether they point at a private host or another site", async () => {
    const path = `/biz/${slug("next")}`;
    const elsewhere: string[] = [];
    for (const [host, next] of [
      ["nextlink-ssrf.com", new URL(`${path}?page=2`, origins["multipage.test"]).toString()],
      ["nextlink2-ssrf.com", `https://other-site-ssrf.com${path}?page=2`],
    ]) {
      server.use(
        http.get(`https://${host}/biz/*`, () =>
          HttpResponse.html(jsonLdPage(MULTIPAGE.slice(0, 3), `<link rel="next" href="${next}">`)),
        ),
        http.get(
          "https://other-site-ssrf.com/*",
          ({ request }) => (
            elsewhere.push(request.url),
            HttpResponse.html(jsonLdPage(MULTIPAGE.slice(3, 6)))
          ),
        ),
      );
      const profile = `https://${host}${path}`;
      const task = await submitScrape(host, profile);
      await queue.drain();
      // Completed with the profile page's reviews only.
      expect((await retrieve(task)).reviews, host).toEqual(
        newestFirst(MULTIPAGE.slice(0, 3).map((r) => expectedReview(r, profile))),
      );
    }
    expect(await fixtureRequests("multipage.test", path)).toEqual({});
    expect(elsewhere).toEqual([]);
  });
});
