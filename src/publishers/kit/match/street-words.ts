/**
 * Street words written out or abbreviated, in their short form, so that "1 Market Street" and
 * "1 Market St" compare equal when a lookup checks a search result's street against the business's.
 * Part of the business matcher (./index.ts).
 */
const STREET_WORDS: Readonly<Record<string, string>> = {
  street: "st",
  avenue: "ave",
  av: "ave",
  road: "rd",
  boulevard: "blvd",
  drive: "dr",
  lane: "ln",
  place: "pl",
  court: "ct",
  square: "sq",
  highway: "hwy",
  parkway: "pkwy",
  north: "n",
  south: "s",
  east: "e",
  west: "w",
  strasse: "str",
  straße: "str",
  rue: "r",
};

/** The short form of one lower-case street word (the word itself when it has none). */
export function streetWord(word: string): string {
  return Object.hasOwn(STREET_WORDS, word) ? STREET_WORDS[word] : word;
}
