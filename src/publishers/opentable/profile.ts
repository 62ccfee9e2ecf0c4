import { declareProfile } from "../kit/profile";

/** The OpenTable sites whose restaurant pages the module reads (the 2026-01 client's four). */
export const OPENTABLE_DOMAINS = [
  "opentable.com",
  "opentable.co.uk",
  "opentable.ca",
  "opentable.com.au",
] as const;

const PAGE = "https://www.opentable.com/r/perch-la";

/**
 * profile_key: a restaurant page (`/r/<slug>`, the profile; `/r/<slug>/reviews` and the like are its
 * tabs; query dropped) or the bare slug, on the site submitted under. The walk's key is the slug.
 */
export const opentableProfile = declareProfile({
  urls: [{ path: /^\/r\/(?<slug>[a-z0-9][a-z0-9-]{0,150})(?:\/|$)/i }],
  ids: [/^(?<slug>[a-z0-9][a-z0-9-]{0,150})$/i],
  page: (g, site) => `https://www.${site}/r/${g.slug.toLowerCase()}`,
  key: (g) => g.slug.toLowerCase(),
  examples: [
    { input: PAGE, url: PAGE },
    { input: "https://www.opentable.com/r/Perch-LA?corrid=abc&p=2", url: PAGE },
    { input: "https://www.opentable.com/r/perch-la/reviews", url: PAGE },
    { input: "perch-la", url: PAGE },
    {
      input: "https://www.opentable.co.uk/r/the-ivy-london",
      publisher: "opentable.co.uk",
      url: "https://www.opentable.co.uk/r/the-ivy-london",
    },
    {
      input: "https://www.opentable.com/metro/los-angeles-restaurants",
      error: "Enter the URL of a profile on opentable.com.",
    },
    { input: "perch la", error: "Enter a valid URL." },
  ],
});
