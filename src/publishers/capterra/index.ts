import { definePublisher } from "../types";
import { capterraAdapter } from "./adapter";
import { capterraProfile } from "./profile";

/**
 * capterra.com: software product reviews from the server-rendered review pages
 * (`/p/<id>/<Slug>/reviews/?page=N`, 25 a page), read from the page's own RSC payload. Capterra
 * serves them most helpful first and no newest-first form is known, so the walk never stops at a
 * known review (`walksNewestFirst: false`). profile_key is a product URL or the numeric product id.
 * Software has no street address, so there is no lookup.
 */
export const capterra = definePublisher({
  name: "capterra",
  displayName: "Capterra",
  kind: "software",
  domains: ["capterra.com"],
  loginRequired: false,
  ratingScale: "1–5 stars (overall rating), kept as is",
  summaryFields: ["rating", "review_count"],
  reviewFields: ["title", "sub_ratings"],
  walksNewestFirst: false,
  evidenceDate: "2026-08-30",
  profile: capterraProfile,
  queue: {
    note: "capterra.com: product page once, then the server-rendered review pages; behind Cloudflare.",
  },
  adapter: capterraAdapter,
});
