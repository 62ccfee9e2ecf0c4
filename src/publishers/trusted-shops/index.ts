import { permanentError } from "../../scraping/errors";
import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { infoPageUrl, resolveTrustedShopsProfile, shopKeyOf, TRUSTED_SHOPS_DOMAINS } from "./profile";
import {
  parseShopSearch,
  parseTrustedShopsPage,
  qualityUrl,
  reviewsUrl,
  shopSearchUrl,
  WHAT,
} from "./reviews";

/**
 * trustedshops.com and its country sites: a shop's reviews from Trusted Shops' public shop API (no
 * key). profile_key is the shop's profile page, its tsId or the shop's own web address (found with
 * the API's shop search). The public API shows only the newest reviews: a shop is one page, and
 * when the shop has more the task says so (`limitedView`).
 */
export const trustedShops = definePublisher({
  name: "trusted-shops",
  displayName: "Trusted Shops",
  kind: "consumer",
  domains: TRUSTED_SHOPS_DOMAINS,
  loginRequired: false,
  ratingScale: "1–5 stars (the review's mark, a decimal), kept as is",
  summaryFields: ["review_count"],
  resolveProfileKey: resolveTrustedShopsProfile,
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: shopKeyOf,
    async open(key, profileUrl, ctx) {
      if (!key.startsWith("domain:")) return { key, pageUrl: profileUrl };
      const domain = key.slice("domain:".length);
      const tsId = parseShopSearch((await ctx.client.json(shopSearchUrl(domain))).data);
      if (!tsId) throw permanentError("profile_not_found", `Trusted Shops knows no shop at ${domain}`);
      return { key: tsId, pageUrl: infoPageUrl(tsId) };
    },
    firstPage: 0,
    request: (tsId) => ({ url: reviewsUrl(tsId) }),
    // The reviews and the review indicator (the shop's review count) are two answers, read together.
    async fetch(request, tsId, ctx) {
      const reviews = (await ctx.client.json(request.url)).data;
      const quality = (await ctx.client.json(qualityUrl(tsId))).data;
      return { reviews, quality };
    },
    parse: parseTrustedShopsPage,
    maxPages: 1,
  }),
  evidenceDate: "2026-09-13",
});
