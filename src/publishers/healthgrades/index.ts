import type { PageInspector } from "../../scraping/client";
import { transientError } from "../../scraping/errors";
import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { healthgradesProfile } from "./profile";
import { commentsRequest, parseHealthgradesPage, WHAT } from "./reviews";

/**
 * Healthgrades refuses datacenter addresses (clients need residential proxies; the vendor is not
 * named in the evidence). What comes back instead of the JSON is an HTML page: `blocked`.
 */
const inspectHealthgradesPage: PageInspector = (page) => {
  if (page.url.pathname.startsWith("/api4/") && page.text.slice(0, 2_000).trimStart().startsWith("<")) {
    return transientError("blocked", "Healthgrades answered its comments API with an HTML page");
  }
  return null;
};

/**
 * healthgrades.com: a provider's patient comments from the comments API its profile page loads,
 * 10 a page by page number. profile_key is the provider's profile URL. No lookup.
 */
export const healthgrades = definePublisher({
  name: "healthgrades",
  displayName: "Healthgrades",
  kind: "health",
  domains: ["healthgrades.com"],
  loginRequired: false,
  ratingScale: "1–5 stars, kept as is",
  summaryFields: ["review_count"],
  profile: healthgradesProfile,
  queue: {
    concurrency: 1,
    retries: 4,
    retryDelay: 120,
    note: "healthgrades.com: the provider comments API, 10 a page; datacenter addresses are refused, so few at once.",
  },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: healthgradesProfile.keyOf,
    firstPage: 1,
    request: commentsRequest,
    parse: parseHealthgradesPage,
    // 10 a page: 2,000 pages is 20,000 comments, beyond any one provider.
    maxPages: 2_000,
    inspect: inspectHealthgradesPage,
  }),
  evidenceDate: "2026-11",
});
