import { declareProfile } from "../kit/profile";

/** Percent-decodes an alias once, leaving a malformed one as written. */
function decoded(alias: string): string {
  try {
    return decodeURIComponent(alias);
  } catch {
    return alias;
  }
}

/**
 * The canonical biz page URL of an alias on a Yelp site: always `www.` on the publisher's own
 * domain, without query or fragment (`?osq=…`, `?hrid=…` only change what the page highlights).
 * The alias is encoded once, so an alias given already encoded (`caf%C3%A9-paris`) stays the same.
 */
export function bizUrl(publisherKey: string, alias: string): string {
  return `https://www.${publisherKey}/biz/${encodeURIComponent(decoded(alias))}`;
}

const PROFILE = "https://www.yelp.com/biz/blue-door-cafe-san-francisco";
const NOT_A_PROFILE = "Enter the URL of a profile on yelp.com.";

/**
 * profile_key for Yelp: a biz page URL on the publisher's domain (any subdomain: www., m.) or the
 * bare alias (`blue-door-cafe-san-francisco`), both turned into `https://www.<domain>/biz/<alias>`.
 * An alias with a slash, `?`, `#` or whitespace is not an alias. (Yelp also answers
 * `/biz/<encoded biz id>` there.)
 */
export const yelpProfile = declareProfile({
  urls: [{ path: /^\/biz\/(?<alias>[^/]+)\/?$/ }],
  ids: [/^(?<alias>[^/?#\s]+)$/],
  page: (g, site) => bizUrl(site, g.alias),
  examples: [
    { input: PROFILE, url: PROFILE },
    { input: "https://yelp.com/biz/blue-door-cafe-san-francisco/", url: PROFILE },
    { input: "https://m.yelp.com/biz/blue-door-cafe-san-francisco?osq=cafe&hrid=abc#reviews", url: PROFILE },
    { input: "blue-door-cafe-san-francisco", url: PROFILE },
    { input: "caf%C3%A9-du-coin-paris", url: "https://www.yelp.com/biz/caf%C3%A9-du-coin-paris" },
    { input: "café-du-coin-paris", url: "https://www.yelp.com/biz/caf%C3%A9-du-coin-paris" },
    // A country site keeps its own host.
    {
      input: "https://www.yelp.ca/biz/tim-hortons-toronto-12",
      publisher: "yelp.ca",
      url: "https://www.yelp.ca/biz/tim-hortons-toronto-12",
    },
    {
      input: "tim-hortons-toronto-12",
      publisher: "yelp.ca",
      url: "https://www.yelp.ca/biz/tim-hortons-toronto-12",
    },
    { input: "https://www.yelp.com/search?find_desc=cafe", error: NOT_A_PROFILE },
    { input: "https://www.yelp.com/biz_photos/blue-door", error: NOT_A_PROFILE },
    {
      input: "https://www.yelp.ca/biz/blue-door",
      error: "Enter a URL on yelp.com or one of its subdomains.",
    },
    { input: "https://evil.test/biz/blue-door", error: "Enter a URL on yelp.com or one of its subdomains." },
    { input: "blue door", error: "Enter a valid URL." },
    { input: "biz/blue-door", error: "Enter a valid URL." },
    { input: "ftp://www.yelp.com/biz/blue-door", error: "Enter a valid URL." },
  ],
});

/** The alias of a biz page URL, or null when the URL is not a biz page. */
export const aliasOf = yelpProfile.keyOf;
