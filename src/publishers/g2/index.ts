import { definePublisher } from "../types";
import { g2Adapter } from "./adapter";
import { g2Profile } from "./profile";

/**
 * g2.com: software product reviews from the review cards of a product's reviews pages. profile_key
 * is a product's reviews URL, its product URL, or its bare slug. Software has no street address, so
 * there is no lookup: G2's search cannot choose one product by name alone reliably.
 */
export const g2 = definePublisher({
  name: "g2",
  displayName: "G2",
  kind: "software",
  domains: ["g2.com"],
  loginRequired: false,
  ratingScale: '0.5–5 stars in half stars ("4.5/5", ratingValue or stars-1..stars-10), halves rounded up',
  summaryFields: ["review_count"],
  reviewFields: ["title"],
  profile: g2Profile,
  queue: {
    concurrency: 1,
    retries: 4,
    retryDelay: 120,
    note: "g2.com: review card pages; DataDome blocks bursts, so one at a time with long pauses.",
  },
  adapter: g2Adapter,
  // A real G2 reviews fragment of 2026-08 read by hand (not copyable: no licence), the Aug 2026 notes on
  // the reviews_and_filters fragment and scrapfly g2.py @52b4df4 (README).
  evidenceDate: "2026-08",
});
