import type { PageInspector } from "../../scraping/client";
import { transientError } from "../../scraping/errors";
import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { houzzProfile, openHouzzProfile } from "./profile";
import { houzzReviewsUrl, parseHouzzPage, WHAT } from "./reviews";

/**
 * Houzz sits behind a bot wall (scrapers of it use stealth browsers; the vendor is not named). What
 * comes back instead of the reviews JSON is an HTML page: `blocked`, so the next route is tried.
 */
const inspectHouzzPage: PageInspector = (page) => {
  if (page.url.pathname.startsWith("/j/ajax/") && page.text.slice(0, 2_000).trimStart().startsWith("<"))
    return transientError("blocked", "Houzz answered its reviews call with an HTML page");
  return null;
};

/**
 * houzz.com and houzz.co.uk: a pro's reviews from the reviews call its profile page makes, newest
 * first, 45 a call by item offset; the two ids the call takes and the stated count are read from the
 * profile page once. Expect `blocked` on the direct route: run it through a provider or the browser
 * route (docs/routes.md). No lookup.
 */
export const houzz = definePublisher({
  name: "houzz",
  displayName: "Houzz",
  kind: "home services",
  domains: ["houzz.com", "houzz.co.uk"],
  loginRequired: false,
  ratingScale: "1–5 stars, kept as is",
  summaryFields: ["rating", "review_count"],
  profile: houzzProfile,
  queue: {
    note: "houzz.com: the profile page once, then its reviews call by item offset (bot wall: use a provider).",
  },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: houzzProfile.keyOf,
    open: openHouzzProfile,
    firstPage: 1,
    request: (key, position, pageUrl) => ({
      url: houzzReviewsUrl(key, position.page, pageUrl),
      options: { headers: { Referer: pageUrl, "X-Requested-With": "XMLHttpRequest" } },
    }),
    parse: parseHouzzPage,
    // 45 a call: 500 calls is 22,500 reviews, beyond any one pro.
    maxPages: 500,
    inspect: inspectHouzzPage,
  }),
  evidenceDate: "2021-11",
});
