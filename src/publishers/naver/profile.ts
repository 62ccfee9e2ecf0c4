import { permanentError } from "../../scraping/errors";
import { jsonLiteralAt } from "../kit/json-literal";
import { declareProfile } from "../kit/profile";
import type { ScrapeContext } from "../types";

const PAGE = "https://pcmap.place.naver.com/place/1716926393/home";
const NOT_A_PROFILE = "Enter the URL of a profile on naver.com.";
const ID = String.raw`(?<id>\d{5,15})`;
/** The business types Naver's place pages put in their paths, as the public clients show them. */
const TYPES = "place|restaurant|hairshop|hospital|accommodation|nailshop|attraction";

/**
 * profile_key: a place on Naver Map or its place pages: `map.naver.com/p/entry/place/{id}`,
 * `map.naver.com/p/search/{query}/place/{id}`, `pcmap.place.naver.com/{type}/{id}/…`,
 * `m.place.naver.com/{type}/{id}/…`; or the place id as text. The canonical URL is the PC place
 * page `https://pcmap.place.naver.com/place/{id}/home`; its business type is read from that page
 * when the walk opens. (`naver.me` short links are another domain and are not taken.)
 */
export const naverProfile = declareProfile({
  // Submitted under the alias map.naver.com, the place pages (pcmap.place.naver.com) are still profiles.
  hosts: ["naver.com"],
  urls: [
    {
      host: "map.naver.com",
      path: new RegExp(String.raw`^\/(?:p|v5)\/(?:[^?#]{0,300}\/)?place\/${ID}(?:\/|$)`),
    },
    { host: "place.naver.com", path: new RegExp(String.raw`^\/(?:${TYPES})\/${ID}(?:\/|$)`) },
  ],
  ids: [new RegExp(`^${ID}$`)],
  page: "https://pcmap.place.naver.com/place/{id}/home",
  examples: [
    { input: PAGE, url: PAGE },
    { input: "https://map.naver.com/p/entry/place/1716926393?c=15.00,0,0,0,dh", url: PAGE },
    {
      input: "https://map.naver.com/p/search/%EB%9D%BC%EC%9D%B4%EB%B8%8C%EB%B3%BC/place/1716926393",
      url: PAGE,
    },
    { input: "https://pcmap.place.naver.com/restaurant/1716926393/review/visitor", url: PAGE },
    { input: "https://m.place.naver.com/hairshop/1716926393/home", url: PAGE },
    { input: "1716926393", url: PAGE },
    {
      input: "https://pcmap.place.naver.com/restaurant/1716926393/home",
      url: PAGE,
      publisher: "map.naver.com",
    },
    { input: "https://map.naver.com/p/search/%EB%9D%BC%EC%9D%B4%EB%B8%8C%EB%B3%BC", error: NOT_A_PROFILE },
    { input: "https://blog.naver.com/someone/223344556677", error: NOT_A_PROFILE },
    {
      input: "https://place.map.kakao.com/12345678",
      error: "Enter a URL on naver.com or one of its subdomains.",
    },
    { input: "라이브볼 강남", error: "Enter a valid URL." },
  ],
});

const MARKER = "window.__APOLLO_STATE__";
/** The place page's state sits in its first few hundred kilobytes; a larger page is not read further. */
const SEARCHED = 5_000_000;

/**
 * The place's business type from the place page's Apollo state: `PlaceDetailBase:{id}` →
 * `missingInfo.businessType` (`restaurant`, `hairshop`, …), `place` where the state names none
 * (the type the public clients fall back to). A page without the state, or whose state does not
 * describe this place, is `publisher_error` naming what is missing.
 */
export function businessTypeOf(html: string, id: string): string {
  const page = html.slice(0, SEARCHED);
  const at = page.indexOf(MARKER);
  const start = at < 0 ? -1 : page.indexOf("{", at + MARKER.length);
  const literal = start < 0 || start - at > MARKER.length + 10 ? null : jsonLiteralAt(page, start);
  const state = parsed(literal);
  if (!state || typeof state !== "object")
    throw permanentError("publisher_error", `Naver place page: no readable ${MARKER}`);
  const base = (state as Record<string, unknown>)[`PlaceDetailBase:${id}`];
  if (!base || typeof base !== "object")
    throw permanentError("publisher_error", `Naver place page: ${MARKER} has no PlaceDetailBase:${id}`);
  const missing = (base as { missingInfo?: unknown }).missingInfo;
  const type =
    missing && typeof missing === "object" ? (missing as { businessType?: unknown }).businessType : undefined;
  return typeof type === "string" && /^[a-z]{2,30}$/.test(type) ? type : "place";
}

function parsed(literal: string | null): unknown {
  try {
    return literal ? JSON.parse(literal) : null;
  } catch {
    return null;
  }
}

/** Reads the place page once (its cookies start the session) for the type; the key becomes `{type}/{id}`. */
export async function openNaverPlace(
  id: string,
  profileUrl: string,
  ctx: ScrapeContext,
): Promise<{ pageUrl: string; key: string }> {
  const page = await ctx.client.request(profileUrl, { headers: { "Accept-Language": "ko" } });
  return { pageUrl: profileUrl, key: `${businessTypeOf(page.text, id)}/${id}` };
}
