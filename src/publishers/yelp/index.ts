import { definePublisher } from "../types";
import { yelpAdapter } from "./adapter";
import { YELP_SORTS } from "./feed";
import { lookupYelp } from "./lookup";
import { yelpProfile } from "./profile";

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
  reviewFields: ["likes", "author_review_count", "photos"],
  profile: yelpProfile,
  lookup: lookupYelp,
  // The newest real evidence checked: see README.md "Evidence".
  evidenceDate: "2026-04-02",
  queue: {
    retries: 4,
    retryDelay: 120,
    note: "yelp.com: GraphQL review feed with login cookies; Yelp blocks aggressive clients.",
  },
  adapter: yelpAdapter,
  sorts: YELP_SORTS,
});
