import { z } from "zod";
import { permanentError } from "../../scraping/errors";
import type { Lookup } from "../types";
import { bestMatch, type WantedBusiness } from "../kit/match";
import { pageProps } from "./next-data";
import { profileUrlFor } from "./profile";
import { TRUSTPILOT_ORIGIN } from "./reviews";

const text = z.string().nullish();

/** A business in the search page's `props.pageProps.businessUnits`. */
const SearchUnitSchema = z.object({
  identifyingName: z.string().min(1),
  displayName: z.string(),
  location: z.object({ address: text, city: text, zipCode: text, country: text }).nullish(),
});

/**
 * The search page's data. `businessUnits` is the list of results; some page versions wrap it as
 * `{ businesses: [...], totalPages }` (as category pages do), so both forms are read.
 */
const SearchPagePropsSchema = z.object({
  businessUnits: z.union([
    z.array(SearchUnitSchema),
    z.object({ businesses: z.array(SearchUnitSchema) }).transform((wrapped) => wrapped.businesses),
  ]),
});

/** A search result as the lookup sees it. */
export interface Candidate {
  /** Trustpilot's name of the business: its domain, e.g. "www.bluedoorcafe.com". */
  identifyingName: string;
  displayName: string;
  address: string | null;
  city: string | null;
  zipCode: string | null;
}

/**
 * The candidate that is the business (see ../match): its name or its domain alike enough, its
 * postal code not another one, and the street or the postal code confirmed. The first of equally
 * good ones; null when none fits.
 */
export function chooseCandidate(wanted: WantedBusiness, candidates: readonly Candidate[]): Candidate | null {
  const best = bestMatch(wanted, candidates, (c) => ({
    name: c.displayName,
    domain: c.identifyingName,
    address: c.address,
    postalCode: c.zipCode,
  }));
  return best?.item ?? null;
}

/** The search results of a search page's HTML, as candidates. */
export async function parseSearchPage(html: string): Promise<Candidate[]> {
  const props = await pageProps(html, SearchPagePropsSchema, "search page");
  return props.businessUnits.map((unit) => ({
    identifyingName: unit.identifyingName,
    displayName: unit.displayName,
    address: unit.location?.address?.trim() || null,
    city: unit.location?.city?.trim() || null,
    zipCode: unit.location?.zipCode?.trim() || null,
  }));
}

export function searchUrl(name: string): string {
  const url = new URL("/search", TRUSTPILOT_ORIGIN);
  url.searchParams.set("query", name);
  return url.toString();
}

/**
 * Finds the business with Trustpilot's own search (by name), then picks the result whose name
 * fits and whose street or postal code is the business's (see chooseCandidate).
 */
export const trustpilotLookup: Lookup = async (business, { client }) => {
  const page = await client.request(searchUrl(business.name));
  const candidates = await parseSearchPage(page.text);
  const chosen = chooseCandidate(
    { name: business.name, street: business.address.street, zip: business.address.zip },
    candidates,
  );
  if (!chosen) {
    throw permanentError(
      "profile_not_found",
      `Trustpilot search for "${business.name}" found ${candidates.length} businesses, none with this name at ${business.address.street}, ${business.address.zip}`,
    );
  }
  return profileUrlFor(chosen.identifyingName);
};
