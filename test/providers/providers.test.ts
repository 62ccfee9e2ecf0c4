/**
 * The provider routes against their local fakes (test/providers/fakes.ts), through the real
 * PublisherClient: the exact request each provider receives, the publisher's answer relayed back
 * (method, body, headers and cookies reaching the fixture site), the error mapping, retries,
 * fallthrough from route to route, the network rules, and that the key shows in no error.
 */
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { PublisherClient } from "../../src/scraping/client";
import { ScrapeError } from "../../src/scraping/errors";
import type { ReceivedRequest } from "./fakes";
import { FAKE_BRIGHTDATA_ZONE, FAKE_KEYS, PROVIDER_SECRETS, WALLED_DOMAIN } from "./keys";

const providerOrigins = inject("providerOrigins");
type Provider = keyof typeof FAKE_KEYS;
const PROVIDERS = Object.keys(FAKE_KEYS) as Provider[];

function routedEnv(routes: Record<string, string[]>, extra: Record<string, string> = {}): Env {
  return { ...env, ...PROVIDER_SECRETS, FETCH_ROUTES: JSON.stringify(routes), ...extra };
}

function client(routes: Record<string, string[]>, extra: Record<string, string> = {}) {
  return new PublisherClient(routedEnv(routes, extra), {
    publisherKey: "echo.test",
    cookies: [{ name: "sid", value: "login-cookie-1", domain: ".echo.test" }],
    deadline: Date.now() + 60_000,
  });
}

/** What a fake received for target URLs containing `marker`. */
async function received(provider: Provider, marker: string): Promise<ReceivedRequest[]> {
  const res = await fetch(`${providerOrigins[provider]}/__received?contains=${encodeURIComponent(marker)}`);
  return await res.json<ReceivedRequest[]>();
}

async function failure(promise: Promise<unknown>): Promise<ScrapeError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ScrapeError) return err;
    throw err;
  }
  throw new Error("expected a ScrapeError");
}

const marker = () => crypto.randomUUID().slice(0, 8);

