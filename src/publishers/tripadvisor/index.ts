import { definePublisher } from "../types";
import { tripadvisorAdapter } from "./adapter";
import { tripadvisorLookup } from "./lookup";
import { tripadvisorProfile } from "./profile";
import { TRIPADVISOR_DOMAINS } from "./urls";

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
  reviewFields: ["title", "likes"],
  profile: tripadvisorProfile,
  lookup: tripadvisorLookup,
  queue: { note: "tripadvisor.com: GraphQL review pages." },
  adapter: tripadvisorAdapter,
  // shahidirfan100/Tripadvisor-Reviews-Scraper @6702414 (Oct 2026): query id, page session first,
  // PersistedQueryNotFound as a distrusted session's answer (README).
  evidenceDate: "2026-10",
});
