import { resolveProfile } from "../kit/profile";
import type { ProfileResolution } from "../types";

/** A biz page path: `/biz/<alias>` (Yelp also answers `/biz/<encoded biz id>` there). */
const BIZ_PATH = /^\/biz\/([^/]+)\/?$/;

/** Percent-decodes an alias once, leaving a malformed one as written. */
function decoded(alias: string): string {
  try {
    return decodeURIComponent(alias);
  } catch {
    return alias;
  }
}

/**
 * The canonical biz page URL of an alias on a Yelp site: always `www.` on the publisher's own
 * domain, without query or fragment (`?osq=…`, `?hrid=…` only change what the page highlights).
 * The alias is encoded once, so an alias given already encoded (`caf%C3%A9-paris`) stays the same.
 */
export function bizUrl(publisherKey: string, alias: string): string {
  return `https://www.${publisherKey}/biz/${encodeURIComponent(decoded(alias))}`;
}

/** The alias of a biz page URL, or null when the URL is not a biz page. */
export function aliasOf(url: URL): string | null {
  const match = BIZ_PATH.exec(url.pathname);
  return match && match[1] ? match[1] : null;
}

/**
 * profile_key for Yelp: a biz page URL on the publisher's domain (any subdomain: www., m.) or the
 * bare alias (`blue-door-cafe-san-francisco`), both turned into `https://www.<domain>/biz/<alias>`.
 * An alias with a slash, `?`, `#` or whitespace is not an alias.
 */
export function resolveYelpProfile(profileKey: string, publisherKey: string): ProfileResolution {
  return resolveProfile(profileKey, publisherKey, {
    fromId: (id) => (/^[^/?#\s]+$/.test(id) ? bizUrl(publisherKey, id) : null),
    fromUrl: (url) => {
      const alias = aliasOf(url);
      return alias ? bizUrl(publisherKey, alias) : null;
    },
  });
}