describe("provider:zyte", () => {
  it("POSTs /v1/extract with basic auth (key, empty password) and the forwarded method, body, headers and cookies", async () => {
    const m = marker();
    const { data } = await client({ "*": ["provider:zyte"] }).json(
      `https://api.echo.test/graphql/${m}?op=Reviews`,
      {
        method: "POST",
        json: { variables: { offset: 10 } },
        headers: { Referer: "https://www.echo.test/biz/1" },
      },
    );
    expect(data).toEqual({
      method: "POST",
      host: "api.echo.test",
      path: `/graphql/${m}?op=Reviews`,
      cookie: "sid=login-cookie-1",
      contentType: "application/json",
      forwardedHost: "api.echo.test",
      body: '{"variables":{"offset":10}}',
    });
    const [request, ...more] = await received("zyte", m);
    expect(more).toEqual([]);
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/extract");
    expect(request.headers.authorization).toBe(`Basic ${btoa(`${FAKE_KEYS.zyte}:`)}`);
    expect(request.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(request.body);
    expect(body).toEqual({
      url: `https://api.echo.test/graphql/${m}?op=Reviews`,
      httpResponseBody: true,
      httpResponseHeaders: true,
      followRedirect: false,
      httpRequestMethod: "POST",
      httpRequestText: '{"variables":{"offset":10}}',
      customHttpRequestHeaders: expect.arrayContaining([
        { name: "content-type", value: "application/json" },
        { name: "accept", value: "application/json" },
        { name: "referer", value: "https://www.echo.test/biz/1" },
      ]),
      requestCookies: [{ name: "sid", value: "login-cookie-1", domain: "api.echo.test" }],
    });
  });

  it("hands redirects back (followRedirect false) and follows them itself, each hop a provider request", async () => {
    const { data } = await client({ "*": ["provider:zyte"] }).json("https://echo.test/redirect-post", {
      method: "POST",
      form: { a: "1" },
    });
    expect(data).toMatchObject({ method: "POST", path: "/echo-after-redirect", body: "a=1" });
    const hops = await received("zyte", "echo.test/redirect-post");
    expect(hops.length).toBeGreaterThanOrEqual(1);
    expect((await received("zyte", "echo.test/echo-after-redirect")).length).toBeGreaterThanOrEqual(1);
  });

  it("maps 520 (website ban) to blocked, 402 to provider_error naming the provider and status, a bad key to provider_error", async () => {
    const banned = await failure(
      client({ "*": ["provider:zyte"] }).request(`https://echo.test/pban-${marker()}`),
    );
    expect(banned).toMatchObject({ reason: "blocked", transient: false });
    expect(banned.message).toMatch(/^zyte: 520 Website Ban/);
    const quota = await failure(
      client({ "*": ["provider:zyte"] }).request(`https://echo.test/pquota-${marker()}`),
    );
    expect(quota).toMatchObject({ reason: "provider_error", transient: false });
    expect(quota.message).toMatch(/^zyte: 402 Account credit exhausted/);
    const badKey = await failure(
      client({ "*": ["provider:zyte"] }, { ZYTE_API_KEY: "zk_wrong_key" }).request(
        `https://echo.test/${marker()}`,
      ),
    );
    expect(badKey).toMatchObject({ reason: "provider_error", transient: false });
    expect(badKey.message).toMatch(/^zyte: 401 Authentication Key Not Found/);
  });
});

describe("provider:brightdata", () => {
  it("POSTs /request with the Bearer key and {zone, url, format: raw, method, body}, and relays the publisher's status", async () => {
    const m = marker();
    const { data } = await client({ "*": ["provider:brightdata"] }).json(`https://api.echo.test/q/${m}`, {
      method: "POST",
      json: { page: 2 },
    });
    expect(data).toMatchObject({
      method: "POST",
      host: "api.echo.test",
      path: `/q/${m}`,
      body: '{"page":2}',
    });
    const [request, ...more] = await received("brightdata", m);
    expect(more).toEqual([]);
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/request");
    expect(request.headers.authorization).toBe(`Bearer ${FAKE_KEYS.brightdata}`);
    expect(JSON.parse(request.body)).toEqual({
      zone: FAKE_BRIGHTDATA_ZONE,
      url: `https://api.echo.test/q/${m}`,
      format: "raw",
      method: "POST",
      body: '{"page":2}',
    });
    // A publisher 404 comes back in x-brd-status-code, outer 200.
    await expect(
      client({ "*": ["provider:brightdata"] }).request(`https://${WALLED_DOMAIN}/gone/${m}`),
    ).rejects.toMatchObject({
      reason: "profile_not_found",
    });
  });

  it("maps reject_block to blocked, a policy 403 to provider_error, a bad key (401) to provider_error", async () => {
    const banned = await failure(
      client({ "*": ["provider:brightdata"] }).request(`https://echo.test/pban-${marker()}`),
    );
    expect(banned).toMatchObject({ reason: "blocked", transient: false });
    expect(banned.message).toMatch(/^brightdata: 502 reject_block/);
    const quota = await failure(
      client({ "*": ["provider:brightdata"] }).request(`https://echo.test/pquota-${marker()}`),
    );
    expect(quota).toMatchObject({ reason: "provider_error", transient: false });
    expect(quota.message).toMatch(/^brightdata: 403 policy_20050 Zone has no remaining balance/);
    const badKey = await failure(
      client({ "*": ["provider:brightdata"] }, { BRIGHTDATA_API_KEY: "bd_wrong" }).request(
        `https://echo.test/${marker()}`,
      ),
    );
    expect(badKey).toMatchObject({ reason: "provider_error" });
    expect(badKey.message).toMatch(/^brightdata: 401 Invalid API key/);
  });
});

describe("provider:scrapfly", () => {
  it("calls /scrape with the forwarded method, key, url-encoded target, headers[…] and the body as its own", async () => {
    const m = marker();
    const { data } = await client({ "*": ["provider:scrapfly"] }).json(
      `https://api.echo.test/gql/${m}?a=1&b=2`,
      {
        method: "POST",
        json: { q: "x" },
        headers: { "X-Csrf-Token": "tok-1" },
      },
    );
    expect(data).toMatchObject({
      method: "POST",
      path: `/gql/${m}?a=1&b=2`,
      body: '{"q":"x"}',
      cookie: "sid=login-cookie-1",
      contentType: "application/json",
    });
    const [request, ...more] = await received("scrapfly", m);
    expect(more).toEqual([]);
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/scrape");
    expect(request.query).toMatchObject({
      key: FAKE_KEYS.scrapfly,
      url: `https://api.echo.test/gql/${m}?a=1&b=2`,
      asp: "true",
      "headers[x-csrf-token]": "tok-1",
      "headers[accept]": "application/json",
      "headers[cookie]": "sid=login-cookie-1",
    });
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.body).toBe('{"q":"x"}');
  });

  it("maps ERR::ASP::SHIELD_PROTECTION_FAILED to blocked and QUOTA_LIMIT_REACHED to provider_error", async () => {
    const banned = await failure(
      client({ "*": ["provider:scrapfly"] }).request(`https://echo.test/pban-${marker()}`),
    );
    expect(banned).toMatchObject({ reason: "blocked" });
    expect(banned.message).toMatch(/^scrapfly: 422 ERR::ASP::SHIELD_PROTECTION_FAILED/);
    const quota = await failure(
      client({ "*": ["provider:scrapfly"] }).request(`https://echo.test/pquota-${marker()}`),
    );
    expect(quota).toMatchObject({ reason: "provider_error", transient: false });
    expect(quota.message).toMatch(/^scrapfly: 429 ERR::SCRAPE::QUOTA_LIMIT_REACHED/);
  });
});

