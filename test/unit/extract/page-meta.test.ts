import { describe, expect, it } from "vitest";
import { extractStructuredData } from "../../../src/scraping/extract";

const PAGE = "https://example.com/biz/blue-door?page=1";
const next = async (html: string, pageUrl = PAGE) => (await extractStructuredData(html, pageUrl)).nextUrl;

describe("rel=next and page language", () => {
  it("resolves <link rel=next> against the page URL", async () => {
    expect(await next(`<html><head><link rel="next" href="?page=2&amp;sort=newest"></head></html>`)).toBe(
      "https://example.com/biz/blue-door?page=2&sort=newest",
    );
  });

  it("uses <a rel=next> when there is no link, with rel lists and any case", async () => {
    expect(await next(`<body><a href="/biz/blue-door/p/3" rel="Next nofollow">Older</a></body>`)).toBe(
      "https://example.com/biz/blue-door/p/3",
    );
  });

  it("prefers <link> over <a>, and the first of each", async () => {
    const html = `<head><link rel="prev" href="/p0"><link rel="next" href="/p2"><link rel="next" href="/p9"></head><body><a rel="next" href="/a2">next</a></body>`;
    expect(await next(html)).toBe("https://example.com/p2");
  });

  it("honours <base href>", async () => {
    expect(
      await next(
        `<head><base href="https://cdn.example.com/listing/"><link rel="next" href="page2.html"></head>`,
      ),
    ).toBe("https://cdn.example.com/listing/page2.html");
  });

  it("ignores non-HTTP links and pages without one", async () => {
    expect(await next(`<a rel="next" href="javascript:load(2)">more</a>`)).toBeNull();
    expect(await next(`<a href="/p2">2</a>`)).toBeNull();
  });

  it("reads <html lang> as written", async () => {
    expect(
      (await extractStructuredData(`<html lang=" en-GB "><body></body></html>`, PAGE)).pageLanguage,
    ).toBe("en-GB");
    expect((await extractStructuredData(`<html lang=""><body></body></html>`, PAGE)).pageLanguage).toBeNull();
  });
});
