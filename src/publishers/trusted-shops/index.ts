/**
 * trustedshops.com and its country sites: a shop's reviews from Trusted Shops' public shop API (no key),
 * answers wrapped as `{response: {code, data}}`. The API shows only the newest reviews, with no page
 * parameter: a shop is one page, and when its review indicator counts more, the task says so.
 */
import { z } from "zod";
import { canonicalPublisherKey } from "../../core/publishers/canonical";
import { permanentError } from "../../scraping/errors";
import { jsonApiPublisher } from "../kit/json-api";
import { readAnswer } from "../kit/json-walk";

const API = "https://api.trustedshops.com/rest/public/v2";
export const reviewsUrl = (tsId: string) => `${API}/shops/${tsId}/reviews.json`;
export const qualityUrl = (tsId: string) => `${API}/shops/${tsId}/quality/reviews.json`;
export const shopSearchUrl = (domain: string) => `${API}/shops.json?url=${encodeURIComponent(domain)}`;
export const infoPageUrl = (tsId: string) => `https://www.trustedshops.com/buyerrating/info_${tsId}.html`;

/** Trusted Shops' country sites; a shop's profile page is on any of them. */
const SITES = "com de co.uk eu at ch fr it es nl pl".split(" ").map((tld) => `trustedshops.${tld}`);
const SHOP = "response.data.shop";
const INDICATOR = `quality.${SHOP}.qualityIndicators.reviewIndicator`;
const BIG_SHOP = `X${"1".repeat(32)}`;
const DE = `https://www.trustedshops.de/bewertung/info_${BIG_SHOP}.html`;
const EU = `https://www.trustedshops.eu/buyerrating/info_${BIG_SHOP}.html`;

const ShopTsIds = z.array(z.object({ tsId: z.string().regex(/^X[0-9A-F]{32}$/) })).nullish();
const ShopsAnswer = z.object({ response: z.object({ data: z.object({ shops: ShopTsIds }) }) });

/** The tsId of the shop at a web address, or null when Trusted Shops knows none there. */
export const parseShopSearch = (data: unknown): string | null =>
  readAnswer(ShopsAnswer, data, "Trusted Shops shop search").response.data.shops?.[0]?.tsId ?? null;

/** A shop's own web address (not a Trusted Shops site) as profile_key: its shop search. */
function shopSearchOf(id: string): string | null {
  const domain = canonicalPublisherKey(id);
  return domain && !SITES.includes(domain) ? shopSearchUrl(domain) : null;
}

export const trustedShops = jsonApiPublisher({
  name: "trusted-shops",
  displayName: "Trusted Shops",
  kind: "consumer",
  domains: SITES,
  ratingScale: "1–5 stars (the review's mark, a decimal), kept as is",
  summaryFields: ["review_count"],
  evidenceDate: "2026-09-13",
  queue: { note: "trustedshops.com: the public shop API (no key), one answer per shop." },
  // A shop's profile page on any site (query dropped), its tsId, or the shop's own web address, which
  // the first run turns into the tsId with the shop search.
  profile: {
    urls: [{ path: /\/info_(?<tsId>X[0-9A-F]{32})\.html$/, page: "{origin}{path}" }],
    ids: [/^(?<tsId>X[0-9A-F]{32})$/, shopSearchOf],
    page: "https://www.trustedshops.com/buyerrating/info_{tsId}.html",
    examples: [
      { input: `${DE}?utm=x`, url: DE },
      { input: EU, url: EU },
      { input: BIG_SHOP, url: infoPageUrl(BIG_SHOP) },
      { input: "example-shop.de", url: shopSearchUrl("example-shop.de") },
      { input: "https://trustedshops.de/shops/", error: "Enter the URL of a profile on trustedshops.com." },
      { input: "https://feefo.com/x", error: "Enter a URL on trustedshops.com or one of its subdomains." },
      { input: "trustedshops.de", error: "Enter a valid URL." },
      { input: "not a shop", error: "Enter a valid URL." },
    ],
  },
  api: {
    what: "Trusted Shops reviews",
    request: { reviews: reviewsUrl, quality: { url: qualityUrl, what: "Trusted Shops review indicator" } },
    reviews: `reviews.${SHOP}.reviews?`,
    sameKey: `reviews.${SHOP}.tsId`,
    language: `reviews.${SHOP}.languageISO2`,
    // All reviews since `reviewsCountedSince`; the last 365 days' count (a real answer: 41 of 222)
    // stands in only when the total is absent.
    total: [`${INDICATOR}.totalReviewCount?`, `${INDICATOR}.activeReviewCount?`],
    limitedView: (shown, total) =>
      `Trusted Shops' public API shows only the newest ${shown} of ${total} reviews`,
    review: { id: "UID", rating: "mark", text: "comment", date: "creationDate" },
    // A web address given as profile_key: `domain:<address>` until the shop search finds its tsId.
    keyOf: (url) => (url.href.startsWith(shopSearchUrl("")) ? `domain:${url.searchParams.get("url")}` : null),
    async open(key, profileUrl, ctx) {
      if (!key.startsWith("domain:")) return { key, pageUrl: profileUrl };
      const domain = key.slice("domain:".length);
      const tsId = parseShopSearch((await ctx.client.json(shopSearchUrl(domain))).data);
      if (!tsId) throw permanentError("profile_not_found", `Trusted Shops knows no shop at ${domain}`);
      return { key: tsId, pageUrl: infoPageUrl(tsId) };
    },
  },
});
