import { definePublisher } from "../types";
import { googleMapsAdapter } from "./adapter";
import { lookupPlace } from "./lookup";
import { GOOGLE_SORTS } from "./search-window";
import { googleMapsProfile } from "./profile";

/**
 * maps.google.com (alias google.com): place reviews newest first through the review window of Google
 * Search (GetLocalBoqProxy), which signed-out clients can page to the end while Google Maps shows
 * them five; with the task's Google login cookies through the `listugcposts` RPC the Maps page calls.
 * Exact timestamps, original texts, languages, owner replies and the reviewer's counts.
 * profile_key is any place link users copy (www.google.com/maps/place/…, maps.google.com/?cid=…,
 * maps.app.goo.gl/… and goo.gl/maps/… short links), a place id (ChIJ…) or a feature id (0x…:0x…);
 * without one, the place is found with Maps search by name, street and postal code.
 */
export const googleMaps = definePublisher({
  name: "google-maps",
  displayName: "Google Maps",
  kind: "maps",
  domains: ["maps.google.com", "google.com"],
  loginRequired: false,
  ratingScale: "1–5 stars, kept as is",
  summaryFields: ["rating", "review_count"],
  // The window gives the photo count; listugcposts (signed in) the Local Guide badge and Google's translation.
  reviewFields: ["author_review_count", "author_photo_count", "author_badges", "translated_text"],
  profile: googleMapsProfile,
  lookup: lookupPlace,
  queue: { note: "maps.google.com: listugcposts RPC pages; Google rate-limits bursts, so few at once." },
  adapter: googleMapsAdapter,
  sorts: GOOGLE_SORTS,
  // HazelnutParadise/insyra issue 249 (comment of 2026-09-13) and its commits a0343eb and bcb1d1e:
  // the window's request and answer, measured that day (see ./README.md).
  evidenceDate: "2026-09-13",
});
