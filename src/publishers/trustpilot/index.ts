import { definePublisher } from "../types";
import { TRUSTPILOT_SORTS, trustpilotAdapter } from "./adapter";
import { trustpilotLookup } from "./lookup";
import { resolveTrustpilotProfileKey } from "./profile";

/**
 * trustpilot.com (every country site is a subdomain): reviews from the profile page's Next.js data,
 * all languages, newest first, `?page=N` up to the page count the page states. Without a
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
  resolveProfileKey: resolveTrustpilotProfileKey,
  lookup: trustpilotLookup,
  adapter: trustpilotAdapter,
  sorts: TRUSTPILOT_SORTS,
  // scrapfly/scrapfly-scrapers trustpilot.py @bfb1a96, unchanged in its 2026-08-21 snapshot; real page data of 2023-12 in the tests (README).
  evidenceDate: "2024-02-13",
});
