import { definePublisher } from "../types";
import { yelpAdapter } from "./adapter";
import { YELP_SORTS } from "./feed";
import { lookupYelp } from "./lookup";
import { resolveYelpProfile } from "./profile";

/**
 * Yelp and its country sites (one business directory, one login): reviews through the biz page's
 * GraphQL review feed, the profile found with Yelp's search when profile_key is empty.
 */
export const yelp = definePublisher({
  name: "yelp",
  displayName: "Yelp",
  kind: "listing",
  domains: ["yelp.com", "yelp.ca", "yelp.co.uk", "yelp.com.au", "yelp.ie", "yelp.co.nz"],
  loginRequired: true,
  ratingScale: "1–5 stars, kept as given",
  summaryFields: ["review_count"],
  resolveProfileKey: resolveYelpProfile,
  lookup: lookupYelp,
  // The newest real evidence checked: see README.md "Evidence".
  evidenceDate: "2026-04-02",
  adapter: yelpAdapter,
  sorts: YELP_SORTS,
});
