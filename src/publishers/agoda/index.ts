import type { PageInspector } from "../../scraping/client";
import { transientError } from "../../scraping/errors";
import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { agodaProfile } from "./profile";
import { parseAgodaPage, reviewCommentsRequest, WHAT } from "./reviews";

/** No bot wall is reported; an HTML page where the API should answer JSON is one all the same. */
const inspectAgodaPage: PageInspector = (page) => {
  if (page.url.pathname.startsWith("/api/") && page.text.slice(0, 2_000).trimStart().startsWith("<")) {
    return transientError("blocked", "Agoda answered its review API with an HTML page");
  }
  return null;
};

/**
 * agoda.com: a property's guest reviews (Agoda's own, provider 332) from the review comments API,
 * 50 a page. profile_key is the property id or a URL carrying it. No lookup.
 */
export const agoda = definePublisher({
  name: "agoda",
  displayName: "Agoda",
  kind: "travel",
  domains: ["agoda.com"],
  loginRequired: false,
  ratingScale: "10-point guest score mapped linearly from 1–10 onto 1–5 (round(1 + (score − 1) × 4 / 9))",
  profile: agodaProfile,
  queue: { note: "agoda.com: the review comments API, 50 a page." },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: agodaProfile.keyOf,
    firstPage: 1,
    request: (hotelId, position) => reviewCommentsRequest(hotelId, position),
    parse: parseAgodaPage,
    // 50 a page: 2,000 pages is 100,000 reviews.
    maxPages: 2_000,
    inspect: inspectAgodaPage,
  }),
  evidenceDate: "2025-04",
});
