import { resolveProfile } from "../kit/profile";
import { definePublisher } from "../types";
import { genericAdapter } from "./adapter";

/**
 * Every domain no dedicated module claims: schema.org reviews (JSON-LD, microdata, RDFa) and review
 * records in the page's own JSON (docs/generic-reader.md) on the profile page, older pages through
 * `rel="next"` or a `?page=N` link. Its cursor is the next page's URL.
 */
export const generic = definePublisher({
  name: "generic",
  displayName: "Any site with schema.org review markup or review records in its page data",
  kind: "generic",
  domains: [],
  loginRequired: false,
  ratingScale:
    "reviewRating mapped linearly from [worstRating, bestRating] (default 1–5) onto 1–5; page data on the scale its records state, else 1–5, 1–10 or 0–100 by their largest rating",
  resolveProfileKey: (profileKey, publisherKey) => resolveProfile(profileKey, publisherKey),
  adapter: genericAdapter,
});
