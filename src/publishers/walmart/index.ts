import type { PageInspector } from "../../scraping/client";
import { transientError } from "../../scraping/errors";
import { jsonWalkAdapter } from "../kit/json-walk";
import { WorkBudget } from "../kit/work-budget";
import { definePublisher } from "../types";
import { walmartProfile } from "./profile";
import { pageData, parseWalmartPage, walmartReviewsUrl, WHAT } from "./reviews";

/**
 * walmart.com sits behind PerimeterX (HUMAN): its wall is the "Robot or human?" page with a
 * `px-captcha` element ("Activate and hold the button to confirm that you're human"), served with
 * 200, 403 or 429, or a redirect to `/blocked`. A real reviews page always carries `__NEXT_DATA__`;
 * the markers are looked for in a page's head only.
 */
export const inspectWalmartPage: PageInspector = (page) => {
  if (page.url.pathname.startsWith("/blocked")) {
    return transientError("blocked", "Walmart redirected to its PerimeterX bot check (/blocked)");
  }
  const head = page.text.slice(0, 50_000);
  if (head.includes("px-captcha") || head.includes("Robot or human?")) {
    return transientError("blocked", "Walmart answered with PerimeterX's bot check (Robot or human?)");
  }
  return null;
};

/**
 * walmart.com (products): a product's customer reviews, newest first, ten a page, from the reviews
 * page's `__NEXT_DATA__`. Behind PerimeterX, so one at a time with long pauses. No lookup.
 */
export const walmart = definePublisher({
  name: "walmart",
  displayName: "Walmart",
  kind: "retail",
  domains: ["walmart.com"],
  loginRequired: false,
  ratingScale: "1–5 stars, kept as is",
  summaryFields: ["rating", "review_count", "histogram"],
  profile: walmartProfile,
  queue: {
    concurrency: 1,
    retries: 4,
    retryDelay: 120,
    note: "walmart.com: the reviews page's __NEXT_DATA__, ten a page, behind PerimeterX, so one at a time.",
  },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: walmartProfile.keyOf,
    firstPage: 1,
    request: (itemId, position) => ({ url: walmartReviewsUrl(itemId, position.page) }),
    async fetch(request, _key, ctx) {
      const page = await ctx.client.request(request.url);
      return pageData(page.text, new WorkBudget(WHAT));
    },
    parse: parseWalmartPage,
    // Ten a page: 5,000 pages is 50,000 written reviews, beyond the most reviewed products.
    maxPages: 5_000,
    inspect: inspectWalmartPage,
  }),
  evidenceDate: "2025-08-14",
});
