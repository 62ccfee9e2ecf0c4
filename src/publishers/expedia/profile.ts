import { permanentError } from "../../scraping/errors";
import { jsonLiteralAt } from "../kit/json-literal";
import { valueAt } from "../kit/json-api";
import { declareProfile } from "../kit/profile";
import type { ScrapeContext } from "../types";

/**
 * Expedia Group brands on the Expedia platform: hotel pages `/<City>-Hotels-<Name>.h<id>.Hotel-Information`.
 * Orbitz and Travelocity are Expedia-platform sites with the same page form.
 */
const HOTEL_SITES = ["expedia.com", "hotels.com", "orbitz.com", "travelocity.com"] as const;

/**
 * Vrbo and its country brands: holiday-rental pages `/pdp/lo/<id>`, where the id is the same
 * property id Expedia uses (one listing linked as expedia.com `h120091278` and vrbo.com
 * `/pdp/lo/120091278`, see README.md).
 */
const VRBO_SITES = ["vrbo.com", "abritel.fr", "fewo-direkt.de", "stayz.com.au", "bookabach.co.nz"] as const;

/** The Expedia Group sites this module reads: one property id space, one GraphQL. */
export const EXPEDIA_DOMAINS = [...HOTEL_SITES, ...VRBO_SITES] as const;

const isVrboSite = (site: string) => (VRBO_SITES as readonly string[]).includes(site);

/** A property's page on the site it was submitted under, in that site's own form. */
const propertyPage = (id: string, site: string) =>
  isVrboSite(site) ? `https://www.${site}/pdp/lo/${id}` : `https://www.${site}/h${id}.Hotel-Information`;

const PAGE = "https://www.expedia.com/h96727634.Hotel-Information";
const NOT_A_PROFILE = (site: string) => `Enter the URL of a profile on ${site}.`;

/**
 * profile_key: a hotel page on expedia.com, hotels.com, orbitz.com or travelocity.com
 * (`/<City>-Hotels-<Name>.h<id>.Hotel-Information` or `/h<id>.Hotel-Information`), a holiday-rental
 * page on Vrbo or one of its country brands (`/pdp/lo/<id>`), or the property id (`h12345` or
 * `12345`) on the site submitted under. Each form is taken on the sites that use it only; Vrbo's
 * legacy listing numbers (`/1234567`, `/123456ha`, `/vacation-rentals/p123456`) are another id
 * space and are refused.
 */
export const expediaProfile = declareProfile({
  urls: [
    {
      path: /^\/(?:[A-Za-z0-9-]{1,200}\.)?h(?<id>\d{1,12})\.Hotel-Information$/,
      page: (g, site) => (isVrboSite(site) ? null : propertyPage(g.id, site)),
    },
    {
      path: /^\/pdp\/lo\/(?<id>\d{1,12})\/?$/,
      page: (g, site) => (isVrboSite(site) ? propertyPage(g.id, site) : null),
    },
  ],
  ids: [/^h?(?<id>\d{1,12})$/],
  page: (g, site) => propertyPage(g.id, site),
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
      input: "https://www.orbitz.com/Salem-Hotels-The-Artisan-At-Tuscan-Village.h96727634.Hotel-Information",
      publisher: "orbitz.com",
      url: "https://www.orbitz.com/h96727634.Hotel-Information",
    },
    {
      input: "https://www.travelocity.com/h96727634.Hotel-Information?rm1=a2",
      publisher: "travelocity.com",
      url: "https://www.travelocity.com/h96727634.Hotel-Information",
    },
    {
      input: "h96727634",
      publisher: "travelocity.com",
      url: "https://www.travelocity.com/h96727634.Hotel-Information",
    },
    {
      input: "https://www.vrbo.com/pdp/lo/120091278?msockid=0e61aa9ad55b66123c67bc4cd4516799",
      publisher: "vrbo.com",
      url: "https://www.vrbo.com/pdp/lo/120091278",
    },
    { input: "120091278", publisher: "vrbo.com", url: "https://www.vrbo.com/pdp/lo/120091278" },
    {
      input: "https://www.abritel.fr/pdp/lo/63925107/",
      publisher: "abritel.fr",
      url: "https://www.abritel.fr/pdp/lo/63925107",
    },
    {
      input: "https://www.fewo-direkt.de/pdp/lo/63925107?chkin=2026-12-01",
      publisher: "fewo-direkt.de",
      url: "https://www.fewo-direkt.de/pdp/lo/63925107",
    },
    {
      input: "https://www.stayz.com.au/pdp/lo/63925107",
      publisher: "stayz.com.au",
      url: "https://www.stayz.com.au/pdp/lo/63925107",
    },
    {
      input: "https://bookabach.co.nz/pdp/lo/63925107",
      publisher: "bookabach.co.nz",
      url: "https://www.bookabach.co.nz/pdp/lo/63925107",
    },
    {
      input: "https://www.expedia.com/Hotel-Search?destination=Paris",
      error: NOT_A_PROFILE("expedia.com"),
    },
    // Each site's own form only: no hotel form on Vrbo, no Vrbo form on Expedia.
    {
      input: "https://www.vrbo.com/h96727634.Hotel-Information",
      publisher: "vrbo.com",
      error: NOT_A_PROFILE("vrbo.com"),
    },
    { input: "https://www.expedia.com/pdp/lo/120091278", error: NOT_A_PROFILE("expedia.com") },
    // Vrbo's legacy listing numbers are another id space.
    { input: "https://www.vrbo.com/123456ha", publisher: "vrbo.com", error: NOT_A_PROFILE("vrbo.com") },
    {
      input: "https://www.stayz.com.au/search?destination=Byron%20Bay",
      publisher: "stayz.com.au",
      error: NOT_A_PROFILE("stayz.com.au"),
    },
    {
      input: "https://www.airbnb.com/rooms/123",
      publisher: "vrbo.com",
      error: "Enter a URL on vrbo.com or one of its subdomains.",
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
