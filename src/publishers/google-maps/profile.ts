import { declareProfile } from "../kit/profile";
import { FEATURE_ID, PLACE_ID, featureIdUrl, placeIdUrl, placeRef } from "./place-ref";

/** Place links users copy, each kept as given (the adapter follows short links to the place). */
const PLACE_LINKS = [
  "https://www.google.com/maps/place/Blue+Door+Cafe/@37.7936,-122.3958,17z/data=!4m6!3m5!1s0x8085806287e4e2a1:0x9a1f3c2b4d5e6f70!8m2!3d37.79!4d-122.39?entry=ttu",
  "https://www.google.com/maps/place/Blue+Door+Cafe/@37.7936,-122.3958,17z",
  "https://maps.google.com/?cid=11101394470543396720",
  "https://www.google.com/maps?cid=11101394470543396720",
  "https://maps.app.goo.gl/bLuEdOoRcAfE1",
  "https://goo.gl/maps/bLuEdOoRcAfE1",
  "https://www.google.com/maps/place/?q=place_id:ChIJoeLkh2KAhYARcG9eTSs8H5o",
  "https://www.google.com/maps/search/?api=1&query=Blue+Door&query_place_id=ChIJoeLkh2KAhYARcG9eTSs8H5o",
];
const NOT_A_PROFILE = "Enter the URL of a profile on maps.google.com.";
const NOT_ON_MAPS = "Enter a URL on maps.google.com or one of its subdomains.";

/**
 * profile_key: any place link users copy (www.google.com/maps/place/…, maps.google.com/?cid=…,
 * maps.app.goo.gl/… and goo.gl/maps/… short links), kept as given, a place id (ChIJ…) or a feature
 * id (0x…:0x…). Custom rules: ./place-ref.ts tells a place link from other Google pages.
 */
export const googleMapsProfile = declareProfile({
  hosts: ["google.com", "goo.gl"],
  urls: [(url) => (placeRef(url) ? url.toString() : null)],
  ids: [
    (id) =>
      PLACE_ID.test(id) ? placeIdUrl(id) : FEATURE_ID.test(id) ? featureIdUrl(id.toLowerCase()) : null,
  ],
  examples: [
    ...PLACE_LINKS.flatMap((link) => [
      { input: link, url: new URL(link).toString() },
      { input: link, publisher: "google.com", url: new URL(link).toString() },
    ]),
    {
      input: "ChIJoeLkh2KAhYARcG9eTSs8H5o",
      url: "https://www.google.com/maps/place/?q=place_id:ChIJoeLkh2KAhYARcG9eTSs8H5o",
    },
    {
      input: "0x8085806287E4E2A1:0x9A1F3C2B4D5E6F70",
      url: "https://www.google.com/maps/place/data=!4m2!3m1!1s0x8085806287e4e2a1:0x9a1f3c2b4d5e6f70",
    },
    { input: "https://www.google.com/search?q=blue+door+cafe", error: NOT_A_PROFILE },
    { input: "https://www.google.com/maps/@37.79,-122.39,15z", error: NOT_A_PROFILE },
    { input: "https://maps.app.goo.gl/", error: NOT_A_PROFILE },
    { input: "https://goo.gl/abc123", error: NOT_A_PROFILE },
    { input: "https://www.yelp.com/biz/blue-door", error: NOT_ON_MAPS },
    { input: "https://www.google.de/maps/place/Blue+Door", error: NOT_ON_MAPS },
    { input: "blue-door-cafe", error: "Enter a valid URL." },
    { input: "ChIJ", error: "Enter a valid URL." },
    { input: "ftp://maps.google.com/?cid=1", error: "Enter a valid URL." },
  ],
});
