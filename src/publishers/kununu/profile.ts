import { permanentError } from "../../scraping/errors";
import { declareProfile } from "../kit/profile";
import type { ScrapeContext } from "../types";

/** kununu serves employer profiles per country: Germany, Austria and Switzerland. */
const COUNTRIES = "de|at|ch";
const PAGE = "https://www.kununu.com/de/acme-gmbh";

/**
 * profile_key: an employer's profile page or any of its tabs (`/de/acme-gmbh`, `/at/acme/kommentare`),
 * or `de/acme-gmbh` as text. The walk's key is `{cc}/{slug}`; the profile's UUID, which the review
 * API needs, is read from the profile page when the walk opens.
 */
export const kununuProfile = declareProfile({
  urls: [{ path: new RegExp(`^/(?<cc>${COUNTRIES})/(?<slug>[a-z0-9][a-z0-9-]{0,99})(?:/|$)`) }],
  ids: [new RegExp(`^(?<cc>${COUNTRIES})/(?<slug>[a-z0-9][a-z0-9-]{0,99})$`)],
  page: "https://www.kununu.com/{cc}/{slug}",
  key: (g) => `${g.cc}/${g.slug}`,
  examples: [
    { input: PAGE, url: PAGE },
    { input: "https://www.kununu.com/de/acme-gmbh/kommentare?sort=newest", url: PAGE },
    { input: "https://kununu.com/at/acme-wien/", url: "https://www.kununu.com/at/acme-wien" },
    { input: "ch/acme-ag", url: "https://www.kununu.com/ch/acme-ag" },
    { input: "https://www.kununu.com/de/", error: "Enter the URL of a profile on kununu.com." },
    { input: "https://www.kununu.com/fr/acme", error: "Enter the URL of a profile on kununu.com." },
    { input: "https://feefo.com/reviews/acme", error: "Enter a URL on kununu.com or one of its subdomains." },
    { input: "acme gmbh", error: "Enter a valid URL." },
  ],
});

const UUID = /"uuid"\s*:\s*"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"/i;
/** How much of the page is searched: the page state sits in the first few hundred kilobytes. */
const SEARCHED = 3_000_000;

/**
 * The profile's UUID from the profile page: the one JSON object of its page state (the Apollo state a
 * public client reads) that names both this `slug` and a `uuid`. Objects are read flat (no nested
 * braces) and bounded, so a hostile page costs at most one linear scan.
 */
export function profileUuidOf(html: string, slug: string): string {
  const slugField = new RegExp(`"slug"\\s*:\\s*"${slug}"`);
  for (const match of html.slice(0, SEARCHED).matchAll(/\{[^{}]{0,4000}\}/g)) {
    const object = match[0];
    if (!slugField.test(object)) continue;
    const uuid = UUID.exec(object)?.[1];
    if (uuid) return uuid.toLowerCase();
  }
  throw permanentError(
    "publisher_error",
    `kununu profile page: no profile uuid next to slug "${slug}" (where the page state keeps it is not established)`,
  );
}

/** Reads the profile page once for the UUID; the walk's key becomes `{cc}/{slug}/{uuid}`. */
export async function openKununuProfile(
  key: string,
  profileUrl: string,
  ctx: ScrapeContext,
): Promise<{ pageUrl: string; key: string }> {
  const slug = key.split("/")[1];
  const page = await ctx.client.request(profileUrl);
  return { pageUrl: profileUrl, key: `${key}/${profileUuidOf(page.text, slug)}` };
}
