import { resolveProfile } from "../kit/profile";
import type { ProfileResolution } from "../types";

/** Agoda's property ids are whole numbers (`26210260`). */
const HOTEL_ID = /^\d{1,12}$/;

/**
 * The canonical page of a property: Agoda's own link by property id (`partnersearch.aspx?hid=`),
 * the one URL form that names the id. Hotel pages (`/<slug>/hotel/<city>.html`) do not.
 */
export function agodaPageUrl(hotelId: string): string {
  return `https://www.agoda.com/partners/partnersearch.aspx?hid=${hotelId}`;
}

/** The property id a URL names: `hid`, `hotel_id` or `hotelId` in its query; else null. */
export function hotelIdOf(url: URL): string | null {
  for (const name of ["hid", "hotel_id", "hotelId"]) {
    const value = url.searchParams.get(name)?.trim();
    if (value && HOTEL_ID.test(value)) return value;
  }
  return null;
}

/** profile_key: a property id, or an agoda.com URL carrying it (`hid=`, `hotel_id=`, `hotelId=`). */
export function resolveAgodaProfile(profileKey: string, publisherKey: string): ProfileResolution {
  return resolveProfile(profileKey, publisherKey, {
    fromId: (id) => (HOTEL_ID.test(id) ? agodaPageUrl(id) : null),
    fromUrl: (url) => {
      const id = hotelIdOf(url);
      return id ? agodaPageUrl(id) : null;
    },
  });
}
