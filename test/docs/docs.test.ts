import puppeteer from "@cloudflare/puppeteer";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BASE, call } from "../helpers/api";

/** Every URL the page loads or points the reference at, read with the platform's HTML parser. */
async function referencedUrls(html: string): Promise<{ urls: string[]; configuration: string | null }> {
  const urls: string[] = [];
  let configuration: string | null = null;
  const collect = (attribute: string) => ({
    element(element: Element) {
      const value = element.getAttribute(attribute);
      if (value !== null) urls.push(value);
    },
  });
  await new HTMLRewriter()
    .on("script[src]", collect("src"))
    .on("link[href]", collect("href"))
    .on("img[src]", collect("src"))
    .on("[data-url]", collect("data-url"))
    .on("#api-reference", {
      element(element) {
        configuration = element.getAttribute("data-configuration");
      },
    })
    .transform(new Response(html))
    .text();
  return { urls, configuration };
}

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((tokens) => tokens[0])
      .map(([name, ...values]) => [name, values]),
  );
}

describe("GET /docs", () => {
  it("serves the reference page under a strict Content-Security-Policy", async () => {
    const res = await call("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = directives(res.headers.get("content-security-policy") ?? "");
    expect(csp.get("default-src")).toEqual(["'none'"]);
    expect(csp.get("script-src")).toEqual(["'self'"]);
    expect(csp.get("connect-src")).toEqual(["'self'"]);
    for (const [name, sources] of csp) {
      expect(
        sources.filter((s) => /^(https?:|\*|wss?:)/.test(s)),
        name,
      ).toEqual([]);
    }
  });

  it("loads only same-origin assets and keeps Scalar's fonts and telemetry off", async () => {
    const { urls, configuration } = await referencedUrls(await (await call("/docs")).text());
    expect(urls).toEqual(expect.arrayContaining(["/openapi.json", "/assets/scalar/standalone.js"]));
    for (const url of urls) expect(new URL(url, BASE).origin, url).toBe(BASE);
    const settings = JSON.parse(configuration ?? "{}");
    expect(settings).toMatchObject({ withDefaultFonts: false, telemetry: false });
  });

  it("has its script served from the Worker's static assets", async () => {
    const res = await env.ASSETS.fetch(new Request(`${BASE}/assets/scalar/standalone.js`));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    const script = await res.text();
    expect(script).toContain("@scalar/api-reference");
  });

  it("points the reference at the OpenAPI document: a real browser loads it and renders its operations", async () => {
    // Chromium (the Browser Rendering binding) opens /docs; every request it makes is answered by
    // the Worker's static assets or its own fetch handler, so what the page really loads is recorded.
    const browser = await puppeteer.launch(env.BROWSER);
    const requested: string[] = [];
    try {
      const page = await browser.newPage();
      await page.setRequestInterception(true);
      page.on("request", (request) => {
        requested.push(request.url());
        void (async () => {
          // As the platform serves it: a static asset when there is one, else the Worker.
          const url = new URL(request.url());
          const asset = await env.ASSETS.fetch(new Request(url));
          const res = asset.status === 404 ? await call(url.pathname + url.search) : asset;
          await request.respond({
            status: res.status,
            headers: Object.fromEntries(res.headers),
            body: Buffer.from(await res.arrayBuffer()),
          });
        })().catch(() => request.abort());
      });
      await page.goto(`${BASE}/docs`, { waitUntil: "load" });
      // The page's own text, as the browser shows it (run in the page, hence the string).
      await page.waitForFunction('document.body.innerText.includes("Submit a review collection request")', {
        timeout: 20_000,
      });
      const text = (await page.evaluate("document.body.innerText")) as string;
      // Title, operations and the first operation's summary: all of them come from /openapi.json
      // (Scalar renders later operations lazily, as they scroll into view).
      for (const shown of [
        "Review Collection API",
        "OpenAPI 3.1.0",
        "/submit/request-reviews/",
        "/retrieve-task/",
        "/submit/batch/",
        "/retrieve-batch/",
        "Submit a review collection request",
      ])
        expect(text).toContain(shown);
    } finally {
      await browser.close();
    }
    expect(requested).toContain(`${BASE}/openapi.json`);
    for (const url of requested) expect(new URL(url).origin, url).toBe(BASE);
  });
});
