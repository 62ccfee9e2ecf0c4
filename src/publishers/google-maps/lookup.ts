import type { Business } from "../../core/tasks/business";
import { permanentError } from "../../scraping/errors";
import type { Lookup } from "../types";
import { at } from "./nested";
import { placeFromRecord, type Place } from "./place-record";
import { featureIdUrl } from "./place-ref";
import { streetWord } from "../street-words";

/**
 * Finding a business on Maps from its name and address, with the search the Maps page itself runs:
 * `GET https://www.google.com/search?tbm=map&hl=en&q=<text>&pb=<descriptor>`, answered with a
 * `)]}'` line and a positional array whose element 64 lists the results, each holding a place
 * record at [1] (the record a place page carries; see ./place-record.ts).
 */

/** The search descriptor cut down to what the result list needs (20 results, with their records). */
const SEARCH_PB = "!7i20!10b1!34m19!2b1!3b1!4b1!6b1!8m6!1b1!3b1!4b1!5b1!6b1!7b1!9b1!12b1!14b1!20b1!23b1!25b1!26b1!31b1";
const RESULTS_INDEX = 64;

export function searchUrl(business: Business): string {
  const { street, zip, city } = business.address;
  const q = [business.name, street, `${zip} ${city}`.trim()].filter(Boolean).join(", ");
  return `https://www.google.com/search?${new URLSearchParams({ tbm: "map", authuser: "0", hl: "en", q, pb: SEARCH_PB })}`;
}

/** The places of a search answer, in Google's order; an answer without a result list found nothing. */
export function parseSearchResults(data: unknown): Place[] {
  if (!Array.isArray(data)) throw permanentError("publisher_error", "Maps search: the answer is not a list");
  const results = at(data, RESULTS_INDEX);
  if (results === undefined || results === null) return [];
  if (!Array.isArray(results)) throw permanentError("publisher_error", `Maps search: the result list at [${RESULTS_INDEX}] is not a list`);
  const places: Place[] = [];
  for (const result of results) {
    const place = placeFromRecord(at(result, 1));
    if (place && !places.some((p) => p.featureId === place.featureId)) places.push(place);
  }
  if (results.length > 0 && places.length === 0) {
    throw permanentError("publisher_error", `Maps search: none of ${results.length} results has a place record with a feature id at [1][10]`);
  }
  return places;
}

/** Lower case, accents and punctuation removed, words split; "Straße" and "strasse" agree. */
export function words(text: string | null | undefined): string[] {
  return (text ?? "")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/&/g, " and ")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .flatMap((word) => {
      // "Marktstrasse" → "markt", "str": German street names are often one word.
      const compound = /^(.{3,})(strasse|str)$/.exec(word);
      return compound ? [compound[1], "str"] : [streetWord(word)];
    });
}

/** How alike two names are: the Dice coefficient of their word sets (1 = the same words). */
export function nameSimilarity(a: string, b: string): number {
  const x = new Set(words(a));
  const y = new Set(words(b));
  if (!x.size || !y.size) return 0;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return (2 * shared) / (x.size + y.size);
}

const compactPostal = (code: string | null | undefined) => words(code).join("");

/** The street matches when every word of it (house number included) is in the place's address. */
function streetMatches(street: string, place: Place): boolean {
  const wanted = words(street);
  if (!wanted.length) return false;
  const have = new Set(words(place.addressText));
  return wanted.every((w) => have.has(w));
}

/** Postal codes agree, disagree, or the place gives none. */
function postalAgreement(zip: string, place: Place): "same" | "different" | "unknown" {
  const wanted = compactPostal(zip);
  if (!wanted) return "unknown";
  if (place.postalCode) {
    const have = compactPostal(place.postalCode);
    // "94105" and "94105-1234" are the same area.
    return have === wanted || have.startsWith(wanted) || wanted.startsWith(have) ? "same" : "different";
  }
  return new Set(words(place.addressText)).has(wanted) ? "same" : "unknown";
}

/** Names this alike are the same business ("The Blue Door Cafe" for "Blue Door Cafe": 0.86; "Blue Door Bakery": 0.67, not); so is a name holding all our words. */
const NAME_THRESHOLD = 0.7;

export interface Match {
  place: Place;
  score: number;
}

/**
 * The search result that is this business: a name alike enough, a postal code that does not
 * contradict it, and the street or the postal code confirmed. Among several, the best score
 * (name similarity plus one for each of street and postal code) wins. Null when none qualifies.
 */
export function chooseMatch(business: Business, places: readonly Place[]): Match | null {
  let best: Match | null = null;
  for (const place of places) {
    if (!place.name) continue;
    const nameWords = new Set(words(place.name));
    const ourWords = words(business.name);
    const contained = ourWords.length > 0 && ourWords.every((w) => nameWords.has(w));
    const similarity = Math.max(nameSimilarity(business.name, place.name), contained ? NAME_THRESHOLD : 0);
    if (similarity < NAME_THRESHOLD) continue;
    const postal = postalAgreement(business.address.zip, place);
    if (postal === "different") continue;
    const street = streetMatches(business.address.street, place);
    if (!street && postal !== "same") continue;
    const score = similarity + (street ? 1 : 0) + (postal === "same" ? 1 : 0);
    if (!best || score > best.score) best = { place, score };
  }
  return best;
}

/** Looks the business up with Maps search and returns its place URL (see {@link chooseMatch}). */
export const lookupPlace: Lookup = async (business, { client }) => {
  const { data } = await client.json(searchUrl(business));
  const places = parseSearchResults(data);
  const match = chooseMatch(business, places);
  if (!match) {
    throw permanentError("profile_not_found", `Maps search: none of ${places.length} results matches the business's name, street and postal code`);
  }
  return featureIdUrl(match.place.featureId, match.place.name);
};
