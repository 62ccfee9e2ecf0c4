import { resolveProfile } from "../kit/profile";
import type { ProfileResolution } from "../types";

/** HolidayCheck's German-speaking sites; hotel ids (UUIDs) are the same on all of them. */
export const HOLIDAYCHECK_DOMAINS = ["holidaycheck.de", "holidaycheck.at", "holidaycheck.ch"] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Hotel pages and their review pages: `/hi/<slug>/<uuid>`, `/hr/<slug>/<uuid>` (any tab after it). */
const HOTEL_PATH =
  /^\/(?:hi|hr)\/[^/]{1,200}\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\/|$)/i;

function siteOf(host: string): string {
  const bare = host.toLowerCase().replace(/^www\./, "");
  return (
    HOLIDAYCHECK_DOMAINS.find((domain) => bare === domain || bare.endsWith(`.${domain}`)) ?? "holidaycheck.de"
  );
}

/** The hotel's page by id: `/hi/x/<uuid>` redirects to its named page, so the slug is not needed. */
export function holidaycheckPageUrl(site: string, uuid: string): string {
  return `https://www.${site}/hi/x/${uuid.toLowerCase()}`;
}

/** The hotel id (UUID) of a hotel or review page URL, or null. */
export function hotelUuidOf(url: URL): string | null {
  return HOTEL_PATH.exec(url.pathname)?.[1]?.toLowerCase() ?? null;
}

/** profile_key: a hotel page or its reviews page on a HolidayCheck site, or the hotel's UUID. */
export function resolveHolidaycheckProfile(profileKey: string, publisherKey: string): ProfileResolution {
  return resolveProfile(profileKey, publisherKey, {
    fromId: (id) => (UUID.test(id) ? holidaycheckPageUrl(siteOf(publisherKey), id) : null),
    fromUrl: (url) => {
      const uuid = hotelUuidOf(url);
      return uuid ? holidaycheckPageUrl(siteOf(url.hostname), uuid) : null;
    },
  });
}
