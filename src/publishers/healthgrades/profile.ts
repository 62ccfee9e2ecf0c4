import { resolveProfile } from "../profile";
import type { ProfileResolution } from "../types";

/**
 * Provider profiles: `/<kind>/<slug>-<pwid>` (`/physician/dr-jane-doe-xy3bz`, `/dentist/…`,
 * `/providers/…`), where the provider's 5-character id (pwid) ends the slug. Bounded segments only.
 */
const PROFILE_PATH = /^\/(physician|dentist|providers?)\/([a-z0-9][a-z0-9-]{0,150}-([a-z0-9]{5}))(?:\/|$)/i;

export function healthgradesPageUrl(kind: string, slug: string): string {
  return `https://www.healthgrades.com/${kind.toLowerCase()}/${slug.toLowerCase()}`;
}

/** The provider's pwid (upper-case, as the comments API takes it) of a profile URL, or null. */
export function pwidOf(url: URL): string | null {
  return PROFILE_PATH.exec(url.pathname)?.[3]?.toUpperCase() ?? null;
}

/** profile_key: a provider's profile URL on healthgrades.com (any tab after it; query dropped). */
export function resolveHealthgradesProfile(profileKey: string, publisherKey: string): ProfileResolution {
  return resolveProfile(profileKey, publisherKey, {
    fromUrl: (url) => {
      const match = PROFILE_PATH.exec(url.pathname);
      return match ? healthgradesPageUrl(match[1], match[2]) : null;
    },
  });
}
