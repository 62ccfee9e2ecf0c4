/**
 * 2GIS (2gis.ru, 2gis.com, 2gis.kz, 2gis.ae): a firm's rated reviews from 2GIS's public review API,
 * with the site's own public review key read once from the firm page, 50 a page newest first, with
 * the firm's rating and review count and the owner's official answers. No lookup.
 */
import type { PageInspector } from "../../scraping/client";
import { transientError } from "../../scraping/errors";
import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { openTwogisFirm, TWOGIS_DOMAINS, twogisProfile } from "./profile";
import { parseTwogisPage, twogisReviewsUrl, WHAT } from "./reviews";

/**
 * The review API answers JSON; an HTML page in its place (a ban page served with 200, which one
 * public client routes around) is `blocked`.
 */
const inspectTwogisPage: PageInspector = (page) =>
  page.url.hostname === "public-api.reviews.2gis.com" && page.text.slice(0, 2_000).trimStart().startsWith("<")
    ? transientError("blocked", "2GIS answered its review API with an HTML page")
    : null;

export const twogis = definePublisher({
  name: "twogis",
  displayName: "2GIS",
  kind: "maps",
  domains: TWOGIS_DOMAINS,
  loginRequired: false,
  ratingScale: "1–5 stars, kept as is",
  profile: twogisProfile,
  summaryFields: ["rating", "review_count"],
  reviewFields: ["likes", "author_review_count"],
  queue: {
    note: "2GIS (2gis.ru, .com, .kz, .ae): the public review API with the site's key from the firm page, 50 a page.",
  },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: twogisProfile.keyOf,
    open: openTwogisFirm,
    firstPage: 1,
    request: (key, position, pageUrl) => ({
      url: twogisReviewsUrl(key, position),
      options: { headers: { Referer: pageUrl, Origin: new URL(pageUrl).origin } },
    }),
    parse: parseTwogisPage,
    inspect: inspectTwogisPage,
    // 50 a page: 2,000 pages is 100,000 reviews, beyond any one branch.
    maxPages: 2_000,
  }),
  evidenceDate: "2026-08-22",
});
