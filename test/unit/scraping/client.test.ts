/** The request client every adapter uses, against the echo fixture site (real fetch, real origin mapping). */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BudgetExhausted, PublisherClient } from "../../../src/scraping/client";
import { permanentError, ScrapeError } from "../../../src/scraping/errors";

const cookies = [
  { name: "sid", value: "echo-session", domain: ".echo.test" },
  { name: "other", value: "elsewhere", domain: "other.test" },
];
const client = (options: Partial<ConstructorParameters<typeof PublisherClient>[1]> = {}) =>
  new PublisherClient(env, { cookies, deadline: Date.now() + 60_000, ...options });

describe("PublisherClient", () => {
  it("POSTs JSON to a mapped subdomain with the intended host in X-Forwarded-Host and only that host's cookies", async () => {
    const { url, data } = await client().json("https://api.echo.test/graphql?op=Reviews", {
      method: "POST",
      json: { variables: { offset: 10 } },
    });
    expect(url.toString()).toBe("https://api.echo.test/graphql?op=Reviews");
    expect(data).toEqual({
      method: "POST",
      host: "api.echo.test",
      path: "/graphql?op=Reviews",
      cookie: "sid=echo-session",
      contentType: "application/json",
      forwardedHost: "api.echo.test",
      body: '{"variables":{"offset":10}}',
    });
  });

  it("tells an adapter whether the task carries cookies for a host (never the cookies themselves)", () => {
    expect(client().hasCookiesFor("https://api.echo.test/graphql")).toBe(true);
    expect(client().hasCookiesFor(new URL("https://other.test/"))).toBe(true);
    expect(client().hasCookiesFor("https://nowhere.test/")).toBe(false);
    expect(client({ cookies: [] }).hasCookiesFor("https://api.echo.test/")).toBe(false);
  });

  it("removes Google's )]}' guard before parsing JSON", async () => {
    const { data } = await client().json("https://www.echo.test/xssi/rpc");
    expect(data).toMatchObject({ method: "GET", path: "/xssi/rpc" });
  });

  it("keeps method and body through a 307 and turns a 303 into a GET without a body", async () => {
    expect(
      (await client().json("https://echo.test/redirect-post", { method: "POST", form: { a: "1" } })).data,
    ).toMatchObject({
      method: "POST",
      path: "/echo-after-redirect",
      body: "a=1",
      contentType: "application/x-www-form-urlencoded",
    });
    expect(
      (await client().json("https://echo.test/see-other", { method: "POST", form: { a: "1" } })).data,
    ).toMatchObject({
      method: "GET",
      body: "",
      contentType: null,
    });
  });

  it("runs the adapter's inspector on every 2xx answer and throws what it returns", async () => {
    const blocked = client({
      inspect: (page) =>
        page.text.includes('"path":"/captcha"') ? permanentError("blocked", "captcha page") : null,
    });
    await expect(blocked.request("https://echo.test/captcha")).rejects.toMatchObject({
      reason: "blocked",
      message: "captcha page",
    });
    await expect(blocked.request("https://echo.test/fine")).resolves.toMatchObject({ status: 200 });
  });

  it("throws once the time budget is spent and remembers it, even when the caller swallows the error", async () => {
    const late = client({ deadline: Date.now() - 1 });
    let thrown: unknown;
    try {
      await late.request("https://echo.test/anything");
    } catch (err) {
      thrown = err; // an adapter catching everything
    }
    expect(thrown).toBeInstanceOf(BudgetExhausted);
    expect((thrown as ScrapeError).reason).toBe("timeout");
    expect(late.timeUp).toBe(true);
  });

  it("answers a JSON endpoint that returns HTML with publisher_error naming what it got", async () => {
    await expect(client().json("https://multipage.test/biz/x")).rejects.toMatchObject({
      reason: "publisher_error",
      message: expect.stringContaining("Expected JSON"),
    });
  });
});
