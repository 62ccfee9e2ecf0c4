import { definePublisher } from "../types";
import { bookingAdapter } from "./adapter";
import { bookingProfile } from "./profile";

/** booking.com hotels: profile_key is the hotel page's URL (`/hotel/<cc>/<slug>.html`). */
export const booking = definePublisher({
  name: "booking",
  displayName: "Booking.com",
  kind: "travel",
  domains: ["booking.com"],
  loginRequired: false,
  ratingScale:
    "10-point guest score mapped linearly from 1–10 onto 1–5 (round(1 + (score − 1) × 4 / 9)): 10 and 9 → 5, 8 and 7.5 → 4, 6 → 3, 4 → 2, 1 → 1",
  summaryFields: ["review_count"],
  reviewFields: ["title", "likes", "photos"],
  profile: bookingProfile,
  // The newest real evidence checked: see README.md "Evidence".
  evidenceDate: "2026-05-14",
  queue: { note: "booking.com: review list pages." },
  adapter: bookingAdapter,
});
