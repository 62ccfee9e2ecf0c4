import { canonicalPublisherKey } from "../../core/publishers/canonical";
import { resolveProfile } from "../kit/profile";
import type { ProfileResolution } from "../types";
import { shopSearchUrl } from "./reviews";

/** Trusted Shops' country sites; a shop's profile page is on any of them. */
export const TRUSTED_SHOPS_DOMAINS = [
  "trustedshops.com",
  "trustedshops.de",
  "trustedshops.co.uk",
  "trustedshops.eu",
  "trustedshops.at",
  "trustedshops.ch",
  "trustedshops.fr",
  "trustedshops.it",
  "trustedshops.es",
  "trustedshops.nl",
  "trustedshops.pl",
] as const;

/** A Trusted Shops id: `X` and 32 upper-case hex digits. */
export const TS_ID = /^X[0-9A-F]{32}$/;
const INFO_PAGE = /\/info_(X[0-9A-F]{32})\.html$/;

export function infoPageUrl(tsId: string): string {
  return `https://www.trustedshops.com/buyerrating/info_${tsId}.html`;
}

/**
 * The profile of a Trusted Shops URL: `tsId` for a shop's info page, `domain:<web address>` for the
 * shop search of the API (what a bare shop domain as profile_key becomes), or null.
 */
export function shopKeyOf(url: URL): string | null {
  const tsId = INFO_PAGE.exec(url.pathname)?.[1];
  if (tsId) return tsId;
  if (url.hostname === "api.trustedshops.com" && url.pathname.endsWith("/shops.json")) {
    const domain = canonicalPublisherKey(url.searchParams.get("url") ?? "");
    return domain ? `domain:${domain}` : null;
  }
  return null;
}

/**
 * profile_key: a shop's profile page on any Trusted Shops site (`…/info_<tsId>.html`, query
 * dropped), its tsId, or the shop's own web address (`example.de`), which the first run turns
 * into the tsId with the API's shop search.
 */
export function resolveTrustedShopsProfile(profileKey: string, publisherKey: string): ProfileResolution {
  return resolveProfile(profileKey, publisherKey, {
    hosts: TRUSTED_SHOPS_DOMAINS,
    fromId: (id) => {
      if (TS_ID.test(id)) return infoPageUrl(id);
      const domain = canonicalPublisherKey(id);
      return domain && !TRUSTED_SHOPS_DOMAINS.some((ts) => ts === domain) ? shopSearchUrl(domain) : null;
    },
    fromUrl: (url) => {
      const tsId = INFO_PAGE.exec(url.pathname)?.[1];
      return tsId ? `${url.origin}${url.pathname}` : null;
    },
  });
}
