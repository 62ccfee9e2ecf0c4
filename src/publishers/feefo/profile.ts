import { resolveProfile } from "../kit/profile";
import type { ProfileResolution } from "../types";

/** A merchant identifier as Feefo writes them (`example-retail-merchant`). */
const MERCHANT = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;
/** Review pages: `/reviews/<merchant>`, optionally under a locale (`/en-GB/`, `/en_GB/`). */
const REVIEWS_PATH = /^\/(?:[a-z]{2}[-_][A-Za-z]{2}\/)?reviews\/([A-Za-z0-9][A-Za-z0-9_-]{0,99})(?:\/|$)/;

export function feefoPageUrl(merchant: string): string {
  return `https://www.feefo.com/en-GB/reviews/${merchant}`;
}

/** The merchant identifier of a Feefo review page URL, or null. */
export function merchantOf(url: URL): string | null {
  return REVIEWS_PATH.exec(url.pathname)?.[1] ?? null;
}

/** profile_key: a merchant's review page on feefo.com, or the bare merchant identifier. */
export function resolveFeefoProfile(profileKey: string, publisherKey: string): ProfileResolution {
  return resolveProfile(profileKey, publisherKey, {
    fromId: (id) => (MERCHANT.test(id) ? feefoPageUrl(id) : null),
    fromUrl: (url) => {
      const merchant = merchantOf(url);
      return merchant ? feefoPageUrl(merchant) : null;
    },
  });
}
