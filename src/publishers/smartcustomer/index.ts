import type { PageInspector } from "../../scraping/client";
import { transientError } from "../../scraping/errors";
import { declareProfile } from "../kit/profile";
import { jsonWalkAdapter } from "../kit/json-walk";
import { WorkBudget } from "../kit/work-budget";
import { definePublisher } from "../types";
import { parseSmartCustomerPage, readSmartCustomerPage, smartCustomerPageUrl, WHAT } from "./reviews";

const PAGE = "https://www.smartcustomer.com/reviews/rover.com";
const DOMAIN = /(?<domain>[a-z0-9](?:[a-z0-9-]{0,62})(?:\.[a-z0-9](?:[a-z0-9-]{0,62})){1,5})/i;

/**
 * profile_key: a business's review page on smartcustomer.com or on sitejabber.com, which now serves
 * the same `/reviews/<domain>` paths as SmartCustomer (`?page=N`, the fragment dropped), or the
 * business's domain as text (`rover.com`). The walk's key is the domain, lower-cased; the canonical
 * profile URL is always on smartcustomer.com.
 */
export const smartCustomerProfile = declareProfile({
  hosts: ["smartcustomer.com", "sitejabber.com"],
  urls: [{ path: new RegExp(`^/reviews/${DOMAIN.source}/?$`, "i") }],
  ids: [new RegExp(`^${DOMAIN.source}$`, "i")],
  page: (g) => `https://www.smartcustomer.com/reviews/${g.domain.toLowerCase()}`,
  key: (g) => g.domain.toLowerCase(),
  examples: [
    { input: PAGE, url: PAGE },
    { input: `${PAGE}?page=4#reviews`, url: PAGE },
    { input: "https://www.sitejabber.com/reviews/Rover.com", url: PAGE },
    { input: "rover.com", url: PAGE },
    {
      input: "https://www.smartcustomer.com/categories/pet-services",
      error: "Enter the URL of a profile on smartcustomer.com.",
    },
    {
      input: "https://www.trustpilot.com/review/rover.com",
      error: "Enter a URL on smartcustomer.com or one of its subdomains.",
    },
    { input: "rover", error: "Enter a valid URL." },
  ],
});

/** Cloudflare's challenge (a 200 with "Just a moment..." as often as a 403) is `blocked`, retried later. */
const inspectSmartCustomerPage: PageInspector = (page) => {
  const head = page.text.slice(0, 20_000);
  if (/<title>\s*Just a moment\.\.\./i.test(head) || /cf-chl-|challenge-platform/i.test(head))
    return transientError("blocked", "SmartCustomer answered with Cloudflare's bot check");
  return null;
};

/**
 * smartcustomer.com (formerly Sitejabber; sitejabber.com serves the same pages): a business's reviews
 * from its server-rendered review pages, 20 a page by `?page=N`, newest first: the schema.org Reviews
 * of the JSON-LD, else the review markup; the business's average and review count as its publisher
 * summary. Behind Cloudflare.
 * No lookup: a bare domain names the business.
 */
export const smartcustomer = definePublisher({
  name: "smartcustomer",
  displayName: "SmartCustomer (Sitejabber)",
  kind: "consumer",
  domains: ["smartcustomer.com", "sitejabber.com"],
  loginRequired: false,
  ratingScale: "1–5 stars, kept as is",
  profile: smartCustomerProfile,
  summaryFields: ["rating", "review_count"],
  queue: {
    concurrency: 1,
    retries: 4,
    retryDelay: 120,
    note: "smartcustomer.com / sitejabber.com: server-rendered review pages (JSON-LD), 20 a page; Cloudflare, so one at a time.",
  },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: smartCustomerProfile.keyOf,
    firstPage: 1,
    request: (_key, position, pageUrl) => ({ url: smartCustomerPageUrl(pageUrl, position) }),
    async fetch(request, _key, ctx) {
      const page = await ctx.client.request(request.url);
      return readSmartCustomerPage(page.text, new WorkBudget(WHAT));
    },
    parse: parseSmartCustomerPage,
    inspect: inspectSmartCustomerPage,
    // 20 a page: 5,000 pages is 100,000 reviews, beyond any one business.
    maxPages: 5_000,
  }),
  evidenceDate: "2026-10-20",
});
