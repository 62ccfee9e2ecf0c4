/**
 * Tripadvisor addresses: the country sites a profile may live on and the location pages whose
 * reviews the adapter reads. Every country site serves the same locations under the same ids, so a
 * URL on any of them is a valid profile_key for any of the publisher keys.
 */
import { isOnDomain } from "../../core/publishers/canonical";

/** tripadvisor.com and the country sites worth listing (each one a publisher key of its own). */
export const TRIPADVISOR_DOMAINS = [
  "tripadvisor.com",
  "tripadvisor.co.uk",
  "tripadvisor.de",
  "tripadvisor.fr",
  "tripadvisor.it",
  "tripadvisor.es",
  "tripadvisor.nl",
  "tripadvisor.at",
  "tripadvisor.ch",
  "tripadvisor.ie",
  "tripadvisor.ca",
  "tripadvisor.com.au",
  "tripadvisor.co.nz",
  "tripadvisor.in",
  "tripadvisor.com.mx",
  "tripadvisor.com.br",
  "tripadvisor.pt",
  "tripadvisor.se",
  "tripadvisor.dk",
  "tripadvisor.jp",
  "tripadvisor.com.sg",
  "tripadvisor.co.za",
] as const;

/**
 * Location pages with reviews: hotels, restaurants, attractions (and bookable tours, vacation
 * rentals), `<Kind>_Review-g<geo id>-d<location id>-Reviews[-or<offset>]-<Name>.html`.
 */
const LOCATION_PAGE =
  /^\/(Hotel|Restaurant|Attraction|AttractionProduct|VacationRental)_Review-g(\d+)-d(\d+)(?:-Reviews)?(?:-or\d+)?(?:-([^/]*?))?(?:\.html)?$/;

export interface LocationPage {
  kind: "Hotel" | "Restaurant" | "Attraction" | "AttractionProduct" | "VacationRental";
  geoId: number;
  /** The location id (`-d<id>-`), which the review list query takes. */
  locationId: number;
  /** The page's address without a review offset, query or fragment. */
  url: string;
}

export function isTripadvisorHost(host: string): boolean {
  return TRIPADVISOR_DOMAINS.some((domain) => isOnDomain(host, domain));
}

/** The location page a URL shows, or null when it is no Tripadvisor location page with reviews. */
export function locationPage(url: URL): LocationPage | null {
  if (!isTripadvisorHost(url.hostname)) return null;
  const match = LOCATION_PAGE.exec(url.pathname);
  if (!match) return null;
  const [, kind, geo, location, name] = match;
  const path = `/${kind}_Review-g${geo}-d${location}-Reviews${name ? `-${name}` : ""}.html`;
  return {
    kind: kind as LocationPage["kind"],
    geoId: Number(geo),
    locationId: Number(location),
    url: `${url.protocol}//${url.host}${path}`,
  };
}

/** The location page showing the reviews from `offset` on (Tripadvisor's `-or<offset>-` pages). */
export function reviewPageUrl(profileUrl: string, offset: number): string {
  if (offset <= 0) return profileUrl;
  return profileUrl.replace(/-Reviews(?=-|\.html$)/, `-Reviews-or${offset}`);
}
