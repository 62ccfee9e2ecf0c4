import { resolveProfile } from "../kit/profile";
import type { ProfileResolution } from "../types";

/** Listing pages: `/rooms/<id>`, `/rooms/plus/<id>`, `/luxury/listing/<id>` (with any suffix such as `/reviews`). */
const LISTING_PATH = /^\/(?:rooms(?:\/plus)?|luxury\/listing)\/(\d{1,25})(?:\/|$)/;

export function listingUrl(listingId: string): string {
  return `https://www.airbnb.com/rooms/${listingId}`;
}

/** The listing id of an Airbnb URL, or null when it is not a listing page. */
export function listingIdOf(url: URL): string | null {
  return LISTING_PATH.exec(url.pathname)?.[1] ?? null;
}

/**
 * profile_key for Airbnb: a listing URL on airbnb.com or a subdomain, or the bare numeric listing id;
 * both become `https://www.airbnb.com/rooms/<id>` (dates, guests and other query parameters dropped).
 */
export function resolveAirbnbProfile(profileKey: string, publisherKey: string): ProfileResolution {
  return resolveProfile(profileKey, publisherKey, {
    fromId: (id) => (/^\d{1,25}$/.test(id) ? listingUrl(id) : null),
    fromUrl: (url) => {
      const id = listingIdOf(url);
      return id ? listingUrl(id) : null;
    },
  });
}
