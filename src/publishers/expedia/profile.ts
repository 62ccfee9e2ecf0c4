import { permanentError } from "../../scraping/errors";
import { jsonLiteralAt } from "../kit/json-literal";
import { resolveProfile } from "../kit/profile";
import type { ProfileResolution, ScrapeContext } from "../types";

/** The Expedia Group sites this module reads: one property id space, one GraphQL. */
export const EXPEDIA_DOMAINS = ["expedia.com", "hotels.com"] as const;

/** Property pages: `/<City>-Hotels-<Name>.h<id>.Hotel-Information` or `/h<id>.Hotel-Information`. */
const PROPERTY_PATH = /^\/(?:[A-Za-z0-9-]{1,200}\.)?h(\d{1,12})\.Hotel-Information$/;
const BARE_ID = /^h?(\d{1,12})$/;

function siteOf(host: string): string {
  const bare = host.toLowerCase().replace(/^www\./, "");
  return EXPEDIA_DOMAINS.find((domain) => bare === domain || bare.endsWith(`.${domain}`)) ?? "expedia.com";
}

export function expediaPageUrl(site: string, propertyId: string): string {
  return `https://www.${site}/h${propertyId}.Hotel-Information`;
}

/** The property id of a property page URL, or null. */
export function propertyIdOf(url: URL): string | null {
  return PROPERTY_PATH.exec(url.pathname)?.[1] ?? null;
}

/** profile_key: a property page on expedia.com or hotels.com, or the property id (`h12345` or `12345`). */
export function resolveExpediaProfile(profileKey: string, publisherKey: string): ProfileResolution {
  return resolveProfile(profileKey, publisherKey, {
    fromId: (id) => {
      const match = BARE_ID.exec(id);
      return match ? expediaPageUrl(siteOf(publisherKey), match[1]) : null;
    },
    fromUrl: (url) => {
      const id = propertyIdOf(url);
      return id ? expediaPageUrl(siteOf(url.hostname), id) : null;
    },
  });
}

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

function at(value: unknown, ...path: string[]): unknown {
  let node = value;
  for (const key of path)
    node =
      node !== null && typeof node === "object" && !Array.isArray(node)
        ? (node as Record<string, unknown>)[key]
        : undefined;
  return node;
}

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
