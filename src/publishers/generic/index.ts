import { resolveProfile } from "../kit/profile";
import { definePublisher } from "../types";
import { genericAdapter } from "./adapter";

/**
 * Every domain no dedicated module claims: schema.org reviews (JSON-LD, microdata, RDFa) on the
 * profile page, older pages through `rel="next"`. Its cursor is the next page's URL.
 */
export const generic = definePublisher({
  name: "generic",
  displayName: "Any site with schema.org review markup",
  kind: "generic",
  domains: [],
  loginRequired: false,
  ratingScale: "reviewRating mapped linearly from [worstRating, bestRating] (default 1–5) onto 1–5",
  resolveProfileKey: (profileKey, publisherKey) => resolveProfile(profileKey, publisherKey),
  adapter: genericAdapter,
});
