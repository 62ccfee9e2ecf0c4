import type { PageInspector } from "../../scraping/client";
import { transientError } from "../../scraping/errors";
import { declareProfile } from "../kit/profile";
import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { parseProductReviewPage, productReviewUrl, WHAT } from "./reviews";

const PAGE = "https://www.productreview.com.au/listings/jacaranda-finance";
const NOT_A_LISTING = "Enter the URL of a profile on productreview.com.au.";

/**
 * profile_key: a listing page, `/listings/<slug>` or any of its tabs (`/listings/<slug>/q-and-a`),
 * query and fragment dropped. The walk's key is the slug, which the reviews API takes as it is.
 */
export const productReviewProfile = declareProfile({
  hosts: ["productreview.com.au"],
  urls: [{ path: /^\/listings\/(?<slug>[a-z0-9][a-z0-9-]{0,150})(?:\/|$)/ }],
  page: "https://www.productreview.com.au/listings/{slug}",
  key: "{slug}",
  examples: [
    { input: PAGE, url: PAGE },
    { input: `${PAGE}?page=3#reviews`, url: PAGE },
    {
      input: "https://productreview.com.au/listings/powerpal-energy-monitor/q-and-a",
      url: "https://www.productreview.com.au/listings/powerpal-energy-monitor",
    },
    { input: "https://www.productreview.com.au/c/personal-loans", error: NOT_A_LISTING },
    { input: "https://www.productreview.com.au/listings/", error: NOT_A_LISTING },
    {
      input: "https://www.trustpilot.com/review/jacaranda.com.au",
      error: "Enter a URL on productreview.com.au or one of its subdomains.",
    },
    { input: "jacaranda-finance", error: "Enter a valid URL." },
  ],
});

/**
 * The site sits behind Cloudflare (the newest client reads it from a browser session that passed
 * the check, and saw 403s when it paced too fast): a challenge page, or HTML where the API should
 * answer JSON, is `blocked` and retried later.
 */
const inspectProductReviewAnswer: PageInspector = (page) => {
  const head = page.text.slice(0, 20_000);
  if (/<title>\s*Just a moment\.\.\./i.test(head) || /cf-chl-|challenge-platform/i.test(head))
    return transientError("blocked", "ProductReview answered with Cloudflare's bot check");
  if (head.trimStart().startsWith("<"))
    return transientError("blocked", "ProductReview answered its reviews API with an HTML page");
  return null;
};

/**
 * productreview.com.au (Australia): a listing's reviews from the site's own listings API (no key),
 * newest first, 100 a page by page number. The review field names are assumed from the newest named
 * client (README.md "Assumed"): an answer without them is `publisher_error` naming what is missing.
 * No lookup.
 */
export const productreview = definePublisher({
  name: "productreview",
  displayName: "ProductReview.com.au",
  kind: "consumer",
  domains: ["productreview.com.au"],
  loginRequired: false,
  ratingScale: "1–5 stars, kept as is",
  profile: productReviewProfile,
  queue: {
    concurrency: 1,
    retries: 4,
    retryDelay: 120,
    note: "productreview.com.au: the listings reviews API, 100 a page; Cloudflare 403s when paced too fast, so one at a time.",
  },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: productReviewProfile.keyOf,
    firstPage: 1,
    request: (key, position, pageUrl) => ({
      url: productReviewUrl(key, position),
      options: { headers: { Accept: "application/json", Referer: pageUrl } },
    }),
    parse: parseProductReviewPage,
    inspect: inspectProductReviewAnswer,
    // 100 a page: 1,000 pages is 100,000 reviews, beyond any one listing.
    maxPages: 1_000,
  }),
  evidenceDate: "2026-05-20",
});
