import { resolveProfile } from "../kit/profile";
import type { ProfileResolution } from "../types";

/**
 * Provider profiles: `/<kind>/<slug>-<pwid>` (`/physician/dr-jane-doe-xy3bz`, `/dentist/…`,
 * `/providers/…`), where the provider's id (pwid) ends the slug. Most pwids have 5 characters; a
 * 2025 search page also links `/physician/dr-samantha-prats-z5ppnnj580` with `"pwid":"Z5PPNNJ580"`
 * in its data, so 5 to 12 are taken. Bounded segments only.
 */
const PROFILE_PATH =
  /^\/(physician|dentist|providers?)\/([a-z0-9][a-z0-9-]{0,150}-([a-z0-9]{5,12}))(?:\/|$)/i;

/**
 * The path's kind, slug and pwid, or null. A 5-character id may be letters only (`XWHBY` in the
 * same page's list); every longer id seen carries a digit, which keeps a surname such as `…-johnson`
 * from passing for one.
 */
function profileParts(url: URL): { kind: string; slug: string; pwid: string } | null {
  const match = PROFILE_PATH.exec(url.pathname);
  if (!match) return null;
  const [, kind, slug, pwid] = match;
  return pwid.length === 5 || /\d/.test(pwid) ? { kind, slug, pwid } : null;
}

export function healthgradesPageUrl(kind: string, slug: string): string {
  return `https://www.healthgrades.com/${kind.toLowerCase()}/${slug.toLowerCase()}`;
}

/** The provider's pwid (upper-case, as the comments API takes it) of a profile URL, or null. */
export function pwidOf(url: URL): string | null {
  return profileParts(url)?.pwid.toUpperCase() ?? null;
}

/** profile_key: a provider's profile URL on healthgrades.com (any tab after it; query dropped). */
export function resolveHealthgradesProfile(profileKey: string, publisherKey: string): ProfileResolution {
  return resolveProfile(profileKey, publisherKey, {
    fromUrl: (url) => {
      const parts = profileParts(url);
      return parts ? healthgradesPageUrl(parts.kind, parts.slug) : null;
    },
  });
}
