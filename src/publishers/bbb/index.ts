import type { PageInspector } from "../../scraping/client";
import { transientError } from "../../scraping/errors";
import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { bbbProfile } from "./profile";
import { customerReviewsUrl, parseBbbPage, WHAT } from "./reviews";

/**
 * bbb.org sits behind Cloudflare's bot management: its challenge ("Just a moment...") comes with 403
 * or 503, sometimes 200, and an HTML page where the endpoint should answer JSON is that wall too.
 * All are `blocked`, retried later.
 */
const inspectBbbPage: PageInspector = (page) => {
  const head = page.text.slice(0, 20_000);
  if (/<title>\s*Just a moment\.\.\./i.test(head) || /cf-chl-|challenge-platform/i.test(head)) {
    return transientError("blocked", "BBB answered with Cloudflare's bot check");
  }
  if (page.url.pathname.startsWith("/api/") && head.trimStart().startsWith("<")) {
    return transientError("blocked", "BBB answered its reviews endpoint with an HTML page");
  }
  return null;
};

/**
 * bbb.org: a business's customer reviews from the JSON endpoint its `/customer-reviews` page loads,
 * newest first, 10 a page by page number, with the business's response and rebuttal as the owner
 * reply. profile_key is the business's profile URL (any tab). No lookup.
 */
export const bbb = definePublisher({
  name: "bbb",
  displayName: "Better Business Bureau",
  kind: "consumer",
  domains: ["bbb.org"],
  loginRequired: false,
  ratingScale: "1–5 stars, kept as is (older reviews without stars have no rating)",
  summaryFields: ["review_count"],
  profile: bbbProfile,
  queue: {
    concurrency: 1,
    retries: 4,
    retryDelay: 120,
    note: "bbb.org: customer-reviews JSON behind Cloudflare bot management, so few at once and long pauses.",
  },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: bbbProfile.keyOf,
    firstPage: 1,
    request: (key, position, pageUrl) => ({
      url: customerReviewsUrl(key, position),
      options: { headers: { Referer: pageUrl } },
    }),
    parse: parseBbbPage,
    // 10 a page: 5,000 pages is 50,000 reviews.
    maxPages: 5_000,
    inspect: inspectBbbPage,
  }),
  evidenceDate: "2026-09-15",
});
