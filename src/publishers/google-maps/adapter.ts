import { z } from "zod";
import { isOnDomain } from "../../core/publishers/canonical";
import type { FetchedPage } from "../../scraping/client";
import { permanentError, transientError, type ScrapeError } from "../../scraping/errors";
import type { Adapter, AdapterPage } from "../types";
import { parsePlacePage, type PlacePage } from "./place-record";
import { FEATURE_ID, featureIdIn, placeIdUrl, placeRef } from "./place-ref";
import { newRequestId, parseReviewsPage, reviewsRpcUrl } from "./reviews-rpc";

/** Where the walk is: the place, and the RPC's token for the next (older) page. */
export const GoogleMapsCursorSchema = z.object({
  featureId: z.string().regex(FEATURE_ID),
  /** The place page reached from the profile URL; reviews without their own link point here. */
  placeUrl: z.string(),
  /** "" for the first page. */
  token: z.string(),
  requestId: z.string(),
  /** The review count the place page showed; null when it showed none we could read. */
  reviewCount: z.number().int().nonnegative().nullable(),
});
export type GoogleMapsCursor = z.infer<typeof GoogleMapsCursorSchema>;

/** The page that shows a place: short links and cid links are followed; a place id opens its page. */
function placePageUrl(profileUrl: URL): string {
  const ref = placeRef(profileUrl);
  if (!ref) throw permanentError("profile_not_found", "Not a Google Maps place link");
  return ref.kind === "placeId" ? placeIdUrl(ref.placeId) : profileUrl.toString();
}

/** The place page's record where it can be read; a link that names its place needs nothing else. */
function readPlacePageIfAny(html: string): PlacePage {
  try {
    return parsePlacePage(html);
  } catch {
    return { found: false };
  }
}

const looksLikeHtml = (text: string) => /^\s*</.test(text);

/**
 * Google's walls come with status 200 (or after redirects): the cookie consent page
 * (consent.google.com, "Before you continue to Google"), the "unusual traffic" captcha under
 * /sorry/, and the sign-in page (accounts.google.com). JSON answers are only checked by their URL,
 * since review texts may say anything.
 */
export function inspectGooglePage(page: FetchedPage): ScrapeError | null {
  const host = page.url.hostname.toLowerCase();
  if (isOnDomain(host, "consent.google.com")) return permanentError("blocked", "Google answered with its cookie consent page (consent.google.com)");
  if (isOnDomain(host, "accounts.google.com")) return permanentError("login_required", "Google answered with its sign-in page (accounts.google.com)");
  if (page.url.pathname.startsWith("/sorry/")) return transientError("blocked", "Google answered with its unusual-traffic captcha (/sorry/)");
  if (!looksLikeHtml(page.text)) return null;
  if (/<form[^>]+action="https:\/\/consent\.google\.com\//i.test(page.text) || /<title>\s*Before you continue/i.test(page.text)) {
    return permanentError("blocked", "Google answered with its cookie consent page (Before you continue)");
  }
  if (/detected unusual traffic from your computer network/i.test(page.text))
    return transientError("blocked", "Google answered with its unusual-traffic captcha");
  return null;
}

/**
 * maps.google.com: opens the place page the profile URL leads to (following short links and cid
 * redirects) for the place's feature id and review count, then reads the reviews newest first
 * through the `listugcposts` RPC, one page of 20 per cursor step.
 */
export const googleMapsAdapter: Adapter<GoogleMapsCursor> = {
  cursor: GoogleMapsCursorSchema,

  async start(profileUrl, ctx) {
    const page = await ctx.client.request(placePageUrl(new URL(profileUrl)));
    // A /maps/place URL names its feature id; the page's own record says it for every other form
    // (and the review count, which only tells an empty place from a changed RPC answer).
    const named = featureIdIn(page.url);
    const shown = named ? readPlacePageIfAny(page.text) : parsePlacePage(page.text);
    const featureId = named ?? (shown.found ? shown.place.featureId : null);
    if (!featureId) throw permanentError("profile_not_found", "Google Maps shows no place at this link");
    const reviewCount = shown.found ? shown.place.reviewCount : null;
    const placeUrl = page.url.toString();
    return { profileUrl: placeUrl, cursor: { featureId, placeUrl, token: "", requestId: newRequestId(), reviewCount } };
  },

  async page(cursor, ctx): Promise<AdapterPage<GoogleMapsCursor>> {
    const { data } = await ctx.client.json(reviewsRpcUrl(cursor));
    const { reviews, entries, nextToken } = parseReviewsPage(data);
    if (entries === 0 && cursor.token === "" && cursor.reviewCount !== 0) {
      // No reviews at all is only believable when the place page says so too.
      throw permanentError(
        "publisher_error",
        cursor.reviewCount === null
          ? "listugcposts returned no reviews and the place page shows no review count at [4][8]"
          : `listugcposts returned no reviews for a place that shows ${cursor.reviewCount}`,
      );
    }
    if (entries === 0 && nextToken) throw permanentError("publisher_error", "listugcposts returned a next page token with no reviews");
    const next = nextToken && nextToken !== cursor.token ? { ...cursor, token: nextToken } : null;
    return { pageUrl: cursor.placeUrl, reviews, next, profileUrl: cursor.placeUrl };
  },

  inspect: inspectGooglePage,
};
