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
      expect(sources.filter((s) => /^(https?:|\*|wss?:)/.test(s)), name).toEqual([]);
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

  it("points the reference at the OpenAPI document", async () => {
    const res = await call("/openapi.json");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { openapi: string }).openapi).toMatch(/^3\.1\./);
  });
});
