import { decodeHTMLAttribute } from "entities";

export interface PageMeta {
  /** `<html lang>` as written, e.g. "en-GB". */
  language: string | null;
  /** The URL relative links on the page resolve against (`<base href>` or the page URL). */
  baseUrl: string;
  /** The next page of the listing from `<link rel="next">` or else `<a rel="next">`, absolute. */
  nextUrl: string | null;
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
    });
  return () => {
    const baseUrl = absoluteHttpUrl(baseHref, pageUrl) ?? pageUrl;
    const next = absoluteHttpUrl(linkNext, baseUrl) ?? absoluteHttpUrl(anchorNext, baseUrl);
    return { language, baseUrl, nextUrl: next };
  };
}
