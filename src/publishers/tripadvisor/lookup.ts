/**
 * Finding a business on Tripadvisor from its name and address: the site's own type-ahead search
 * (`GET /TypeAheadJson?action=API&types=hotel,eat,attr&details=true&query=…`, the endpoint its
 * search box calls), then a choice by name, street and postal code.
 */
import { z } from "zod";
import type { Business } from "../../core/tasks/business";
import { permanentError } from "../../scraping/errors";
import type { Lookup } from "../types";
import { locationPage } from "./urls";
import { streetWord } from "../street-words";

const TypeAheadSchema = z.object({
  results: z.array(
    z.object({
      url: z.string().nullish(),
      name: z.string().nullish(),
      type: z.string().nullish(),
      value: z.union([z.number(), z.string()]).nullish(),
      details: z.object({ name: z.string().nullish(), address: z.string().nullish() }).nullish(),
    }),
  ),
});

export type TypeAheadResult = z.infer<typeof TypeAheadSchema>["results"][number];

/** Lower case, accents and punctuation removed, `&` as "and", single spaces. */
export function normalizeWords(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/&/g, " and ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Words that tell no two businesses apart. */
const NAME_NOISE = new Set(["the", "and", "a", "an", "le", "la", "les", "der", "die", "das", "il", "el"]);

function nameWords(name: string): Set<string> {
  return new Set(
    normalizeWords(name)
      .split(" ")
      .filter((word) => word && !NAME_NOISE.has(word)),
  );
}

function streetWords(text: string): string[] {
  return (
    normalizeWords(text)
      // "Hauptstraße" and "Hauptstrasse" end in the street word; split it off.
      .replace(/(\p{L}{3,})(strasse|str)\b/gu, "$1 $2")
      .split(" ")
      .filter(Boolean)
      .map((word) => streetWord(word))
  );
}

/**
 * How alike two names are: the Dice coefficient of their words (1 for the same words, 0 for none
 * in common), at least 0.8 when every word of one is in the other, since listings often add the
 * city or the quarter to the business's own name ("Dishoom" / "Dishoom Covent Garden").
 */
export function nameSimilarity(a: string, b: string): number {
  const left = nameWords(a);
  const right = nameWords(b);
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared++;
  const dice = (2 * shared) / (left.size + right.size);
  return shared === Math.min(left.size, right.size) ? Math.max(dice, 0.8) : dice;
}

/** The street matches when its house numbers and most of its other words are in the address. */
export function streetMatches(street: string, address: string): boolean {
  const wanted = streetWords(street);
  if (wanted.length === 0) return false;
  const have = new Set(streetWords(address));
  const numbers = wanted.filter((word) => /\d/.test(word));
  const words = wanted.filter((word) => !/\d/.test(word));
  if (!numbers.every((n) => have.has(n))) return false;
  const found = words.filter((word) => have.has(word)).length;
  return words.length === 0 ? numbers.length > 0 : found * 2 >= words.length;
}

/**
 * The postal code matches when the address has it as a word, or as two neighbouring words for codes
 * written with a space ("SW1A 1AA"); ZIP+4 ("94105-1420") matches its first five digits.
 */
export function postalCodeMatches(zip: string, address: string): boolean {
  const code = zip.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (code.length < 3) return false;
  const words = normalizeWords(address).split(" ");
  return words.some((word, i) => word === code || `${word}${words[i + 1] ?? ""}` === code);
}

/** Names at least this similar are the same business (given a matching street or postal code). */
export const NAME_THRESHOLD = 0.7;

export interface Candidate {
  url: string;
  name: string;
  address: string;
  score: number;
}

/**
 * The best type-ahead result for the business: a location page whose name is similar enough and
 * whose address has the business's street or postal code. Null when none qualifies.
 */
export function chooseListing(business: Business, results: readonly TypeAheadResult[], origin: string): Candidate | null {
  let best: Candidate | null = null;
  for (const result of results) {
    if (!result.url) continue;
    const url = URL.canParse(result.url, origin) ? new URL(result.url, origin) : null;
    const page = url ? locationPage(url) : null;
    if (!page) continue;
    const name = result.details?.name ?? result.name?.split(",")[0] ?? "";
    const address = result.details?.address ?? "";
    const similarity = nameSimilarity(business.name, name);
    if (similarity < NAME_THRESHOLD) continue;
    const street = streetMatches(business.address.street, address);
    const zip = postalCodeMatches(business.address.zip, address);
    if (!street && !zip) continue;
    const score = similarity + (street ? 0.5 : 0) + (zip ? 0.5 : 0);
    if (!best || score > best.score) best = { url: page.url, name, address, score };
  }
  return best;
}

export const tripadvisorLookup: Lookup = async (business, { client, publisherKey }) => {
  const origin = `https://www.${publisherKey}`;
  const search = new URL("/TypeAheadJson", origin);
  search.search = new URLSearchParams({
    action: "API",
    types: "hotel,eat,attr",
    details: "true",
    max: "10",
    query: `${business.name} ${business.address.city}`,
  }).toString();
  const { data } = await client.json(search);
  const parsed = TypeAheadSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw permanentError("publisher_error", `Tripadvisor search: ${issue?.path.join(".") || "(root)"}: ${issue?.message}`);
  }
  const chosen = chooseListing(business, parsed.data.results, origin);
  if (!chosen) {
    throw permanentError(
      "profile_not_found",
      `No Tripadvisor listing among ${parsed.data.results.length} search results matches "${business.name}" at ${business.address.street}, ${business.address.zip}`,
    );
  }
  return chosen.url;
};
