import { z } from "zod";
import type { FetchedPage } from "../../scraping/client";
import { permanentError, type ScrapeError } from "../../scraping/errors";
import { hasLoginForm } from "../../scraping/response-status";
import type { Adapter, AdapterPage } from "../types";
import { apolloCache, rawReview, reviewsResult } from "./apollo";

/** Where the walk is: the employer's reviews address without page and suffix, and the page number. */
export const GlassdoorCursorSchema = z.object({
  /** `https://www.glassdoor.com/Reviews/<Name>-Reviews-E<id>` */
  base: z.string().url(),
  page: z.number().int().positive(),
});
export type GlassdoorCursor = z.infer<typeof GlassdoorCursorSchema>;

const REVIEWS_PATH = /^\/Reviews\/([^/]*?)-Reviews-E(\d+)(?:_P\d+)?\.htm$/i;
const OVERVIEW_PATH = /^\/Overview\/Working-at-([^/]*?)-EI_IE(\d+)(?:\.\d+,\d+)?\.htm$/i;

/** The reviews address of an employer from a reviews or overview URL, or null for other pages. */
export function reviewsBase(url: URL): string | null {
  const reviews = REVIEWS_PATH.exec(url.pathname);
  const overview = reviews ? null : OVERVIEW_PATH.exec(url.pathname);
  const match = reviews ?? overview;
  if (!match) return null;
  const name = match[1] || "Employer";
  return `https://www.glassdoor.com/Reviews/${name}-Reviews-E${match[2]}`;
}

/** One page of reviews, most recent first (Glassdoor's "sort by date" parameters). */
export function pageUrl({ base, page }: GlassdoorCursor): string {
  return `${base}${page > 1 ? `_P${page}` : ""}.htm?sort.sortType=RD&sort.ascending=false`;
}

/**
 * Glassdoor's walls come with status 200 or through redirects: its sign-in pages
 * (/profile/login…, /member/…) and the bot checks ("Help Us Protect Glassdoor", Cloudflare's
 * "Just a moment...").
 */
export function inspectGlassdoorPage(page: FetchedPage): ScrapeError | null {
  const path = page.url.pathname.toLowerCase();
  if (path.startsWith("/profile/login") || path.startsWith("/member/")) return permanentError("login_required", "Glassdoor answered with its sign-in page");
  if (/<title>\s*(?:Help Us Protect Glassdoor|Just a moment\.\.\.)/i.test(page.text)) return permanentError("blocked", "Glassdoor answered with its bot check");
  return null;
}

/**
 * glassdoor.com: employer reviews read from the Apollo cache of the reviews pages
 * (`/Reviews/<Name>-Reviews-E<id>_P<n>.htm`), newest first, one page per cursor step.
 */
export const glassdoorAdapter: Adapter<GlassdoorCursor> = {
  cursor: GlassdoorCursorSchema,

  async start(profileUrl) {
    const base = reviewsBase(new URL(profileUrl));
    if (!base) throw permanentError("profile_not_found", "Not a Glassdoor employer reviews URL");
    return { profileUrl: pageUrl({ base, page: 1 }), cursor: { base, page: 1 } };
  },

  async page(cursor, ctx): Promise<AdapterPage<GlassdoorCursor>> {
    const page = await ctx.client.request(pageUrl(cursor));
    const cache = apolloCache(page.text);
    if (!cache) {
      if (await hasLoginForm(page.text)) throw permanentError("login_required", "Glassdoor shows a sign-in form instead of reviews");
      throw permanentError("publisher_error", "Glassdoor page: no Apollo cache (__NEXT_DATA__ apolloCache or apolloState)");
    }
    const result = reviewsResult(cache);
    if (result.reviews.length === 0 && (result.allReviewsCount ?? 0) > 0) {
      // Reviews counted but none shown: the sign-in overlay hides them, or the layout changed.
      if (await hasLoginForm(page.text)) throw permanentError("login_required", "Glassdoor hides the reviews behind its sign-in form");
      throw permanentError("publisher_error", `Glassdoor page: no reviews shown for an employer with ${result.allReviewsCount}`);
    }
    const reviews = result.reviews.map((review, index) => rawReview(review, index));
    const next = result.currentPage < result.numberOfPages ? { base: cursor.base, page: result.currentPage + 1 } : null;
    const url = page.url.toString();
    return { pageUrl: url, reviews, next, profileUrl: cursor.page === 1 ? url : undefined };
  },

  inspect: inspectGlassdoorPage,
};
