/**
 * Street and postal-code rules of the business matcher. A street matches when its house number and
 * every street word (abbreviations unified, unit dropped) appear in the listing's address; postal
 * codes compare without spacing or case, US ZIP+4 as its ZIP.
 */
import { words } from "./fold";
import { streetWord } from "./street-words";

/** Words after which an address names a unit, not the street. */
const UNIT_WORDS = new Set(["ste", "suite", "unit", "apt", "fl", "floor", "room", "rm"]);

/** German (and Dutch) street names are often one word: "Marktstrasse" → "markt", "str". */
const COMPOUND_STREET = /^(\p{L}{3,})(strasse|straat|str)$/u;

/** An address's words in their comparable street form: compounds split, "Street"/"St" alike. */
export function streetWords(text: string | null | undefined): string[] {
  return words(text).flatMap((word) => {
    const compound = COMPOUND_STREET.exec(word);
    return compound ? [compound[1], "str"] : [streetWord(word)];
  });
}

/** The business's street line: up to the first comma, line break or "#", and before any unit. */
function ownStreet(street: string): string[] {
  const out: string[] = [];
  for (const word of streetWords(street.split(/[,\n#]/)[0])) {
    if (UNIT_WORDS.has(word)) break;
    out.push(word);
  }
  return out;
}

/** The business's street (house number included) is in the listing's address, in any order. */
export function streetMatches(street: string, address: string | null | undefined): boolean {
  const wanted = ownStreet(street);
  if (wanted.length === 0 || !address) return false;
  const have = new Set(streetWords(address));
  return wanted.every((word) => have.has(word));
}

/** A postal code's comparable form: letters and digits only; US ZIP+4 reduced to the ZIP. */
export function postalKey(code: string | null | undefined): string {
  const compact = words(code).join("");
  return /^\d{9}$/.test(compact) ? compact.slice(0, 5) : compact;
}

export type PostalAgreement = "same" | "different" | "unknown";

/**
 * The listing's postal code against the business's: compared when the listing gives one, else
 * looked for in its address as one word or two neighbouring ones ("SW1A 1AA", "150-0002"); a code
 * of fewer than 3 characters tells nothing.
 */
export function postalAgreement(
  zip: string,
  listing: { postalCode?: string | null; address?: string | null },
): PostalAgreement {
  const wanted = postalKey(zip);
  if (wanted.length < 3) return "unknown";
  const given = postalKey(listing.postalCode);
  if (given) return given === wanted ? "same" : "different";
  const found = words(listing.address);
  return found.some((word, i) => word === wanted || word + (found[i + 1] ?? "") === wanted)
    ? "same"
    : "unknown";
}