describe("every provider", () => {
  it.each(PROVIDERS)(
    "%s: a 5xx is retried with backoff and then goes through; one that persists is a transient provider_error",
    async (provider) => {
      const flaky = marker();
      const page = await client({ "*": [`provider:${provider}`] }).request(
        `https://echo.test/pflaky-${flaky}`,
      );
      expect(page.status).toBe(200);
      expect(await received(provider, `pflaky-${flaky}`)).toHaveLength(2);
      const down = marker();
      const error = await failure(
        client({ "*": [`provider:${provider}`] }).request(`https://echo.test/pdown-${down}`),
      );
      expect(error).toMatchObject({ reason: "provider_error", transient: true });
      expect(error.message.startsWith(`${provider}: `)).toBe(true);
      expect(await received(provider, `pdown-${down}`)).toHaveLength(3);
    },
  );

  it.each(PROVIDERS)(
    "%s: a wrong key never appears in the error, and the right one in no error either",
    async (provider) => {
      const secret = { zyte: "ZYTE_API_KEY", brightdata: "BRIGHTDATA_API_KEY", scrapfly: "SCRAPFLY_API_KEY" }[
        provider
      ];
      const wrong = `wrong-${provider}-key-${marker()}`;
      const errors = [
        await failure(
          client({ "*": [`provider:${provider}`] }, { [secret]: wrong }).request(
            `https://echo.test/${marker()}`,
          ),
        ),
        await failure(
          client({ "*": [`provider:${provider}`] }).request(`https://echo.test/pquota-${marker()}`),
        ),
        await failure(
          client({ "*": [`provider:${provider}`] }).request(`https://echo.test/pban-${marker()}`),
        ),
      ];
      for (const error of errors) {
        expect(error.message).not.toContain(wrong);
        expect(error.message).not.toContain(btoa(`${wrong}:`));
        expect(error.message).not.toContain(FAKE_KEYS[provider]);
        expect(error.message).not.toContain(btoa(`${FAKE_KEYS[provider]}:`));
      }
    },
  );

  it.each(PROVIDERS)(
    "%s: a private target is refused before the provider is asked while private networks are off",
    async (provider) => {
      const m = marker();
      const privateClient = client({ "*": [`provider:${provider}`] }, { ALLOW_PRIVATE_NETWORK: "false" });
      for (const url of [`http://10.1.2.3/${m}`, `http://[::1]/${m}`, `http://localhost/${m}`]) {
        await expect(privateClient.request(url)).rejects.toMatchObject({
          reason: "profile_not_found",
          message: expect.stringContaining("private host"),
        });
      }
      expect(await received(provider, m)).toEqual([]);
    },
  );
});

