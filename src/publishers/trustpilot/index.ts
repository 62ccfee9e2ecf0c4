import { definePublisher } from "../types";
import { TRUSTPILOT_SORTS, trustpilotAdapter } from "./adapter";
import { trustpilotLookup } from "./lookup";
import { trustpilotProfile } from "./profile";

/**
 * trustpilot.com (every country site is a subdomain): reviews from the profile page's Next.js data,
 * all languages, newest first, `?page=N` up to the page count the page states; past the
 * signed-out ten-page cap, one list per star rating. Without a
 * profile_key the business is found with Trustpilot's own search.
 */
export const trustpilot = definePublisher({
  name: "trustpilot",
  displayName: "Trustpilot",
  kind: "consumer",
  domains: ["trustpilot.com"],
  loginRequired: false,
  ratingScale: "1–5 stars, taken as they are",
  summaryFields: ["rating", "review_count", "histogram"],
  reviewFields: ["title", "likes"],
  profile: trustpilotProfile,
  lookup: trustpilotLookup,
  queue: { concurrency: 3, retryDelay: 30, note: "trustpilot.com: __NEXT_DATA__ pages." },
  adapter: trustpilotAdapter,
  sorts: TRUSTPILOT_SORTS,
  // browser-use/browser-harness trustpilot/scraping.md @fb1a51d, field-tested 2026-04-18: page data,
  // the ten-page signed-out cap and the star-rating lists past it (README).
  evidenceDate: "2026-04-18",
});
