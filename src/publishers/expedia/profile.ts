import { permanentError } from "../../scraping/errors";
import { jsonLiteralAt } from "../kit/json-literal";
import { valueAt } from "../kit/json-api";
import { declareProfile } from "../kit/profile";
import type { ScrapeContext } from "../types";

/** The Expedia Group sites this module reads: one property id space, one GraphQL. */
export const EXPEDIA_DOMAINS = ["expedia.com", "hotels.com"] as const;

const PAGE = "https://www.expedia.com/h96727634.Hotel-Information";

/**
 * profile_key: a property page on expedia.com or hotels.com (`/<City>-Hotels-<Name>.h<id>.Hotel-Information`
 * or `/h<id>.Hotel-Information`), or the property id (`h12345` or `12345`) on the site submitted under.
 */
export const expediaProfile = declareProfile({
  urls: [{ path: /^\/(?:[A-Za-z0-9-]{1,200}\.)?h(?<id>\d{1,12})\.Hotel-Information$/ }],
  ids: [/^h?(?<id>\d{1,12})$/],
  page: "https://www.{site}/h{id}.Hotel-Information",
  examples: [
    {
      input:
        "https://www.expedia.com/Salem-Hotels-The-Artisan-At-Tuscan-Village.h96727634.Hotel-Information?chkin=2026-12-01",
      url: PAGE,
    },
    { input: "h96727634", url: PAGE },
    { input: "96727634", publisher: "hotels.com", url: "https://www.hotels.com/h96727634.Hotel-Information" },
    {
      input: "https://www.hotels.com/h96727634.Hotel-Information",
      publisher: "hotels.com",
      url: "https://www.hotels.com/h96727634.Hotel-Information",
    },
    {
      input: "https://www.expedia.com/Hotel-Search?destination=Paris",
      error: "Enter the URL of a profile on expedia.com.",
    },
    { input: "the artisan", error: "Enter a valid URL." },
  ],
});

/** What the reviews query needs from the page: the site's context and the Apollo client's name. */
export interface ExpediaContext {
  propertyId: string;
  siteId: number;
  locale: string;
  eapid: number;
  tpid: number;
  currency: string;
  /** The anonymous device id the page was given (`duaid`); not a credential. */
  duaid: string;
  clientInfo: string;
}

const MARKER = "window.__PLUGIN_STATE__";

/**
 * The page's `window.__PLUGIN_STATE__`: an object literal after `=`, or a JSON string handed to
 * `JSON.parse("…")`. Found by its marker, bracket- or quote-matched, never a regex over the page.
 */
export function pluginStateOf(html: string): unknown {
  const marker = html.indexOf(MARKER);
  if (marker < 0)
    throw permanentError("publisher_error", "Expedia property page: no window.__PLUGIN_STATE__");
  let at = html.indexOf("=", marker + MARKER.length);
  if (at < 0 || at - marker > MARKER.length + 5)
    throw permanentError("publisher_error", "Expedia property page: __PLUGIN_STATE__ is not assigned");
  at += 1;
  while (html[at] === " ") at++;
  try {
    if (html[at] === "{") {
      const literal = jsonLiteralAt(html, at);
      if (literal !== null) return JSON.parse(literal);
    } else if (html.startsWith('JSON.parse("', at)) {
      const start = at + "JSON.parse(".length;
      let end = start + 1;
      while (end < html.length && html[end] !== '"') end += html[end] === "\\" ? 2 : 1;
      if (end < html.length) return JSON.parse(JSON.parse(html.slice(start, end + 1)) as string);
    }
  } catch {
    // Not JSON: reported below.
  }
  throw permanentError("publisher_error", "Expedia property page: __PLUGIN_STATE__ is not a readable object");
}

const at = (value: unknown, ...path: string[]): unknown => valueAt(value, path);

const TEXT = /^[A-Za-z0-9_.,:/ -]{1,120}$/;

/** The reviews query's context from the plugin state (`context.context.*`, `apollo.clientInfo`), as the public client takes it. */
export function expediaContextOf(propertyId: string, state: unknown): ExpediaContext {
  const context = at(state, "context", "context");
  const values = {
    siteId: at(context, "site", "id"),
    eapid: at(context, "site", "eapid"),
    tpid: at(context, "site", "tpid"),
    locale: at(context, "locale"),
    currency: at(context, "currency"),
    duaid: at(context, "deviceId"),
    clientInfo: at(state, "apollo", "clientInfo"),
  };
  for (const [name, value] of Object.entries(values)) {
    const ok = ["siteId", "eapid", "tpid"].includes(name)
      ? Number.isSafeInteger(value)
      : typeof value === "string" && TEXT.test(value);
    if (!ok)
      throw permanentError(
        "publisher_error",
        `Expedia property page: __PLUGIN_STATE__ has no usable ${name}`,
      );
  }
  return { propertyId, ...values } as ExpediaContext;
}

/** Opens the property page once; the walk's key is the query context as JSON (a few hundred characters). */
export async function openExpediaProperty(
  propertyId: string,
  profileUrl: string,
  ctx: ScrapeContext,
): Promise<{ pageUrl: string; key: string }> {
  const page = await ctx.client.request(profileUrl);
  return { pageUrl: profileUrl, key: JSON.stringify(expediaContextOf(propertyId, pluginStateOf(page.text))) };
}
