import { isOnDomain } from "../../core/publishers/canonical";

/**
 * The forms of a Google Maps place link users copy, and what each one tells before anything is
 * fetched. Google's own ids:
 * - the feature id `0x<hex>:0x<hex>` ("data id", "ftid"), which the reviews RPC is keyed by; it sits
 *   in a /maps/place URL's data segment as `!1s0x…:0x…`, or in `?ftid=`;
 * - the cid (`maps.google.com/?cid=<decimal>`), the "ludocid";
 * - the place id of the Places API (`ChIJ…`), which Maps opens as `/maps/place/?q=place_id:ChIJ…`.
 */

export const FEATURE_ID = /^0x[0-9a-f]{1,16}:0x[0-9a-f]{1,16}$/i;
const FEATURE_ID_IN_DATA = /!1s(0x[0-9a-f]{1,16}:0x[0-9a-f]{1,16})(?=!|$|\?|\/)/i;
/** Places API ids as Maps links carry them (ChIJ… for most places, GhIJ… for some). */
export const PLACE_ID = /^(?:ChIJ|GhIJ)[A-Za-z0-9_-]{10,200}$/;
const CID = /^\d{1,20}$/;

export type PlaceRef =
  | { kind: "feature"; featureId: string }
  | { kind: "cid"; cid: string }
  | { kind: "placeId"; placeId: string }
  /** A /maps/place URL naming a place without an id (`/maps/place/Blue+Door+Cafe/@37.79,-122.39,17z`). */
  | { kind: "page" }
  /** maps.app.goo.gl and goo.gl/maps short links: only their redirect tells the place. */
  | { kind: "short" };

function decodedPath(url: URL): string {
  try {
    return decodeURIComponent(url.pathname);
  } catch {
    return url.pathname;
  }
}

/** The feature id a Maps URL carries (data segment or `ftid`), lower-cased, or null. */
export function featureIdIn(url: URL): string | null {
  const ftid = url.searchParams.get("ftid");
  if (ftid && FEATURE_ID.test(ftid)) return ftid.toLowerCase();
  if (!decodedPath(url).startsWith("/maps")) return null;
  return FEATURE_ID_IN_DATA.exec(decodedPath(url))?.[1].toLowerCase() ?? null;
}

/** What a link on google.com or goo.gl says about the place, or null when it is no place link. */
export function placeRef(url: URL): PlaceRef | null {
  const host = url.hostname.toLowerCase();
  if (isOnDomain(host, "goo.gl")) {
    const path = url.pathname.replace(/\/+$/, "");
    if (host === "maps.app.goo.gl" && /^\/[A-Za-z0-9_-]+$/.test(path)) return { kind: "short" };
    if ((host === "goo.gl" || host === "www.goo.gl") && /^\/maps\/[A-Za-z0-9_-]+$/.test(path))
      return { kind: "short" };
    return null;
  }
  if (!isOnDomain(host, "google.com")) return null;
  const path = decodedPath(url);
  const onMaps = path === "/" || path === "/maps" || path.startsWith("/maps/");
  if (!onMaps) return null;
  const featureId = featureIdIn(url);
  if (featureId) return { kind: "feature", featureId };
  const cid = url.searchParams.get("cid");
  if (cid && CID.test(cid)) return { kind: "cid", cid };
  const placeId =
    url.searchParams.get("place_id") ??
    url.searchParams.get("query_place_id") ??
    /^place_id:(.+)$/.exec(url.searchParams.get("q") ?? "")?.[1];
  if (placeId && PLACE_ID.test(placeId)) return { kind: "placeId", placeId };
  if (/^\/maps\/place\/[^/]+/.test(path)) return { kind: "page" };
  return null;
}

/** The Maps page of a place id: Maps answers this URL with the place itself. */
export function placeIdUrl(placeId: string): string {
  return `https://www.google.com/maps/place/?q=place_id:${placeId}`;
}

/** A /maps/place URL for a feature id, the form Maps itself links places with (`data=!4m2!3m1!1s…`). */
export function featureIdUrl(featureId: string, name?: string | null): string {
  const slug = name ? `${encodeURIComponent(name.trim()).replace(/%20/g, "+")}/` : "";
  return `https://www.google.com/maps/place/${slug}data=!4m2!3m1!1s${featureId}`;
}
