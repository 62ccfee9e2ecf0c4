import { definePublisher } from "../types";
import { airbnbAdapter } from "./adapter";
import { airbnbProfile } from "./profile";

/** Airbnb stays: reviews through the listing page's `StaysPdpReviewsQuery`, paged by offset. */
export const airbnb = definePublisher({
  name: "airbnb",
  displayName: "Airbnb",
  kind: "travel",
  domains: ["airbnb.com"],
  loginRequired: false,
  ratingScale: "1–5 stars, kept as given",
  summaryFields: ["review_count"],
  profile: airbnbProfile,
  queue: { note: "airbnb.com: StaysPdpReviewsQuery pages." },
  adapter: airbnbAdapter,
  // The real capture in test/publishers/airbnb/captures/ (muchiny/mcp-airbnb, captured 2026-09-28).
  evidenceDate: "2026-09-28",
});
