import { resolveProfile } from "../kit/profile";
import type { ProfileResolution } from "../types";

/** The OpenTable sites whose restaurant pages the module reads (the 2026-01 client's four). */
export const OPENTABLE_DOMAINS = [
  "opentable.com",
  "opentable.co.uk",
  "opentable.ca",
  "opentable.com.au",
] as const;

const SLUG = /^[a-z0-9][a-z0-9-]{0,150}$/i;
/** Restaurant pages: `/r/<slug>` (the profile; `/r/<slug>/reviews` and the like are its tabs). */
const PROFILE_PATH = /^\/r\/([a-z0-9][a-z0-9-]{0,150})(?:\/|$)/i;

function siteOf(host: string): string {
  const bare = host.toLowerCase().replace(/^www\./, "");
  return (
    OPENTABLE_DOMAINS.find((domain) => bare === domain || bare.endsWith(`.${domain}`)) ?? "opentable.com"
  );
}

export function opentablePageUrl(site: string, slug: string): string {
  return `https://www.${site}/r/${slug.toLowerCase()}`;
}

/** The restaurant's slug of a profile URL, or null. */
export function slugOf(url: URL): string | null {
  return PROFILE_PATH.exec(url.pathname)?.[1]?.toLowerCase() ?? null;
}

/** profile_key: a restaurant page (`/r/<slug>`, any tab, query dropped) or the bare slug. */
export function resolveOpentableProfile(profileKey: string, publisherKey: string): ProfileResolution {
  return resolveProfile(profileKey, publisherKey, {
    fromId: (id) => (SLUG.test(id) ? opentablePageUrl(siteOf(publisherKey), id) : null),
    fromUrl: (url) => {
      const slug = slugOf(url);
      return slug ? opentablePageUrl(siteOf(url.hostname), slug) : null;
    },
  });
}
