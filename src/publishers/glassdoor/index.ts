import { definePublisher } from "../types";
import { glassdoorAdapter } from "./adapter";
import { glassdoorProfile } from "./profile";

/**
 * glassdoor.com: employer reviews from the Apollo cache of its reviews pages. profile_key is an
 * employer's reviews or overview URL, or its employer id (digits).
 */
export const glassdoor = definePublisher({
  name: "glassdoor",
  displayName: "Glassdoor",
  kind: "employer",
  domains: ["glassdoor.com"],
  loginRequired: false,
  ratingScale: "1–5 stars (overall rating), kept as is",
  // Every page states `allReviewsCount`.
  summaryFields: ["review_count"],
  reviewFields: ["title", "sub_ratings"],
  profile: glassdoorProfile,
  // The newest real evidence checked: see README.md "Evidence".
  evidenceDate: "2026-09-28",
  queue: {
    concurrency: 1,
    retries: 4,
    retryDelay: 120,
    note: "glassdoor.com: employer reviews; login walls are common.",
  },
  adapter: glassdoorAdapter,
});
