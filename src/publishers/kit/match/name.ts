/**
 * How alike a listing's name is to the business's: the Dice coefficient of their word sets, with
 * articles and legal forms left out, a name held whole inside the other counted as alike, and a
 * listing known by its web address ("bluedoorcafe.com") compared with the name spelled without spaces.
 */
import { words } from "./fold";

/** Words that say what kind of name or company it is rather than which one. */
const NAME_NOISE = new Set([
  // Articles and "and", in the languages of the publishers' markets.
  ...[
    "the",
    "a",
    "an",
    "and",
    "le",
    "la",
    "les",
    "l",
    "der",
    "die",
    "das",
    "und",
    "il",
    "lo",
    "el",
    "los",
    "las",
    "et",
    "y",
  ],
  // Legal forms.
  ...[
    "inc",
    "llc",
    "ltd",
    "limited",
    "co",
    "corp",
    "corporation",
    "company",
    "gmbh",
    "ag",
    "sa",
    "sas",
    "sarl",
    "srl",
    "spa",
    "bv",
    "nv",
    "plc",
    "pty",
  ],
  ...["ab", "as", "aps", "oy"],
]);

/** Scripts written without spaces between words; their names are compared by pairs of characters. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** A name's comparable units: its words, and for unspaced scripts each pair of neighbouring characters. */
export function nameUnits(name: string): Set<string> {
  const units = new Set<string>();
  for (const word of words(name)) {
    if (NAME_NOISE.has(word)) continue;
    const chars = [...word];
    if (chars.length > 2 && UNSPACED.test(word))
      for (let i = 0; i + 1 < chars.length; i++) units.add(chars[i] + chars[i + 1]);
    else units.add(word);
  }
  return units;
}

/** A name's words joined, without the noise words: "The Blue-Door Café" → "bluedoorcafe". */
function compactName(name: string): string {
  return words(name)
    .filter((word) => !NAME_NOISE.has(word))
    .join("");
}

/** A web address as a name: "www.blue-door-cafe.co.uk" → "bluedoorcafe". */
export function domainStem(domain: string): string {
  const labels = domain
    .trim()
    .toLowerCase()
    .replace(/^www\./, "")
    .split(".");
  // Drop the public suffix, roughly: the last label, and a second one when it is a short "co"/"com" style label.
  const cut = labels.length > 2 && labels[labels.length - 2].length <= 3 ? 2 : 1;
  return labels
    .slice(0, Math.max(1, labels.length - cut))
    .join("")
    .replace(/[^a-z0-9]/g, "");
}

const DOMAIN_LIKE = /^[\w.-]+\.[a-z]{2,}$/i;

/** The similarity a name held whole inside the other gets at least: listings add the quarter or the city ("Dishoom Covent Garden"). */
export const CONTAINED_SIMILARITY = 0.8;

/**
 * How alike the listing's name (and web address, when the publisher knows one) is to the business's
 * name, from 0 (no word in common) to 1 (the same words). The business's whole name inside the
 * listing's counts as alike; the listing's name inside the business's only when it has two words or
 * more, since one shared word ("Cafe") says nothing.
 */
export function nameSimilarity(
  wanted: string,
  listed: string | null | undefined,
  domain?: string | null,
): number {
  const compact = compactName(wanted);
  const domains = [domain, listed && DOMAIN_LIKE.test(listed.trim()) ? listed : null].filter(
    (d): d is string => !!d,
  );
  if (compact && (compactName(listed ?? "") === compact || domains.some((d) => domainStem(d) === compact)))
    return 1;
  const ours = nameUnits(wanted);
  const theirs = nameUnits(listed ?? "");
  if (ours.size === 0 || theirs.size === 0) return 0;
  let shared = 0;
  for (const unit of ours) if (theirs.has(unit)) shared++;
  const dice = (2 * shared) / (ours.size + theirs.size);
  const contained = shared === ours.size || (shared === theirs.size && theirs.size >= 2);
  return contained ? Math.max(dice, CONTAINED_SIMILARITY) : dice;
}
