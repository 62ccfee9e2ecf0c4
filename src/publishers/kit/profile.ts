import { isOnDomain } from "../../core/publishers/canonical";
import { MSG, isHttpUrl } from "../../core/validation";
import type { ProfileResolution } from "../types";

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Looks like a URL (a scheme), as opposed to a bare id or slug. */
export function looksLikeUrl(profileKey: string): boolean {
  return HAS_SCHEME.test(profileKey);
}

export interface ProfileRules {
  /** Hosts (and their subdomains) where the publisher serves profiles; the publisher key is always one. */
  hosts?: readonly string[];
  /** Builds the profile URL from an id or slug; absent where only URLs are accepted. */
  fromId?: (id: string) => string | null;
  /** Checks (and may rewrite) a URL on one of the hosts; null refuses it as not a profile. */
  fromUrl?: (url: URL) => string | null;
}

/**
 * The usual profile_key rules: a URL on the publisher's domain (or one of its profile hosts), or an
 * id the module can build a URL from. Messages are the ones docs/api.md names.
 */
export function resolveProfile(
  profileKey: string,
  publisherKey: string,
  rules: ProfileRules = {},
): ProfileResolution {
  if (looksLikeUrl(profileKey)) {
    const url = isHttpUrl(profileKey);
    if (!url) return { error: MSG.url };
    const hosts = [publisherKey, ...(rules.hosts ?? [])];
    if (!hosts.some((host) => isOnDomain(url.hostname, host)))
      return { error: `Enter a URL on ${publisherKey} or one of its subdomains.` };
    const resolved = rules.fromUrl ? rules.fromUrl(url) : url.toString();
    return resolved ? { url: resolved } : { error: `Enter the URL of a profile on ${publisherKey}.` };
  }
  const built = rules.fromId?.(profileKey);
  return built ? { url: built } : { error: MSG.url };
}
