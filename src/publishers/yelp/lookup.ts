/**
 * Finds a business's Yelp biz page from its name and address with Yelp's own search: the search
 * snippet endpoint (`/search/snippet?find_desc=&find_loc=`, the JSON the search page loads; shape as
 * in scrapfly-scrapers' yelp-scraper results/search.json: `searchPageProps.mainContentComponentsListProps[]`
 * with `bizId` and `searchResultBusiness`).
 */
import { z } from "zod";
import type { Business } from "../../core/tasks/business";
import { permanentError, ScrapeError } from "../../scraping/errors";
import type { LookupContext } from "../types";
import { readBizPage } from "./biz-page";
import { postalAgreement, rankMatches, wantedBusiness } from "../kit/match";
import { aliasOf, bizUrl } from "./profile";

const ResultSchema = z.object({
  bizId: z.string().min(1),
  searchResultBusiness: z.object({
    name: z.string(),
    alias: z.string().nullish(),
    businessUrl: z.string().nullish(),
    formattedAddress: z.string().nullish(),
    isAd: z.boolean().nullish(),
  }),
  adLoggingInfo: z.unknown().optional(),
});

const SnippetSchema = z.object({
  searchPageProps: z.object({ mainContentComponentsListProps: z.array(z.unknown()) }),
});

export interface SearchResult {
  bizId: string;
  name: string;
  alias: string;
  /** The street line Yelp shows ("" for businesses that serve an area). */
  address: string;
}

/** Organic business results of one search answer, in Yelp's order; ads and other page parts are skipped. */
export function searchResults(data: unknown): SearchResult[] {
  const parsed = SnippetSchema.safeParse(data);
  if (!parsed.success)
    throw permanentError(
      "publisher_error",
      "Yelp search: the answer has no searchPageProps.mainContentComponentsListProps",
    );
  const results: SearchResult[] = [];
  for (const item of parsed.data.searchPageProps.mainContentComponentsListProps) {
    const result = ResultSchema.safeParse(item);
    if (!result.success) continue;
    const { bizId, searchResultBusiness: biz, adLoggingInfo } = result.data;
    if (biz.isAd || adLoggingInfo) continue;
    // A businessUrl that is no URL at all is skipped with its result, never a TypeError that would fail the task as `internal`.
    const url = biz.businessUrl ? URL.parse(biz.businessUrl, "https://www.yelp.com") : null;
    const alias = biz.alias || (url ? aliasOf(url) : null);
    if (!alias) continue;
    results.push({ bizId, name: biz.name, alias, address: biz.formattedAddress ?? "" });
  }
  return results;
}

/** Results that match the business (see ../match), best first. */
export function matchingResults(business: Business, results: readonly SearchResult[]): SearchResult[] {
  return rankMatches(wantedBusiness(business), results, (result) => ({
    name: result.name,
    address: result.address,
  })).map(({ item }) => item);
}

/** Candidates whose biz page is read to compare postal codes; more would only be weaker names. */
const MAX_CANDIDATES = 3;

export async function lookupYelp(
  business: Business,
  { client, publisherKey }: LookupContext,
): Promise<string> {
  const { street, city, state, zip } = business.address;
  const search = new URL(`https://www.${publisherKey}/search/snippet`);
  search.searchParams.set("find_desc", business.name);
  search.searchParams.set("find_loc", `${street}, ${city}, ${state} ${zip}`.trim());
  search.searchParams.set("request_origin", "user");
  const { data } = await client.json(search);
  const results = searchResults(data);
  for (const candidate of matchingResults(business, results).slice(0, MAX_CANDIDATES)) {
    const url = bizUrl(publisherKey, candidate.alias);
    let postalCode: string | null;
    try {
      ({ postalCode } = await readBizPage((await client.request(url)).text));
    } catch (err) {
      // A result whose page is gone is simply not the business.
      if (err instanceof ScrapeError && err.reason === "profile_not_found") continue;
      throw err;
    }
    // Search results carry no postal code; the biz page does. A page without one is judged on name and street.
    if (postalAgreement(zip, { postalCode }) !== "different") return url;
  }
  throw permanentError(
    "profile_not_found",
    `Yelp search: no result matches the business's name, street and postal code (${results.length} results)`,
  );
}
