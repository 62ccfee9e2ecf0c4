import { resolveProfile } from "../kit/profile";
import { definePublisher } from "../types";
import { tripadvisorAdapter } from "./adapter";
import { tripadvisorLookup } from "./lookup";
import { locationPage, TRIPADVISOR_DOMAINS } from "./urls";

/**
 * tripadvisor.com and its country sites: hotels, restaurants and attractions. profile_key is the
 * location page's URL on any Tripadvisor site (the location id, `-d<id>-`, is global); without one
 * the business is looked up with the site's own search.
 */
export const tripadvisor = definePublisher({
  name: "tripadvisor",
  displayName: "Tripadvisor",
  kind: "travel",
  domains: TRIPADVISOR_DOMAINS,
  loginRequired: false,
  ratingScale: "1–5 bubbles, kept as they are",
  summaryFields: ["review_count"],
  resolveProfileKey: (profileKey, publisherKey) =>
    resolveProfile(profileKey, publisherKey, {
      hosts: TRIPADVISOR_DOMAINS,
      fromUrl: (url) => locationPage(url)?.url ?? null,
    }),
  lookup: tripadvisorLookup,
  adapter: tripadvisorAdapter,
  // scrapfly/scrapfly-scrapers tripadvisor.py @0e79e85 (the -or<N>- review pages); no real capture found (README).
  evidenceDate: "2025-11-20",
});
