import { resolveProfile } from "../kit/profile";
import type { ProfileResolution } from "../types";

/** A store id as REVIEWS.io writes them: a slug (`hp-cookers`) or a domain (`www.solean.com`). */
const STORE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const STORE_PATH = /^\/company-reviews\/store\/([A-Za-z0-9][A-Za-z0-9._-]{0,99})(?:\/|$)/;

export function reviewsIoPageUrl(store: string): string {
  return `https://www.reviews.io/company-reviews/store/${store}`;
}

export function storeOf(url: URL): string | null {
  return STORE_PATH.exec(url.pathname)?.[1] ?? null;
}

/** profile_key: a store's company-reviews page (reviews.io or reviews.co.uk), or the bare store id. */
export function resolveReviewsIoProfile(profileKey: string, publisherKey: string): ProfileResolution {
  return resolveProfile(profileKey, publisherKey, {
    hosts: ["reviews.io", "reviews.co.uk"],
    fromId: (id) => (STORE.test(id) ? reviewsIoPageUrl(id) : null),
    fromUrl: (url) => {
      const store = storeOf(url);
      return store ? reviewsIoPageUrl(store) : null;
    },
  });
}
