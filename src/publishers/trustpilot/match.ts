/**
 * Choosing a business among Trustpilot's search results by name, street and postal code. Pure
 * functions, so the rules can be tested on their own.
 */
import { streetWord } from "../street-words";

/** A search result as the lookup sees it. */
export interface Candidate {
  /** Trustpilot's name of the business: its domain, e.g. "www.bluedoorcafe.com". */
  identifyingName: string;
  displayName: string;
  address: string | null;
  city: string | null;
  zipCode: string | null;
}

export interface Wanted {
  name: string;
  street: string;
  zip: string;
}

/** Lower case, accents and punctuation gone, words separated by one space. */
export function plain(text: string): string {
  return text
    .replace(/ß/g, "ss")
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

// Words that say what kind of company it is rather than which one.
const LEGAL_FORMS = new Set([
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
  "ab",
  "as",
  "aps",
  "oy",
  "the",
]);

function nameWords(name: string): string[] {
  return plain(name)
    .split(" ")
    .filter((word) => word && !LEGAL_FORMS.has(word));
}

/** A domain as a name: "www.blue-door-cafe.co.uk" → "bluedoorcafe". */
function domainStem(domain: string): string {
  const host = domain.toLowerCase().replace(/^www\./, "");
  const labels = host.split(".");
  // Drop the public suffix, roughly: the last label, and a second one when it is a short "co"/"com" style label.
  const cut = labels.length > 2 && labels[labels.length - 2].length <= 3 ? 2 : 1;
  return labels
    .slice(0, Math.max(1, labels.length - cut))
    .join("")
    .replace(/[^a-z0-9]/g, "");
}

/**
 * How well a candidate's name fits: 2 the same name (or its domain spells the name), 1 one name's
 * words all within the other's ("Blue Door" and "Blue Door Cafe"), 0 another business.
 */
export function nameScore(wanted: string, candidate: Candidate): 0 | 1 | 2 {
  const want = nameWords(wanted);
  const have = nameWords(candidate.displayName);
  if (want.length === 0) return 0;
  const compact = want.join("");
  // Many businesses are listed under their web address ("bluedoorcafe.com"), which spells the name without spaces.
  const domains = [candidate.identifyingName, ...(/^[\w.-]+\.[a-z]{2,}$/i.test(candidate.displayName.trim()) ? [candidate.displayName.trim()] : [])];
  if (have.join(" ") === want.join(" ") || have.join("") === compact || domains.some((domain) => domainStem(domain) === compact)) return 2;
  const [small, large] = have.length <= want.length ? [new Set(have), new Set(want)] : [new Set(want), new Set(have)];
  // One shared word ("Cafe") says nothing; two or more in both names start to.
  return small.size >= 2 && [...small].every((word) => large.has(word)) ? 1 : 0;
}

function streetForm(text: string): string {
  return plain(text)
    .replace(/(\p{L})strasse\b/gu, "$1 str")
    .split(" ")
    .map((word) => streetWord(word))
    .join(" ");
}

/** The business's street appears, as words in order, in the candidate's address line. */
export function streetMatches(street: string, candidate: Candidate): boolean {
  const want = streetForm(street);
  if (!want || !candidate.address) return false;
  return ` ${streetForm(candidate.address)} `.includes(` ${want} `);
}

const zipForm = (zip: string) => plain(zip).replace(/ /g, "");

/** The postal codes are the same (spacing and case aside), or the candidate's address line holds it. */
export function zipMatches(zip: string, candidate: Candidate): boolean {
  const want = zipForm(zip);
  if (!want) return false;
  if (candidate.zipCode) return zipForm(candidate.zipCode) === want;
  return candidate.address ? ` ${plain(candidate.address)} `.includes(` ${plain(zip)} `) : false;
}

/**
 * The best candidate, or null when none fits well enough. A candidate needs a fitting name and the
 * business's street or postal code; one whose postal code is a different one is another branch or
 * namesake and never chosen. Among several, the most fitting wins, then the search's own order.
 */
export function chooseCandidate(wanted: Wanted, candidates: readonly Candidate[]): Candidate | null {
  let best: { candidate: Candidate; score: number } | null = null;
  for (const candidate of candidates) {
    const name = nameScore(wanted.name, candidate);
    if (name === 0) continue;
    const zip = zipMatches(wanted.zip, candidate);
    if (candidate.zipCode && zipForm(wanted.zip) && !zip) continue;
    const street = streetMatches(wanted.street, candidate);
    if (!zip && !street) continue;
    const score = name + (zip ? 2 : 0) + (street ? 2 : 0);
    if (!best || score > best.score) best = { candidate, score };
  }
  return best?.candidate ?? null;
}
