/** FETCH_ROUTES parsing (malformed values refused at the first read of the settings, missing secrets reported), the run's cookie jar and the direct route's headers. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PublisherClient } from "../../../src/scraping/client";
import { CookieJar } from "../../../src/scraping/routes/cookie-jar";
import { settings } from "../../../src/settings";
import { PROVIDER_SECRETS, WALLED_DOMAIN } from "../../providers/keys";

const withSettings = (extra: Record<string, string>) => ({ ...env, ...extra }) as Env;

describe("FETCH_ROUTES", () => {
  it("defaults to direct for every publisher and keeps a publisher's own ordered list", () => {
    expect(settings(withSettings({ FETCH_ROUTES: "" })).fetchRoutes).toEqual({ "*": ["direct"] });
    const routes = settings(
      withSettings({
        ...PROVIDER_SECRETS,
        FETCH_ROUTES: '{"Yelp.com": ["provider:zyte", "browser"], "*": ["direct", "provider:brightdata"]}',
      }),
    ).fetchRoutes;
    expect(routes).toEqual({
      "yelp.com": ["provider:zyte", "browser"],
      "*": ["direct", "provider:brightdata"],
    });
  });

  it("refuses an unknown provider or route, naming the setting", () => {
    expect(() => settings(withSettings({ FETCH_ROUTES: '{"*": ["provider:oxylabs"]}' }))).toThrow(
      'Invalid settings: FETCH_ROUTES: *.0: unknown provider "oxylabs" (known: zyte, brightdata, scrapfly)',
    );
    expect(() => settings(withSettings({ FETCH_ROUTES: '{"*": ["proxy"]}' }))).toThrow(
      /FETCH_ROUTES: \*\.0: unknown route "proxy"/,
    );
    expect(() => settings(withSettings({ FETCH_ROUTES: '{"yelp.com": []}' }))).toThrow(
      /FETCH_ROUTES: yelp\.com: needs at least one route/,
    );
    expect(() => settings(withSettings({ FETCH_ROUTES: "[direct]" }))).toThrow(/FETCH_ROUTES: must be JSON/);
  });

  it("reports a provider route whose secret (or Bright Data zone) is not set as incomplete, naming the secret and never a value, without failing the settings", () => {
    const zyte = settings(withSettings({ FETCH_ROUTES: '{"yelp.com": ["provider:zyte"]}' }));
    expect(zyte.fetchRoutes["yelp.com"]).toEqual(["provider:zyte"]);
    expect(zyte.incomplete.map((i) => i.detail)).toEqual([
      "FETCH_ROUTES: route provider:zyte needs the Worker secret ZYTE_API_KEY (wrangler secret put ZYTE_API_KEY; locally a line in .dev.vars); tasks routed there fail with provider_error",
    ]);
    // The public notice names neither the provider nor the secret.
    expect(zyte.incomplete[0].notice).not.toMatch(/zyte|ZYTE|KEY/);
    const brightdata = settings(
      withSettings({ FETCH_ROUTES: '{"*": ["provider:brightdata"]}', BRIGHTDATA_API_KEY: "bd-secret-value" }),
    );
    expect(brightdata.incomplete.map((i) => i.detail)).toEqual([
      "FETCH_ROUTES: route provider:brightdata needs the setting BRIGHTDATA_ZONE (the Web Unlocker zone name); tasks routed there fail with provider_error",
    ]);
    expect(JSON.stringify(brightdata.incomplete)).not.toContain("bd-secret-value");
    expect(
      settings(withSettings({ FETCH_ROUTES: '{"*": ["provider:scrapfly"]}', SCRAPFLY_API_KEY: "  " }))
        .incomplete[0].detail,
    ).toMatch(/SCRAPFLY_API_KEY/);
    expect(
      settings(withSettings({ ...PROVIDER_SECRETS, FETCH_ROUTES: '{"*": ["provider:zyte"]}' })).incomplete,
    ).toEqual([]);
  });

  it("turns operator alerts off, reported, when OPS_WEBHOOK_URL has no valid secret", () => {
    const off = settings(
      withSettings({ OPS_WEBHOOK_URL: "https://ops.example/hook", OPS_WEBHOOK_SECRET: "not-a-whsec" }),
    );
    expect(off.opsWebhook).toBeNull();
    expect(off.incomplete.map((i) => i.detail)).toEqual([
      expect.stringMatching(
        /^OPS_WEBHOOK_URL is set without a valid OPS_WEBHOOK_SECRET .*: operator alerts are off$/,
      ),
    ]);
    expect(off.incomplete[0].notice).toBe("Operator alerts are off: their signing secret is not set.");
  });

  it("PROVIDER_ORIGINS only names known providers", () => {
    expect(() => settings(withSettings({ PROVIDER_ORIGINS: '{"zenrows": "http://127.0.0.1:1"}' }))).toThrow(
      'Invalid settings: PROVIDER_ORIGINS: zenrows: unknown provider "zenrows" (known: zyte, brightdata, scrapfly)',
    );
    expect(
      settings(withSettings({ PROVIDER_ORIGINS: '{"zyte": "http://127.0.0.1:9/"}' })).providerOrigins,
    ).toEqual({ zyte: "http://127.0.0.1:9" });
  });
});

describe("CookieJar", () => {
  const headers = (...cookies: string[]) => {
    const h = new Headers();
    for (const c of cookies) h.append("Set-Cookie", c);
    return h;
  };

  it("sends host cookies to their host only, domain cookies to subdomains, by path, and drops expired ones", () => {
    const jar = new CookieJar();
    jar.store(
      new URL("https://www.booking.com/hotel/x.html"),
      headers("bkng=1; Path=/", "lang=en; Domain=.booking.com; Path=/", "deep=1; Path=/hotel/x"),
    );
    expect(jar.cookiesFor(new URL("https://www.booking.com/hotel/x/reviews"))).toEqual([
      { name: "deep", value: "1" },
      { name: "bkng", value: "1" },
      { name: "lang", value: "en" },
    ]);
    expect(jar.cookiesFor(new URL("https://secure.booking.com/"))).toEqual([{ name: "lang", value: "en" }]);
    expect(jar.cookiesFor(new URL("https://www.booking.com/hotelx"))).toEqual([
      { name: "bkng", value: "1" },
      { name: "lang", value: "en" },
    ]);
    jar.store(new URL("https://www.booking.com/"), headers("bkng=; Max-Age=0; Path=/"));
    expect(jar.cookiesFor(new URL("https://www.booking.com/")).map((c) => c.name)).toEqual(["lang"]);
  });

  it("refuses cookies for another site or a bare public suffix, and stays bounded", () => {
    const jar = new CookieJar();
    jar.store(
      new URL("https://www.yelp.com/"),
      headers("a=1; Domain=evil.com", "b=1; Domain=com", "c=1; Domain=.yelp.com"),
    );
    expect(jar.cookiesFor(new URL("https://evil.com/"))).toEqual([]);
    expect(jar.size).toBe(1);
    for (let i = 0; i < 80; i++) jar.store(new URL("https://www.yelp.com/"), headers(`n${i}=v; Path=/`));
    expect(jar.size).toBe(50);
  });
});

describe("direct route", () => {
  const client = () =>
    new PublisherClient(env, {
      publisherKey: WALLED_DOMAIN,
      cookies: [{ name: "login", value: "L1", domain: WALLED_DOMAIN }],
      deadline: Date.now() + 60_000,
    });

  it("sends a complete, consistent Chrome header set, never the self-declared bot agent", async () => {
    const { data } = await client().json(`https://${WALLED_DOMAIN}/echo`);
    const sent = (data as { headers: Record<string, string> }).headers;
    expect(sent["user-agent"]).toMatch(
      /^Mozilla\/5\.0 \(Windows NT 10\.0; Win64; x64\) AppleWebKit\/537\.36 \(KHTML, like Gecko\) Chrome\/131\.0\.0\.0 Safari\/537\.36$/,
    );
    expect(sent["sec-ch-ua"]).toContain('v="131"');
    expect(sent["sec-ch-ua-platform"]).toBe('"Windows"');
    expect(sent["accept-language"]).toBe("en-US,en;q=0.9");
    // json() is an API call: Chrome's fetch headers, the adapter's Accept.
    expect(sent).toMatchObject({
      accept: "application/json",
      "sec-fetch-mode": "cors",
      "sec-fetch-dest": "empty",
    });
    const page = await client().request(`https://${WALLED_DOMAIN}/echo`);
    const navigation = (JSON.parse(page.text) as { headers: Record<string, string> }).headers;
    expect(navigation).toMatchObject({
      "sec-fetch-mode": "navigate",
      "sec-fetch-dest": "document",
      "upgrade-insecure-requests": "1",
    });
    expect(navigation.accept).toMatch(/^text\/html/);
  });

  it("sends the cookies the publisher set on the run's later requests, after the login cookies, and forgets them with the run", async () => {
    const run = client();
    await run.request(`https://${WALLED_DOMAIN}/set-cookie`);
    await run.request(`https://${WALLED_DOMAIN}/set-domain-cookie`);
    const { data } = await run.json(`https://www.${WALLED_DOMAIN}/echo`);
    // The host cookie stays on walled.test; the domain cookie (like the login cookie) reaches www.
    expect((data as { headers: Record<string, string> }).headers.cookie).toBe("login=L1; consent=yes");
    const same = await run.json(`https://${WALLED_DOMAIN}/echo`);
    expect((same.data as { headers: Record<string, string> }).headers.cookie).toBe(
      "login=L1; sid=run-session-1; consent=yes",
    );
    const nextRun = await client().json(`https://${WALLED_DOMAIN}/echo`);
    expect((nextRun.data as { headers: Record<string, string> }).headers.cookie).toBe("login=L1");
  });
});
