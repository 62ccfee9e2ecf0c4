/**
 * The one business matcher every lookup uses: is a publisher's search result the business the
 * client named? The same rules for every publisher, so a business found on one is found on all:
 * a name alike enough, a postal code that does not contradict, and the street or the postal code
 * confirmed. Pure functions; test/publishers/match.test.ts holds the cases.
 */
import { postalAgreement, streetMatches } from "./address";
import { nameSimilarity } from "./name";

export { words } from "./fold";
export { nameSimilarity, domainStem } from "./name";
export { postalAgreement, postalKey, streetMatches, streetWords, type PostalAgreement } from "./address";

/** Names at least this alike are the same business (given the street or postal code): "Blue Door Cafe" / "Blue Door Bakery" is 0.67. */
export const NAME_THRESHOLD = 0.7;

/** What the lookup was asked to find. */
export interface WantedBusiness {
  name: string;
  street: string;
  zip: string;
}

/** A search result as the publisher shows it; absent fields are unknown. */
export interface Listing {
  name: string | null | undefined;
  /** A web address the listing is known by (Trustpilot names businesses by their domain). */
  domain?: string | null;
  /** The address line or the whole address text. */
  address?: string | null;
  postalCode?: string | null;
}

/**
 * How well the listing matches, or null when it is not the business: name similarity (0.7..1) plus
 * one for the street and one for the postal code confirmed.
 */
export function matchScore(wanted: WantedBusiness, listing: Listing): number | null {
  const name = nameSimilarity(wanted.name, listing.name, listing.domain);
  if (name < NAME_THRESHOLD) return null;
  const postal = postalAgreement(wanted.zip, listing);
  if (postal === "different") return null;
  const street = streetMatches(wanted.street, listing.address);
  if (!street && postal !== "same") return null;
  return name + (street ? 1 : 0) + (postal === "same" ? 1 : 0);
}

export interface Ranked<T> {
  item: T;
  score: number;
}

/** The items that match, best first; equal scores keep the search's own order. */
export function rankMatches<T>(
  wanted: WantedBusiness,
  items: readonly T[],
  listing: (item: T) => Listing | null,
): Ranked<T>[] {
  const ranked: Ranked<T>[] = [];
  for (const item of items) {
    const seen = listing(item);
    const score = seen ? matchScore(wanted, seen) : null;
    if (score !== null) ranked.push({ item, score });
  }
  return ranked.sort((a, b) => b.score - a.score);
}

/** The best matching item, or null when none matches. */
export function bestMatch<T>(
  wanted: WantedBusiness,
  items: readonly T[],
  listing: (item: T) => Listing | null,
): Ranked<T> | null {
  return rankMatches(wanted, items, listing)[0] ?? null;
}

/** The matcher's view of a submitted business. */
export function wantedBusiness(business: {
  name: string;
  address: { street: string; zip: string };
}): WantedBusiness {
  return { name: business.name, street: business.address.street, zip: business.address.zip };
}
