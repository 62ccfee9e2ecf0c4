import { z } from "zod";
import { isOnDomain } from "../../core/publishers/canonical";
import type { FetchedPage } from "../../scraping/client";
import type { RawReview } from "../../core/reviews";
import { permanentError, ScrapeError, transientError } from "../../scraping/errors";
import type { Adapter, AdapterPage, ScrapeContext } from "../types";
import type { PageSummary } from "../../core/tasks/publisher-summary";
import { inlineReviewEntries, parsePlacePage, type PlacePage } from "./place-record";
import { FEATURE_ID, featureIdIn, placeIdUrl, placeRef } from "./place-ref";
import { newRequestId, parseReviewsPage, reviewFromEntry, reviewsRpcUrl } from "./reviews-rpc";
import { googleSortCode, parseWindowPage, windowUrl } from "./search-window";

/**
 * Where the walk is. `route` says which answer the token belongs to: the Search review window (the
 * route without login cookies, and wherever listugcposts refuses) or listugcposts (only with the
 * task's Google login cookies). Cursors stored before the window existed have no `route`: their
 * token is a listugcposts token.
 */
export const GoogleMapsCursorSchema = z.object({
  featureId: z.string().regex(FEATURE_ID),
  /** The place page reached from the profile URL; reviews without their own link point here. */
  placeUrl: z.string(),
  /** "" for the first page. */
  token: z.string(),
  requestId: z.string(),
  /** The review count the place page showed; null when it showed none we could read. */
  reviewCount: z.number().int().nonnegative().nullable(),
  /** The average rating the place page showed (1–5); absent or null when it showed none we could read. */
  rating: z.number().nullable().optional(),
  route: z.enum(["window", "listugcposts"]).optional(),
  /** Reviews delivered so far on this walk (listugcposts), so a switch to the window can skip them. */
  delivered: z.number().int().nonnegative().optional(),
  /** Newest reviews the window walk drops because an earlier route already delivered them. */
  skip: z.number().int().nonnegative().optional(),
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

/** Where listugcposts is asked: login cookies for this host select it. */
const LISTUGCPOSTS_ORIGIN = "https://www.google.com/maps/rpc/listugcposts";

/** How far into a page the consent check looks for its title: Google's walls name it at the top. */
const HEAD_SLICE = 16_384;

/** True for an HTML answer (JSON answers start with `)]}'`, `[` or `{`). */
function looksLikeHtml(text: string): boolean {
  return text.slice(0, 1_024).trimStart().startsWith("<");
}

/**
 * Google's walls come with status 200 (or after redirects): the cookie consent page
 * (consent.google.com, "Before you continue to Google"), the "unusual traffic" captcha under
 * /sorry/, and the sign-in page (accounts.google.com). JSON answers are only checked by their URL,
 * since review texts may say anything. Pages are searched for fixed strings (linear), the title
 * only in the page's head: no pattern runs over the page.
 */
export function inspectGooglePage(page: FetchedPage): ScrapeError | null {
  const host = page.url.hostname.toLowerCase();
  if (isOnDomain(host, "consent.google.com"))
    return permanentError("blocked", "Google answered with its cookie consent page (consent.google.com)");
  if (isOnDomain(host, "accounts.google.com"))
    return permanentError("login_required", "Google answered with its sign-in page (accounts.google.com)");
  if (page.url.pathname.startsWith("/sorry/"))
    return transientError("blocked", "Google answered with its unusual-traffic captcha (/sorry/)");
  if (!looksLikeHtml(page.text)) return null;
  const head = page.text.slice(0, HEAD_SLICE).toLowerCase();
  const title = head.indexOf("<title>");
  const titleText =
    title < 0 ? "" : head.slice(title + "<title>".length, title + "<title>".length + 200).trimStart();
  if (
    page.text.includes('action="https://consent.google.com/') ||
    titleText.startsWith("before you continue")
  ) {
    return permanentError("blocked", "Google answered with its cookie consent page (Before you continue)");
  }
  if (page.text.toLowerCase().includes("detected unusual traffic from your computer network"))
    return transientError("blocked", "Google answered with its unusual-traffic captcha");
  return null;
}

/**
 * A refusal of a route: Google answered 401/403/404 or another 4xx, or a page where JSON was due.
 * Retryable answers (429, 5xx, the captcha) are not refusals: they are retried as they are.
 */
function isRefusal(err: unknown): err is ScrapeError {
  return (
    err instanceof ScrapeError &&
    !err.transient &&
    (err.reason === "blocked" ||
      err.reason === "login_required" ||
      err.reason === "profile_not_found" ||
      err.reason === "publisher_error")
  );
}

/** The limited view's reason, as the retrieve's coverage states it. */
export function limitedViewReason(shown: number, total: number | null): string {
  return total === null
    ? `google signed-out view: ${shown} reviews, total not shown`
    : `google signed-out view: ${shown} of ${total} reviews`;
}

type Page = AdapterPage<GoogleMapsCursor>;

/** The place's average rating as its page shows it (Google shows no star breakdown in the record). */
function placeSummary(cursor: GoogleMapsCursor): PageSummary {
  return { rating: cursor.rating ?? null, ratingScale: "1-5" };
}

/** No reviews on the first page is only believable when the place page shows none either. */
function checkEmptyFirstPage(route: string, count: number, cursor: GoogleMapsCursor): void {
  if (count > 0 || cursor.reviewCount === 0) return;
  throw permanentError(
    "publisher_error",
    cursor.reviewCount === null
      ? `${route} returned no reviews and the place page shows no review count at [4][8]`
      : `${route} returned no reviews for a place that shows ${cursor.reviewCount}`,
  );
}

/**
 * Signed out, when the window refuses: the reviews the place page itself shows (Google shows
 * signed-out visitors five). The page says so in `limitedView` unless they are all the place has.
 */
async function placePageView(
  cursor: GoogleMapsCursor,
  ctx: ScrapeContext,
  refusal: ScrapeError,
): Promise<Page> {
  const page = await ctx.client.request(cursor.placeUrl);
  const shown = parsePlacePage(page.text);
  const entries = shown.found ? inlineReviewEntries(shown.record) : [];
  if (entries.length === 0) {
    if (cursor.reviewCount === 0)
      return {
        pageUrl: cursor.placeUrl,
        reviews: [],
        next: null,
        profileUrl: cursor.placeUrl,
        publisherTotal: 0,
      };
    throw refusal;
  }
  const reviews = entries
    .map((entry, index) => reviewFromEntry(entry, index))
    .filter((r): r is RawReview => r !== null);
  const total = shown.found ? (shown.place.reviewCount ?? cursor.reviewCount) : cursor.reviewCount;
  const limited = total === null || total > reviews.length;
  return {
    pageUrl: cursor.placeUrl,
    reviews,
    next: null,
    profileUrl: cursor.placeUrl,
    publisherTotal: total,
    summary: placeSummary(cursor),
    limitedView: limited ? limitedViewReason(reviews.length, total) : null,
  };
}

/** One page of the Search review window (see ./search-window.ts). */
async function windowPage(cursor: GoogleMapsCursor, ctx: ScrapeContext): Promise<Page> {
  const first = cursor.token === "" && !cursor.skip;
  let data: unknown;
  try {
    ({ data } = await ctx.client.json(windowUrl(cursor.featureId, cursor.token, googleSortCode(ctx.sort))));
  } catch (err) {
    // Refused on its first page, the window leaves the signed-out Maps view (five reviews).
    if (first && isRefusal(err)) return placePageView(cursor, ctx, err);
    throw err;
  }
  const { reviews, records, nextToken } = parseWindowPage(data);
  if (first) checkEmptyFirstPage("GetLocalBoqProxy", records, cursor);
  if (records === 0 && nextToken)
    throw permanentError("publisher_error", "GetLocalBoqProxy returned a next page token with no reviews");
  // After a switch from listugcposts, the newest reviews were delivered already.
  const skip = Math.min(cursor.skip ?? 0, reviews.length);
  const next =
    nextToken && nextToken !== cursor.token
      ? { ...cursor, route: "window" as const, token: nextToken, skip: (cursor.skip ?? 0) - skip }
      : null;
  return {
    pageUrl: cursor.placeUrl,
    reviews: reviews.slice(skip),
    next,
    profileUrl: cursor.placeUrl,
    ...(first ? { publisherTotal: cursor.reviewCount, summary: placeSummary(cursor) } : {}),
  };
}

/** One page of listugcposts, the Maps route that serves signed-in visitors (see ./reviews-rpc.ts). */
async function listugcpostsPage(cursor: GoogleMapsCursor, ctx: ScrapeContext): Promise<Page> {
  const { data } = await ctx.client.json(reviewsRpcUrl({ ...cursor, sort: googleSortCode(ctx.sort) }));
  const { reviews, entries, nextToken } = parseReviewsPage(data);
  const first = cursor.token === "";
  if (first) checkEmptyFirstPage("listugcposts", entries, cursor);
  if (entries === 0 && nextToken)
    throw permanentError("publisher_error", "listugcposts returned a next page token with no reviews");
  const delivered = (cursor.delivered ?? 0) + reviews.length;
  const next =
    nextToken && nextToken !== cursor.token
      ? { ...cursor, route: "listugcposts" as const, token: nextToken, delivered }
      : null;
  return {
    pageUrl: cursor.placeUrl,
    reviews,
    next,
    profileUrl: cursor.placeUrl,
    ...(first ? { publisherTotal: cursor.reviewCount, summary: placeSummary(cursor) } : {}),
  };
}

/**
 * maps.google.com: opens the place page the profile URL leads to (following short links and cid
 * redirects) for the place's feature id and review count, then reads the reviews newest first
 * through the Search review window, 60 a page (the most it serves) by token to the end. With the task's Google login
 * cookies it reads listugcposts instead (20 a page), and goes on through the window wherever
 * listugcposts refuses (403), skipping what it already delivered.
 */
export const googleMapsAdapter: Adapter<GoogleMapsCursor> = {
  cursor: GoogleMapsCursorSchema,

  async start(profileUrl, ctx) {
    const page = await ctx.client.request(placePageUrl(new URL(profileUrl)));
    // A /maps/place URL names its feature id; the page's own record says it for every other form
    // (and the review count, which only tells an empty place from a changed answer).
    const named = featureIdIn(page.url);
    const shown = named ? readPlacePageIfAny(page.text) : parsePlacePage(page.text);
    const featureId = named ?? (shown.found ? shown.place.featureId : null);
    if (!featureId) throw permanentError("profile_not_found", "Google Maps shows no place at this link");
    const reviewCount = shown.found ? shown.place.reviewCount : null;
    const rating = shown.found ? shown.place.rating : null;
    const placeUrl = page.url.toString();
    const route = ctx.client.hasCookiesFor(LISTUGCPOSTS_ORIGIN) ? "listugcposts" : "window";
    return {
      profileUrl: placeUrl,
      cursor: { featureId, placeUrl, token: "", requestId: newRequestId(), reviewCount, rating, route },
    };
  },

  async page(cursor, ctx): Promise<Page> {
    if ((cursor.route ?? "listugcposts") === "window") return windowPage(cursor, ctx);
    try {
      return await listugcpostsPage(cursor, ctx);
    } catch (err) {
      // 2026: listugcposts answers 403 to signed-out clients and may refuse expired cookies; the
      // window serves the same reviews, newest first, so the walk goes on there.
      if (
        !(err instanceof ScrapeError) ||
        err.transient ||
        (err.reason !== "blocked" && err.reason !== "login_required")
      )
        throw err;
      return windowPage({ ...cursor, route: "window", token: "", skip: cursor.delivered ?? 0 }, ctx);
    }
  },

  inspect: inspectGooglePage,
};
