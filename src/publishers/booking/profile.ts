import { declareProfile } from "../kit/profile";
import { hotelPage } from "./urls";

/** profile_key: the hotel page's URL (`/hotel/<cc>/<slug>[.<language>].html`); ids name no page. */
export const bookingProfile = declareProfile({
  urls: [(url) => hotelPage(url)?.url ?? null],
  examples: [
    {
      input: "https://www.booking.com/hotel/gb/harbour-view.en-gb.html?aid=1&checkin=2026-12-01#tab-reviews",
      url: "https://www.booking.com/hotel/gb/harbour-view.html",
    },
    {
      input: "https://booking.com/hotel/FR/Le-Petit.html",
      url: "https://booking.com/hotel/fr/le-petit.html",
    },
    {
      input: "https://www.booking.com/searchresults.html?ss=London",
      error: "Enter the URL of a profile on booking.com.",
    },
    { input: "harbour-view", error: "Enter a valid URL." },
  ],
});
