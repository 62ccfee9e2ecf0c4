/**
 * The browser route: pages load in Browser Rendering and API calls run inside the loaded page, so
 * they carry the page's own cookies and the browser's own headers. Needs Chromium (npm run
 * setup:browser).
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { PublisherClient } from "../../src/scraping/client";
import { PROVIDER_SECRETS, WALLED_DOMAIN } from "./keys";

const clients: PublisherClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function browserClient(extra: Record<string, string> = {}) {
  const client = new PublisherClient(
    { ...env, FETCH_ROUTES: JSON.stringify({ "*": ["browser"] }), ...extra },
    {
      publisherKey: WALLED_DOMAIN,
      cookies: [{ name: "login", value: "L1", domain: WALLED_DOMAIN }],
      deadline: Date.now() + 60_000,
    },
  );
  clients.push(client);
  return client;
}

type Echo = { method: string; headers: Record<string, string>; body: string };

describe("browser route", () => {
  it("runs an API call inside the loaded page: the page's cookies, Chrome's own fetch headers, the adapter's headers and body", async () => {
    const run = browserClient();
    // A page load sets a cookie in the browser (not in the Worker's jar)...
    const page = await run.request(`https://${WALLED_DOMAIN}/set-cookie`);
    expect(page.rendered).toBe(true);
    // ...and the API call made from the page carries it, with the login cookie.
    const { data } = await run.json(`https://${WALLED_DOMAIN}/echo`, {
      method: "POST",
      json: { page: 2 },
      headers: { "X-Csrf-Token": "t-1" },
    });
    const echo = data as Echo;
    expect(echo.method).toBe("POST");
    expect(echo.body).toBe('{"page":2}');
    expect(echo.headers["content-type"]).toBe("application/json");
    expect(echo.headers["x-csrf-token"]).toBe("t-1");
    expect(echo.headers.cookie?.split("; ").sort()).toEqual(["login=L1", "sid=run-session-1"]);
    // Chrome's fetch from the page, not a Worker request.
    expect(echo.headers["sec-fetch-mode"]).toBe("cors");
    expect(echo.headers["user-agent"]).toMatch(/Chrome\//);
    expect(echo.headers["x-forwarded-host"]).toBe(WALLED_DOMAIN);
    expect(run.requestCounts).toEqual({ direct: 0, browser: 2, provider: 0 });
  });

  it("an API call with no page of its origin open loads its Referer first, then fetches from it", async () => {
    const run = browserClient();
    const { data } = await run.json(`https://${WALLED_DOMAIN}/echo`, {
      headers: { Referer: `https://${WALLED_DOMAIN}/set-cookie` },
    });
    expect((data as Echo).headers.cookie?.split("; ").sort()).toEqual(["login=L1", "sid=run-session-1"]);
  });

  it("a bot wall on the page is blocked, and falls through to the next route", async () => {
    await expect(browserClient().request(`https://${WALLED_DOMAIN}/page/wall`)).rejects.toMatchObject({
      reason: "blocked",
    });
    const run = browserClient({
      ...PROVIDER_SECRETS,
      FETCH_ROUTES: JSON.stringify({ "*": ["browser", "provider:zyte"] }),
    });
    const page = await run.request(`https://${WALLED_DOMAIN}/page/wall`);
    expect(page.text).toContain("Walled Cafe");
    expect(page.rendered).toBe(false);
    expect(run.requestCounts).toEqual({ direct: 0, browser: 1, provider: 1 });
  });

  it("refuses a private target while private networks are off", async () => {
    await expect(
      browserClient({ ALLOW_PRIVATE_NETWORK: "false" }).request("http://10.0.0.7/admin"),
    ).rejects.toMatchObject({
      reason: "profile_not_found",
    });
  });
});
