import { permanentError } from "../../scraping/errors";
import { declareProfile } from "../kit/profile";
import type { ScrapeContext } from "../types";

/** 2GIS's sites: Russia (the key), the international site, Kazakhstan and the UAE. */
export const TWOGIS_DOMAINS = ["2gis.ru", "2gis.com", "2gis.kz", "2gis.ae"] as const;

/** A branch ("firm") id: 2GIS ids are long decimal numbers (`70000001033044306`). */
const ID = "(?<id>\\d{5,20})";
const PAGE = "https://2gis.ru/firm/70000001033044306";

/**
 * profile_key: a firm page on any 2GIS site, with or without its city and tab
 * (`/moscow/firm/<id>`, `/firm/<id>/tab/reviews`), or the firm's id as text. The canonical profile
 * URL is `https://<site>/firm/<id>` on the site submitted under; the walk's key is the id, until the
 * firm page gives it the site's review key (`openTwogisFirm`).
 */
export const twogisProfile = declareProfile({
  urls: [{ path: new RegExp(`^/(?:[a-z][a-z_-]{0,60}/)?firm/${ID}(?:/|$)`) }],
  ids: [new RegExp(`^${ID}$`)],
  page: "https://{site}/firm/{id}",
  examples: [
    { input: PAGE, url: PAGE },
    { input: "https://2gis.ru/moscow/firm/70000001033044306/tab/reviews?m=37.6%2C55.7", url: PAGE },
    { input: "70000001033044306", url: PAGE },
    {
      input: "https://2gis.kz/astana/firm/70000001018076362",
      url: "https://2gis.kz/firm/70000001018076362",
      publisher: "2gis.kz",
    },
    {
      input: "https://2gis.ae/dubai/firm/70000001067285913/tab/reviews",
      url: "https://2gis.ae/firm/70000001067285913",
      publisher: "2gis.ae",
    },
    { input: "https://2gis.ru/moscow/search/кафе", error: "Enter the URL of a profile on 2gis.ru." },
    {
      input: "https://2gis.ru/moscow/branches/70000001033044306",
      error: "Enter the URL of a profile on 2gis.ru.",
    },
    {
      input: "https://yandex.ru/maps/org/kafe/1234567890/",
      error: "Enter a URL on 2gis.ru or one of its subdomains.",
    },
    { input: "кафе на Тверской", error: "Enter a valid URL." },
  ],
});

/** How much of the firm page is searched: the config script sits in its head. */
const SEARCHED = 2_000_000;
/** The site's config object, `var __customcfg = JSON.parse('{…}')`, and how far past its start a field is looked for. */
const CONFIG = "__customcfg";
const CONFIG_SPAN = 60_000;
const REVIEW_KEY =
  /\\?"reviewApiKey\\?"\s*:\s*\\?"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\\?"/i;
const LOCALE = /\\?"locale\\?"\s*:\s*\\?"([a-z]{2}_[A-Z]{2})\\?"/;

export interface FirmConfig {
  /** The public key the site's own review widget sends to the review API. */
  reviewKey: string;
  /** The site's locale (`ru_RU`, `ru_KZ`, `en_AE`); null where the config does not say. */
  locale: string | null;
}

/**
 * The review key and locale from the firm page's config script. Only the config object is read (a
 * UUID elsewhere in the page is no review key); no config or no key is `publisher_error` naming it.
 */
export function firmConfigOf(html: string): FirmConfig {
  const page = html.slice(0, SEARCHED);
  const start = page.indexOf(CONFIG);
  if (start < 0)
    throw permanentError(
      "publisher_error",
      "2GIS firm page: no __customcfg config script (the review key is read from it)",
    );
  const config = page.slice(start, start + CONFIG_SPAN);
  const key = REVIEW_KEY.exec(config)?.[1];
  if (!key)
    throw permanentError("publisher_error", "2GIS firm page: the __customcfg config has no reviewApiKey");
  return { reviewKey: key.toLowerCase(), locale: LOCALE.exec(config)?.[1] ?? null };
}

/** The locale each site's pages use where the config names none. */
const SITE_LOCALES: Record<string, string> = { "2gis.kz": "ru_KZ", "2gis.ae": "en_AE" };

/**
 * Reads the firm page once for the site's review key and locale; the walk's key becomes
 * `<id>/<review key>/<locale>` (the key is public: every visitor's page carries it).
 */
export async function openTwogisFirm(
  id: string,
  profileUrl: string,
  ctx: ScrapeContext,
): Promise<{ pageUrl: string; key: string }> {
  const page = await ctx.client.request(profileUrl);
  const config = firmConfigOf(page.text);
  const locale = config.locale ?? SITE_LOCALES[ctx.publisherKey] ?? "ru_RU";
  return { pageUrl: profileUrl, key: `${id}/${config.reviewKey}/${locale}` };
}
