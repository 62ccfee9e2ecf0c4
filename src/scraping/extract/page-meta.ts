import { decodeHTMLAttribute } from "entities";

export interface PageMeta {
  /** `<html lang>` as written, e.g. "en-GB". */
  language: string | null;
  /** The URL relative links on the page resolve against (`<base href>` or the page URL). */
  baseUrl: string;
  /**
   * The next page of the listing from `<link rel="next">`, else `<a rel="next">`, else a link to the
   * same address whose `page` query parameter is this page's plus one (`?page=3` on page 2, `?page=2`
   * on a page without one), absolute.
   */
  nextUrl: string | null;
}

/** Links with `page=` in their address looked at, in page order (a pager has a handful). */
const MAX_PAGE_LINKS = 200;

/** The link among `hrefs` to the page after `pageUrl` by its `page` parameter, or null. */
function numberedNext(hrefs: readonly string[], base: string, pageUrl: string): string | null {
  const here = new URL(pageUrl);
  const current = here.searchParams.get("page") ?? "1";
  if (!/^\d{1,6}$/.test(current)) return null;
  const wanted = String(Number(current) + 1);
  const rest = (url: URL) => {
    const params = new URLSearchParams(url.searchParams);
    params.delete("page");
    params.sort();
    return `${url.origin}${url.pathname}?${params.toString()}`;
  };
  for (const href of hrefs) {
    const url = URL.parse(absoluteHttpUrl(href, base) ?? "");
    if (url && url.searchParams.get("page") === wanted && rest(url) === rest(here)) return url.toString();
  }
  return null;
}

function absoluteHttpUrl(href: string | null, base: string): string | null {
  if (href === null) return null;
  const url = URL.parse(decodeHTMLAttribute(href).trim(), base);
  return url && (url.protocol === "https:" || url.protocol === "http:") ? url.toString() : null;
}

export function collectPageMeta(rewriter: HTMLRewriter, pageUrl: string): () => PageMeta {
  let language: string | null = null;
  let baseHref: string | null = null;
  let linkNext: string | null = null;
  let anchorNext: string | null = null;
  const pageLinks: string[] = [];
  rewriter
    .on("html[lang]", {
      element(el) {
        language ??= el.getAttribute("lang")?.trim() || null;
      },
    })
    .on("base[href]", {
      element(el) {
        baseHref ??= el.getAttribute("href");
      },
    })
    .on('link[rel~="next" i][href]', {
      element(el) {
        linkNext ??= el.getAttribute("href");
      },
    })
    .on('a[rel~="next" i][href]', {
      element(el) {
        anchorNext ??= el.getAttribute("href");
      },
    })
    .on('a[href*="page="]', {
      element(el) {
        const href = el.getAttribute("href");
        if (href && pageLinks.length < MAX_PAGE_LINKS) pageLinks.push(href);
      },
    });
  return () => {
    const baseUrl = absoluteHttpUrl(baseHref, pageUrl) ?? pageUrl;
    const next =
      absoluteHttpUrl(linkNext, baseUrl) ??
      absoluteHttpUrl(anchorNext, baseUrl) ??
      numberedNext(pageLinks, baseUrl, pageUrl);
    return { language, baseUrl, nextUrl: next };
  };
}
