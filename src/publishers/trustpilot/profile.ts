import { declareProfile, looksLikeUrl } from "../kit/profile";
import type { ModuleProfile } from "../types";
import { TRUSTPILOT_ORIGIN } from "./reviews";

/** A business's Trustpilot name is its web domain ("bluedoorcafe.com", "www.bhphotovideo.com"). */
const BUSINESS_DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/i;

/** The canonical profile URL of a business domain. */
export function profileUrlFor(domain: string): string {
  return `${TRUSTPILOT_ORIGIN}/review/${encodeURIComponent(domain.toLowerCase())}`;
}

/**
 * `/review/<domain>` on any Trustpilot host (www, or a country site such as uk. or de.) becomes the
 * www URL of that profile: the reviews are the same on every country site once the adapter asks
 * for all languages, and one form keeps the stored profile_key stable. Other paths are not profiles.
 */
function profileFromUrl(url: URL): string | null {
  const match = /^\/review\/([^/]+)\/?$/.exec(url.pathname);
  if (!match) return null;
  let domain: string;
  try {
    domain = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  return BUSINESS_DOMAIN.test(domain) ? profileUrlFor(domain) : null;
}

const PROFILE = "https://www.trustpilot.com/review/bluedoorcafe.com";
const NOT_A_PROFILE = "Enter the URL of a profile on trustpilot.com.";

const rules = declareProfile({
  urls: [profileFromUrl],
  ids: [(id) => (BUSINESS_DOMAIN.test(id) ? profileUrlFor(id) : null)],
  examples: [
    { input: PROFILE, url: PROFILE },
    {
      input: "https://uk.trustpilot.com/review/www.BlueDoorCafe.co.uk?page=2#reviews",
      url: "https://www.trustpilot.com/review/www.bluedoorcafe.co.uk",
    },
    { input: "https://trustpilot.com/review/bluedoorcafe.com/", url: PROFILE },
    { input: "www.trustpilot.com/review/bluedoorcafe.com", url: PROFILE },
    { input: "bluedoorcafe.com", url: PROFILE },
    { input: "www.bluedoorcafe.com", url: "https://www.trustpilot.com/review/www.bluedoorcafe.com" },
    { input: "https://www.trustpilot.com/categories/cafe", error: NOT_A_PROFILE },
    { input: "https://www.trustpilot.com/reviews/6650a1f2000000000000000a", error: NOT_A_PROFILE },
    { input: "https://www.trustpilot.com/review/not a domain", error: "Enter a valid URL." },
    {
      input: "https://www.yelp.com/review/bluedoorcafe.com",
      error: "Enter a URL on trustpilot.com or one of its subdomains.",
    },
    { input: "Blue Door Cafe", error: "Enter a valid URL." },
    { input: "ftp://www.trustpilot.com/review/bluedoorcafe.com", error: "Enter a valid URL." },
  ],
});

/**
 * profile_key on trustpilot.com: a profile URL (`https://www.trustpilot.com/review/<domain>`, any
 * country subdomain, with or without the scheme), or the bare business domain.
 */
export const trustpilotProfile: ModuleProfile = {
  examples: rules.examples,
  untested: rules.untested,
  // "www.trustpilot.com/review/x.com" as pasted without its scheme.
  resolve: (profileKey, publisherKey) =>
    rules.resolve(
      !looksLikeUrl(profileKey) && profileKey.includes("/") ? `https://${profileKey}` : profileKey,
      publisherKey,
    ),
};