describe("page size through a provider", () => {
  it("a page within MAX_PAGE_BYTES is read through Zyte's larger base64 envelope; a larger page is refused", async () => {
    const page = `https://${WALLED_DOMAIN}/page/${marker()}`;
    const direct = await client({ "*": ["provider:zyte"] }).request(page);
    const size = new TextEncoder().encode(direct.text).byteLength;
    // The envelope is over the cap (base64 is 4/3 of the page), the page itself is not.
    const fits = await client({ "*": ["provider:zyte"] }, { MAX_PAGE_BYTES: String(size) }).request(page);
    expect(fits.text).toBe(direct.text);
    await expect(
      client({ "*": ["provider:zyte"] }, { MAX_PAGE_BYTES: String(size - 1) }).request(page),
    ).rejects.toMatchObject({
      reason: "publisher_error",
      message: `Page is larger than ${size - 1} bytes`,
    });
  });
});

describe("route fallthrough", () => {
  it("takes the next route when one answers blocked, and stays on it for the rest of the run", async () => {
    const walled = new PublisherClient(
      routedEnv({ [WALLED_DOMAIN]: ["direct", "provider:zyte", "provider:scrapfly"] }),
      {
        publisherKey: WALLED_DOMAIN,
        cookies: [],
        deadline: Date.now() + 60_000,
      },
    );
    const m = marker();
    const first = await walled.request(`https://${WALLED_DOMAIN}/page/${m}`);
    expect(first.text).toContain("Walled Cafe");
    const second = await walled.request(`https://${WALLED_DOMAIN}/page/${m}-2`);
    expect(second.text).toContain("Walled Cafe");
    // direct was refused once (403), then zyte answered both; scrapfly was never needed.
    expect(walled.requestCounts).toEqual({ direct: 1, browser: 0, provider: 2 });
    expect(await received("zyte", m)).toHaveLength(2);
    expect(await received("scrapfly", m)).toEqual([]);
  });

  it("goes past a provider that is blocked too, and fails blocked when the last route is", async () => {
    const m = marker();
    const routes = { "*": ["provider:zyte", "provider:brightdata", "provider:scrapfly"] };
    const page = await client(routes).request(`https://echo.test/pban_zyte-pban_brightdata-${m}`);
    expect(page.status).toBe(200);
    expect((await received("zyte", m)).length).toBe(1);
    expect((await received("brightdata", m)).length).toBe(1);
    expect((await received("scrapfly", m)).length).toBe(1);
    await expect(client(routes).request(`https://echo.test/pban-${marker()}`)).rejects.toMatchObject({
      reason: "blocked",
      message: expect.stringMatching(/^scrapfly: /),
    });
  });

  it("does not fall through on a provider_error: a spent credit fails at once", async () => {
    const m = marker();
    const routes = { "*": ["provider:zyte", "provider:scrapfly"] };
    await expect(client(routes).request(`https://echo.test/pquota_zyte-${m}`)).rejects.toMatchObject({
      reason: "provider_error",
    });
    expect(await received("scrapfly", m)).toEqual([]);
  });
});
