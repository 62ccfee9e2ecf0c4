import type { PageInspector } from "../../scraping/client";
import { transientError } from "../../scraping/errors";
import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { openZillowProfile, zillowProfile } from "./profile";
import { parseZillowPage, WHAT, zillowReviewsUrl } from "./reviews";

/**
 * zillow.com sits behind PerimeterX (HUMAN): its wall is "Access to this page has been denied" with
 * a `px-captcha` element, served with 403 or 200. An HTML page where the API should answer JSON is
 * the same wall.
 */
const inspectZillowPage: PageInspector = (page) => {
  const head = page.text.slice(0, 20_000);
  if (head.includes("px-captcha") || head.includes("Access to this page has been denied")) {
    return transientError("blocked", "Zillow answered with PerimeterX's bot check");
  }
  if (page.url.pathname.startsWith("/profile-page/api/") && head.trimStart().startsWith("<")) {
    return transientError("blocked", "Zillow answered its reviews API with an HTML page");
  }
  return null;
};

/**
 * zillow.com (agents): an agent's reviews from the public reviews API, 10 a page by page number,
 * with the agent's encodedZuid taken once from the profile page. No lookup.
 */
export const zillow = definePublisher({
  name: "zillow",
  displayName: "Zillow",
  kind: "real estate",
  domains: ["zillow.com"],
  loginRequired: false,
  ratingScale: "1–5 stars, kept as is",
  summaryFields: ["review_count"],
  reviewFields: ["sub_ratings"],
  profile: zillowProfile,
  queue: {
    concurrency: 1,
    retries: 4,
    retryDelay: 120,
    note: "zillow.com: the agent reviews API behind PerimeterX, so few at once and long pauses.",
  },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: zillowProfile.keyOf,
    open: openZillowProfile,
    firstPage: 1,
    request: (zuid, position, pageUrl) => ({
      url: zillowReviewsUrl(zuid, position),
      options: { headers: { Referer: pageUrl } },
    }),
    parse: parseZillowPage,
    // 10 a page: 1,000 pages is 10,000 reviews, beyond any agent.
    maxPages: 1_000,
    inspect: inspectZillowPage,
  }),
  evidenceDate: "2025-10",
});
