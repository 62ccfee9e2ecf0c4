import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { kununuProfile, openKununuProfile } from "./profile";
import { kununuReviewsUrl, parseKununuPage, WHAT } from "./reviews";

/**
 * kununu.com (employers in Germany, Austria, Switzerland): an employer's employee reviews from the
 * site's own review middleware (no key), newest first, paged by number until `pagesCount`; the
 * profile's UUID is read once from the profile page.
 */
export const kununu = definePublisher({
  name: "kununu",
  displayName: "kununu",
  kind: "employer",
  domains: ["kununu.com"],
  loginRequired: false,
  ratingScale: "1–5 stars (the review's overall score, a decimal), kept as is",
  profile: kununuProfile,
  queue: { note: "kununu.com: the site's review middleware (no key), paged by number, newest first." },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: kununuProfile.keyOf,
    open: openKununuProfile,
    firstPage: 1,
    request: (key, position, pageUrl) => ({
      url: kununuReviewsUrl(key, position),
      options: { headers: { Referer: pageUrl } },
    }),
    parse: parseKununuPage,
    // 10 a page (the clients' `perPage`): 2,000 pages is 20,000 reviews, beyond any one employer.
    maxPages: 2_000,
  }),
  evidenceDate: "2025-06-08",
  summaryFields: ["review_count"],
  reviewFields: ["title", "sub_ratings"],
});
