/**
 * How the lookup tells whether a Yelp search result is the business it was given: names compared
 * as word sets, streets by house number and street words, postal codes by their significant part.
 * Case, punctuation and accents never matter.
 */
import { streetWord } from "../street-words";

/** Lower-case ASCII words: accents folded, `&` read as "and", apostrophes dropped. */
export function words(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/['’`]/g, "")
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const NAME_NOISE = new Set(["the"]);

/** Dice coefficient of the two names' word sets (0..1); a leading "The" is ignored. */
export function nameSimilarity(a: string, b: string): number {
  const x = new Set(words(a).filter((w) => !NAME_NOISE.has(w)));
  const y = new Set(words(b).filter((w) => !NAME_NOISE.has(w)));
  if (x.size === 0 || y.size === 0) return 0;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return (2 * shared) / (x.size + y.size);
}

/** Names at least this similar are the same business name ("Blue Door Cafe" / "The Blue Door Café"). */
export const NAME_THRESHOLD = 0.75;

/** Words after which an address names a unit, not the street. */
const UNIT_WORDS = new Set(["ste", "suite", "unit", "apt", "fl", "floor", "room", "rm"]);

/** The street part of an address line: house number and street words, abbreviations unified, unit dropped. */
export function streetWords(street: string): string[] {
  const line = street.split(/[,\n#]/)[0] ?? "";
  const out: string[] = [];
  for (const word of words(line)) {
    if (UNIT_WORDS.has(word)) break;
    out.push(streetWord(word));
  }
  return out;
}

/**
 * Same street address: the same house number (when both have one) and every street word of the
 * shorter form found in the longer ("1 Market St" / "1 Market Street, Ste 200").
 */
export function sameStreet(a: string, b: string): boolean {
  const x = streetWords(a);
  const y = streetWords(b);
  if (x.length === 0 || y.length === 0) return false;
  const number = (w: string[]) => w.find((word) => /\d/.test(word));
  const nx = number(x);
  const ny = number(y);
  if (nx !== undefined && ny !== undefined && nx !== ny) return false;
  const [shorter, longer] = x.length <= y.length ? [x, y] : [y, x];
  const pool = new Set(longer);
  return shorter.every((word) => pool.has(word));
}

/** A postal code's comparable form: upper-case without spaces; US ZIP+4 reduced to the ZIP. */
export function postalKey(code: string): string {
  const compact = code.toUpperCase().replace(/[^A-Z0-9]/g, "");
  return /^\d{9}$/.test(compact) ? compact.slice(0, 5) : compact;
}

export function samePostalCode(a: string, b: string): boolean {
  const x = postalKey(a);
  return x !== "" && x === postalKey(b);
}
