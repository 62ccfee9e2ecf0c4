/**
 * Finding a business on Tripadvisor from its name and address: the site's own type-ahead search
 * (`GET /TypeAheadJson?action=API&types=hotel,eat,attr&details=true&query=…`, the endpoint its
 * search box calls), then a choice by name, street and postal code.
 */
import { z } from "zod";
import type { Business } from "../../core/tasks/business";
import { parseAnswer } from "../../scraping/answer-schema";
import { permanentError } from "../../scraping/errors";
import type { Lookup } from "../types";
import { locationPage } from "./urls";
import { matchScore, wantedBusiness } from "../kit/match";

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

export interface Candidate {
  url: string;
  name: string;
  address: string;
  score: number;
}

/**
 * The best type-ahead result for the business: a location page that matches it (see ../match),
 * the first of equally good ones. Null when none qualifies.
 */
export function chooseListing(
  business: Business,
  results: readonly TypeAheadResult[],
  origin: string,
): Candidate | null {
  const wanted = wantedBusiness(business);
  let best: Candidate | null = null;
  for (const result of results) {
    if (!result.url) continue;
    const url = URL.canParse(result.url, origin) ? new URL(result.url, origin) : null;
    const page = url ? locationPage(url) : null;
    if (!page) continue;
    const name = result.details?.name ?? result.name?.split(",")[0] ?? "";
    const address = result.details?.address ?? "";
    const score = matchScore(wanted, { name, address });
    if (score === null) continue;
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
  const { results } = parseAnswer(TypeAheadSchema, data, "Tripadvisor search");
  const chosen = chooseListing(business, results, origin);
  if (!chosen) {
    throw permanentError(
      "profile_not_found",
      `No Tripadvisor listing among ${results.length} search results matches "${business.name}" at ${business.address.street}, ${business.address.zip}`,
    );
  }
  return chosen.url;
};
