import type { PageInspector } from "../../scraping/client";
import { transientError } from "../../scraping/errors";
import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { openZomatoProfile, zomatoProfile } from "./profile";
import { parseZomatoPage, WHAT, zomatoReviewsUrl } from "./reviews";

/**
 * Scripted clients report Zomato answering "Access Denied" (an edge wall, with 403); served with 200
 * it is the same wall. An HTML page where the review route should answer JSON is the wall too.
 */
const inspectZomatoPage: PageInspector = (page) => {
  const head = page.text.slice(0, 20_000);
  if (head.includes("<TITLE>Access Denied</TITLE>") || head.includes("errors.edgesuite.net")) {
    return transientError("blocked", "Zomato answered with its Access Denied wall");
  }
  if (page.url.pathname.startsWith("/webroutes/") && head.trimStart().startsWith("<")) {
    return transientError("blocked", "Zomato answered its review route with an HTML page");
  }
  return null;
};

/**
 * zomato.com (restaurants in India and the UAE): a restaurant's reviews from the route its own
 * review tab loads, `webroutes/reviews/loadMore` (no key, no login), newest first, paged by number
 * until the answer's page count; the restaurant's `res_id` is read once from its page.
 */
export const zomato = definePublisher({
  name: "zomato",
  displayName: "Zomato",
  kind: "hospitality",
  domains: ["zomato.com"],
  loginRequired: false,
  ratingScale: "1–5 stars (the review's `ratingV2`), kept as is",
  profile: zomatoProfile,
  queue: {
    concurrency: 1,
    retries: 4,
    retryDelay: 120,
    note: "zomato.com: the review tab's own route (webroutes/reviews/loadMore), paged by number; one at a time, a 403 wall is reported.",
  },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: zomatoProfile.keyOf,
    open: openZomatoProfile,
    firstPage: 1,
    request: (key, position, pageUrl) => ({
      url: zomatoReviewsUrl(key, position),
      options: { headers: { Referer: `${pageUrl}/reviews`, Accept: "application/json, text/plain, */*" } },
    }),
    parse: parseZomatoPage,
    inspect: inspectZomatoPage,
    // 5 to 10 a page in the clients: 2,000 pages is 10,000 reviews or more.
    maxPages: 2_000,
  }),
  evidenceDate: "2026-08-01",
});
