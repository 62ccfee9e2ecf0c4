/**
 * Finds a hotel's HolidayCheck id from its name and city with HolidayCheck's open content query
 * (GraphQL, no key): `POST https://www.holidaycheck.de/svc/content-query-v2` with
 * `suggestionSearch(query, limit, tenant: "hcde", type: ["hotel"]) { hotels { count entities { id
 * name placeDetailString } } }`. A name alone lies (another country's "Hotel Ambrosia"), so a
 * candidate must carry the business's name and its city must appear in the place string.
 */
import { z } from "zod";
import type { Business } from "../../core/tasks/business";
import { permanentError } from "../../scraping/errors";
import { readAnswer } from "../kit/json-walk";
import type { Lookup } from "../types";
import { holidaycheckPageUrl } from "./profile";

export const CONTENT_QUERY_URL = "https://www.holidaycheck.de/svc/content-query-v2";
export const SUGGEST_QUERY =
  'query($q: String, $limit: Int) { suggestionSearch(query: $q, limit: $limit, tenant: "hcde", type: ["hotel"]) { hotels { count entities { id name placeDetailString } } } }';

const AnswerSchema = z.object({
  data: z.object({
    suggestionSearch: z.object({
      hotels: z
        .object({
          entities: z
            .array(
              z.object({
                id: z.string().uuid(),
                name: z.string().max(300),
                placeDetailString: z.string().max(500).nullish(),
              }),
            )
            .max(50),
        })
        .nullish(),
    }),
  }),
});

const GENERIC = new Set(["hotel", "hotels", "resort", "the", "and", "und"]);
/** Lower case, accents dropped, words without generic ones ("Hotel Sonne" and "Sonne" are one name). */
export function nameWords(name: string): string[] {
  return name
    .slice(0, 300)
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word && !GENERIC.has(word));
}

/** The one candidate whose name has every word of the business's name and whose place names its city. */
export function pickHotel(business: Business, data: unknown): string {
  const entities =
    readAnswer(AnswerSchema, data, "HolidayCheck content query").data.suggestionSearch.hotels?.entities ?? [];
  const wanted = nameWords(business.name);
  const city = nameWords(business.address.city).join(" ");
  const matches = entities.filter((entity) => {
    const words = new Set(nameWords(entity.name));
    const place = nameWords(entity.placeDetailString ?? "").join(" ");
    return (
      wanted.length > 0 &&
      wanted.every((word) => words.has(word)) &&
      (!city || ` ${place} `.includes(` ${city} `))
    );
  });
  if (matches.length !== 1) {
    throw permanentError(
      "profile_not_found",
      matches.length
        ? "HolidayCheck: more than one hotel matches the name and city"
        : "HolidayCheck: no hotel matches the name and city",
    );
  }
  return matches[0].id;
}

export const holidaycheckLookup: Lookup = async (business, ctx) => {
  const query = [business.name, business.address.city].filter(Boolean).join(" ").slice(0, 200);
  const { data } = await ctx.client.json(CONTENT_QUERY_URL, {
    method: "POST",
    json: { query: SUGGEST_QUERY, variables: { q: query, limit: 10 } },
  });
  return holidaycheckPageUrl("holidaycheck.de", pickHotel(business, data));
};
