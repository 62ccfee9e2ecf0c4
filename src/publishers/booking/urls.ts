import { isOnDomain } from "../../core/publishers/canonical";

/** `/hotel/<country>/<slug>[.<language>].html`, the address of every hotel page. */
const HOTEL_PAGE = /^\/hotel\/([a-z]{2})\/([a-z0-9][a-z0-9-]*?)(?:\.[a-z]{2}(?:-[a-z]{2,4})?)?\.html$/i;

export interface HotelPage {
  countryCode: string;
  slug: string;
  /** The page's address without language, query or fragment. */
  url: string;
}

/** The hotel page a URL shows, or null when it is no booking.com hotel page. */
export function hotelPage(url: URL): HotelPage | null {
  if (!isOnDomain(url.hostname, "booking.com")) return null;
  const match = HOTEL_PAGE.exec(url.pathname);
  if (!match) return null;
  const countryCode = match[1].toLowerCase();
  const slug = match[2].toLowerCase();
  return { countryCode, slug, url: `${url.protocol}//${url.host}/hotel/${countryCode}/${slug}.html` };
}
