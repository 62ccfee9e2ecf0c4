/**
 * A PublisherClient stand-in that answers from a fixture site in-process (redirects followed, 4xx
 * refused, the adapter's own page check run), so a test can call an adapter's `page` and look at
 * what it returns beyond the reviews (`publisherTotal`, `limitedView`, `next`). The end-to-end tests
 * go through the real client; this one is only for reading an adapter's page hints.
 */
import type { PageInspector, PublisherClient, RequestOptions } from "../../src/scraping/client";
import { permanentError } from "../../src/scraping/errors";
import type { ScrapeContext } from "../../src/publishers/types";
import type { PublisherFixture } from "../fixtures/sites";

export function fixtureContext(
  fixture: PublisherFixture,
  publisherKey: string,
  inspect?: PageInspector,
  /** Login cookies sent with every request, as the real client sends a task's persona cookies. */
  loginCookie?: string,
): ScrapeContext {
  // The cookies the site set (name and value, any host), sent back after the adapter's own, as the
  // real client's jar does; enough for a module that opens a page to carry its session.
  const jar = new Map<string, { name: string; value: string; domain: string }>();
  async function request(target: URL | string, options: RequestOptions = {}) {
    let url = new URL(target);
    for (let hop = 0; hop < 6; hop++) {
      // Bodies and their content types as the real client sends them (src/scraping/client.ts).
      const contentType: Record<string, string> =
        options.json !== undefined
          ? { "content-type": "application/json" }
          : options.form
            ? { "content-type": "application/x-www-form-urlencoded" }
            : {};
      const headers: Record<string, string> = {
        ...contentType,
        ...Object.fromEntries(Object.entries(options.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
      };
      const body =
        options.json !== undefined
          ? JSON.stringify(options.json)
          : options.form
            ? new URLSearchParams(options.form).toString()
            : (options.body ?? "");
      const answer = fixture.site({
        url,
        host: url.host,
        method: options.method ?? "GET",
        headers,
        body,
        cookie: [headers.cookie, loginCookie, ...[...jar.values()].map((c) => `${c.name}=${c.value}`)]
          .filter(Boolean)
          .join("; "),
        count: 1,
      });
      const setCookie = answer.headers?.["Set-Cookie"];
      const pair = setCookie ? /^([^=;\s]+)=([^;]*)/.exec(setCookie) : null;
      if (pair) jar.set(pair[1], { name: pair[1], value: pair[2], domain: url.hostname });
      const location = answer.headers?.Location;
      if (answer.status >= 300 && answer.status < 400 && location) {
        url = new URL(location, url);
        continue;
      }
      if (answer.status >= 400)
        throw permanentError(
          answer.status === 404 ? "profile_not_found" : "blocked",
          `Publisher answered ${answer.status}`,
        );
      const page = {
        url,
        status: answer.status,
        headers: new Headers(answer.headers),
        text: answer.body,
        rendered: false,
      };
      const error = inspect ? await inspect(page) : null;
      if (error) throw error;
      return page;
    }
    throw permanentError("publisher_error", "too many redirects");
  }
  const client = {
    request,
    jarSnapshot: () => [...jar.values()],
    // Login cookies are sent to every host of the fixture, as a task's persona cookies for its publisher.
    hasCookiesFor: () => Boolean(loginCookie),
    async json(target: URL | string, options: RequestOptions = {}) {
      const page = await request(target, options);
      // The real client drops an XSSI guard (`)]}'`) before parsing, as Google's answers need.
      return { url: page.url, data: JSON.parse(page.text.replace(/^\s*\)\]\}'[^\n]*\n?/, "")) as unknown };
    },
  };
  return { publisherKey, client: client as unknown as PublisherClient };
}
