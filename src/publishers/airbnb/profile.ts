import { declareProfile } from "../kit/profile";

const PROFILE = "https://www.airbnb.com/rooms/1001";
const NOT_A_PROFILE = "Enter the URL of a profile on airbnb.com.";

export function listingUrl(listingId: string): string {
  return `https://www.airbnb.com/rooms/${listingId}`;
}

/**
 * profile_key for Airbnb: a listing URL on airbnb.com or a subdomain (`/rooms/<id>`,
 * `/rooms/plus/<id>`, `/luxury/listing/<id>`, with any suffix such as `/reviews`), or the bare
 * numeric listing id; both become `https://www.airbnb.com/rooms/<id>` (dates, guests and other
 * query parameters dropped).
 */
export const airbnbProfile = declareProfile({
  urls: [{ path: /^\/(?:rooms(?:\/plus)?|luxury\/listing)\/(?<id>\d{1,25})(?:\/|$)/ }],
  ids: [/^(?<id>\d{1,25})$/],
  page: "https://www.airbnb.com/rooms/{id}",
  examples: [
    { input: "https://www.airbnb.com/rooms/1001", url: PROFILE },
    { input: "https://www.airbnb.com/rooms/1001?check_in=2026-12-01&adults=2", url: PROFILE },
    { input: "https://airbnb.com/rooms/plus/1001/reviews", url: PROFILE },
    { input: "https://www.airbnb.com/luxury/listing/1001", url: PROFILE },
    { input: "1001", url: PROFILE },
    { input: "https://www.airbnb.com/s/Paris/homes", error: NOT_A_PROFILE },
    { input: "https://www.airbnb.com/users/show/40000", error: NOT_A_PROFILE },
    { input: "cozy-flat", error: "Enter a valid URL." },
  ],
});

/** The listing id of an Airbnb URL, or null when it is not a listing page. */
export const listingIdOf = airbnbProfile.keyOf;
