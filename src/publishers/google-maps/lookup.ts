import type { Business } from "../../core/tasks/business";
import { permanentError } from "../../scraping/errors";
import type { Lookup } from "../types";
import { at } from "./nested";
import { placeFromRecord, type Place } from "./place-record";
import { featureIdUrl } from "./place-ref";
import { bestMatch, wantedBusiness } from "../kit/match";

/**
 * Finding a business on Maps from its name and address, with the search the Maps page itself runs:
 * `GET https://www.google.com/search?tbm=map&hl=en&q=<text>&pb=<descriptor>`, answered with a
 * `)]}'` line and a positional array whose element 64 lists the results, each holding a place
 * record at [1] (the record a place page carries; see ./place-record.ts).
 */

/** The search descriptor cut down to what the result list needs (20 results, with their records). */
const SEARCH_PB =
  "!7i20!10b1!34m19!2b1!3b1!4b1!6b1!8m6!1b1!3b1!4b1!5b1!6b1!7b1!9b1!12b1!14b1!20b1!23b1!25b1!26b1!31b1";
const RESULTS_INDEX = 64;

export function searchUrl(business: Business): string {
  const { street, zip, city } = business.address;
  const q = [business.name, street, `${zip} ${city}`.trim()].filter(Boolean).join(", ");
  return `https://www.google.com/search?${new URLSearchParams({ tbm: "map", authuser: "0", hl: "en", q, pb: SEARCH_PB }).toString()}`;
}

/** The places of a search answer, in Google's order; an answer without a result list found nothing. */
export function parseSearchResults(data: unknown): Place[] {
  if (!Array.isArray(data)) throw permanentError("publisher_error", "Maps search: the answer is not a list");
  const results = at(data, RESULTS_INDEX);
  if (results === undefined || results === null) return [];
  if (!Array.isArray(results))
    throw permanentError(
      "publisher_error",
      `Maps search: the result list at [${RESULTS_INDEX}] is not a list`,
    );
  const places: Place[] = [];
  for (const result of results) {
    const place = placeFromRecord(at(result, 1));
    if (place && !places.some((p) => p.featureId === place.featureId)) places.push(place);
  }
  if (results.length > 0 && places.length === 0) {
    throw permanentError(
      "publisher_error",
      `Maps search: none of ${results.length} results has a place record with a feature id at [1][10]`,
    );
  }
  return places;
}

export interface Match {
  place: Place;
  score: number;
}

/** The search result that is this business (see ../match), the first of equally good ones; null when none qualifies. */
export function chooseMatch(business: Business, places: readonly Place[]): Match | null {
  const best = bestMatch(wantedBusiness(business), places, (place) =>
    place.name ? { name: place.name, address: place.addressText, postalCode: place.postalCode } : null,
  );
  return best && { place: best.item, score: best.score };
}

/** Looks the business up with Maps search and returns its place URL (see {@link chooseMatch}). */
export const lookupPlace: Lookup = async (business, { client }) => {
  const { data } = await client.json(searchUrl(business));
  const places = parseSearchResults(data);
  const match = chooseMatch(business, places);
  if (!match) {
    throw permanentError(
      "profile_not_found",
      `Maps search: none of ${places.length} results matches the business's name, street and postal code`,
    );
  }
  return featureIdUrl(match.place.featureId, match.place.name);
};
