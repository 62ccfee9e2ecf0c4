import { looksLikeUrl, resolveProfile } from "../kit/profile";
import type { ProfileResolution } from "../types";
import { TRUSTPILOT_ORIGIN } from "./reviews";

/** A business's Trustpilot name is its web domain ("bluedoorcafe.com", "www.bhphotovideo.com"). */
const BUSINESS_DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/i;

/** The canonical profile URL of a business domain. */
export function profileUrlFor(domain: string): string {
  return `${TRUSTPILOT_ORIGIN}/review/${encodeURIComponent(domain.toLowerCase())}`;
}

/**
 * `/review/<domain>` on any Trustpilot host (www, or a country site such as uk. or de.) becomes the
 * www URL of that profile: the reviews are the same on every country site once the adapter asks
 * for all languages, and one form keeps the stored profile_key stable. Other paths are not profiles.
 */
function profileFromUrl(url: URL): string | null {
  const match = /^\/review\/([^/]+)\/?$/.exec(url.pathname);
  if (!match) return null;
  let domain: string;
  try {
    domain = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  return BUSINESS_DOMAIN.test(domain) ? profileUrlFor(domain) : null;
}

/**
 * profile_key on trustpilot.com: a profile URL (`https://www.trustpilot.com/review/<domain>`, any
 * country subdomain, with or without the scheme), or the bare business domain.
 */
export function resolveTrustpilotProfileKey(profileKey: string, publisherKey: string): ProfileResolution {
  // "www.trustpilot.com/review/x.com" as pasted without its scheme.
  const key = !looksLikeUrl(profileKey) && profileKey.includes("/") ? `https://${profileKey}` : profileKey;
  return resolveProfile(key, publisherKey, {
    fromId: (id) => (BUSINESS_DOMAIN.test(id) ? profileUrlFor(id) : null),
    fromUrl: profileFromUrl,
  });
}
