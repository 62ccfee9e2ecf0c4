import type { PageInspector } from "../../scraping/client";
import { transientError } from "../../scraping/errors";
import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { holidaycheckLookup } from "./lookup";
import { HOLIDAYCHECK_DOMAINS, holidaycheckProfile } from "./profile";
import { hotelReviewUrl, parseHolidaycheckPage, WHAT } from "./reviews";

/**
 * No bot wall is reported for the review API; Akamai fronts the site (a client notes a bare user
 * agent got "HTTP 400 from AkamaiGHost"). An HTML page where the API should answer JSON is `blocked`.
 */
const inspectHolidaycheckPage: PageInspector = (page) => {
  if (
    page.url.pathname.startsWith("/api/hotel-reviews") &&
    page.text.slice(0, 2_000).trimStart().startsWith("<")
  ) {
    return transientError("blocked", "HolidayCheck answered its review API with an HTML page");
  }
  return null;
};

/**
 * holidaycheck.de (and .at, .ch): a hotel's reviews from the hotel review API's 2026 route, newest
 * first, 100 a batch by offset up to the module's bound of 10,000; the hotel id from the URL, or found by name and city
 * with the content query.
 */
export const holidaycheck = definePublisher({
  name: "holidaycheck",
  displayName: "HolidayCheck",
  kind: "travel",
  domains: HOLIDAYCHECK_DOMAINS,
  loginRequired: false,
  ratingScale: "1–6 suns (overall), mapped linearly onto 1–5 (round(1 + (suns − 1) × 4 / 5))",
  summaryFields: ["review_count"],
  reviewFields: ["title"],
  profile: holidaycheckProfile,
  lookup: holidaycheckLookup,
  queue: { note: "holidaycheck.de: the hotel review API (/api/hotel-reviews), 100 a batch by offset." },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: holidaycheckProfile.keyOf,
    firstPage: 0,
    request: (uuid, position) => ({ url: hotelReviewUrl(uuid, position) }),
    parse: parseHolidaycheckPage,
    // The module's bound of 10,000 reviews: 100 batches of 100.
    maxPages: 101,
    inspect: inspectHolidaycheckPage,
  }),
  evidenceDate: "2026-11",
});
