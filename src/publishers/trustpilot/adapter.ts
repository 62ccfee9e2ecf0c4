import { z } from "zod";
import { log } from "../../log";
import { permanentError, ScrapeError, transientError } from "../../scraping/errors";
import type { FetchedPage } from "../../scraping/client";
import type { Adapter, AdapterPage } from "../types";
import type { ReviewSort } from "../../core/tasks/collection";
import { hasNextData } from "./next-data";
import { parseReviewPage } from "./reviews";

/** Where the walk is: the profile (canonical, after redirects) and the page number to read. */
export const TrustpilotCursorSchema = z.object({ profileUrl: z.url(), page: z.number().int().positive() });
export type TrustpilotCursor = z.infer<typeof TrustpilotCursorSchema>;

/**
 * The orders besides newest first (`sort=recency`): "most relevant" is Trustpilot's default order,
 * asked for by leaving `sort` out. Trustpilot has no rating order (only a star filter).
 */
export const TRUSTPILOT_SORTS = { relevant: "" } as const;

/**
 * The URL of one page of a profile's list: every language (a country site otherwise shows only
 * reviews in its own language) and newest first (the default order is "most relevant", which the
 * task may ask for instead).
 */
export function reviewPageUrl(profileUrl: string, page: number, sort?: ReviewSort): string {
  const url = new URL(profileUrl);
  url.search = "";
  url.hash = "";
  url.searchParams.set("languages", "all");
  const order = sort === "relevant" ? TRUSTPILOT_SORTS.relevant : "recency";
  if (order) url.searchParams.set("sort", order);
  if (page > 1) url.searchParams.set("page", String(page));
  return url.toString();
}

/** The profile's own URL (no query) of a page URL. */
function profileOf(pageUrl: URL): string {
  const url = new URL(pageUrl);
  url.search = "";
  url.hash = "";
  return url.toString();
}

const SIGN_IN_PATH = /^\/(?:users\/connect|login|signin)\b/i;
// Next.js's own redirect in page data (`__N_REDIRECT`) to the sign-in page.
const SIGN_IN_REDIRECT = /"__N_REDIRECT"\s*:\s*"\/users\/connect/;
const CHALLENGE =
  /awswaf|aws-waf-token|captcha|verifying your connection|verify you are (?:a )?human|cf-challenge|challenge-platform/i;
const CONSENT = /onetrust-consent-sdk|id=["']?consent|cookie consent|consent\.trustpilot/i;

/**
 * Trustpilot's answers that come with status 200 but hold no reviews: the sign-in page (it asks
 * anonymous visitors to sign in before the deeper pages of a long list), a bot challenge or
 * captcha, a consent wall. A real page always carries its `__NEXT_DATA__`, so the markers are only
 * looked for on pages without it (the real pages mention "consent" in their own cookie banner).
 */
export function inspectTrustpilotPage(page: FetchedPage): ScrapeError | null {
  if (SIGN_IN_PATH.test(page.url.pathname) || signInRedirect(page.text))
    return permanentError("login_required", "Trustpilot asks to sign in");
  if (hasNextData(page.text)) return null;
  // Challenge and consent pages are small: their markers are looked for in the page's head only.
  const head = page.text.slice(0, MARKER_SLICE);
  if (CHALLENGE.test(head))
    return transientError("blocked", "Trustpilot answered with a bot check (captcha) instead of the page");
  if (CONSENT.test(head))
    return permanentError("blocked", "Trustpilot answered with a consent page instead of the page");
  return null;
}

/** How much of a page the block markers are looked for in. */
const MARKER_SLICE = 256 * 1024;

/** Next.js's sign-in redirect in the page data: found with indexOf, tested on a short slice. */
function signInRedirect(text: string): boolean {
  const at = text.indexOf('"__N_REDIRECT"');
  return at >= 0 && SIGN_IN_REDIRECT.test(text.slice(at, at + 80));
}

/**
 * Reviews from the profile page's own data (`__NEXT_DATA__` → `props.pageProps.reviews`), one
 * `?page=N` after another, all languages, newest first, up to the page count the page states.
 */
export const trustpilotAdapter: Adapter<TrustpilotCursor> = {
  cursor: TrustpilotCursorSchema,

  async start(profileUrl) {
    return { profileUrl, cursor: { profileUrl, page: 1 } };
  },

  async page(cursor, ctx): Promise<AdapterPage<TrustpilotCursor>> {
    let fetched: FetchedPage;
    try {
      fetched = await ctx.client.request(reviewPageUrl(cursor.profileUrl, cursor.page, ctx.sort));
    } catch (err) {
      // Trustpilot lets anonymous visitors read only the first pages of a long list. The reviews
      // read so far are kept rather than thrown away; login cookies let the walk go further.
      if (cursor.page > 1 && err instanceof ScrapeError && err.reason === "login_required") {
        log("warn", "trustpilot asks to sign in; the walk ends early", {
          profile_url: cursor.profileUrl,
          page: cursor.page,
          last_page_read: cursor.page - 1,
        });
        return {
          pageUrl: reviewPageUrl(cursor.profileUrl, cursor.page, ctx.sort),
          reviews: [],
          next: null,
          limitedView: `Trustpilot asks to sign in before page ${cursor.page}; login cookies let the walk go further`,
        };
      }
      throw err;
    }
    const data = await parseReviewPage(fetched.text);
    if (data.reviews.length === 0 && (data.totalCount ?? 0) > 0 && cursor.page <= data.totalPages) {
      throw permanentError(
        "publisher_error",
        `Trustpilot review page ${cursor.page} of ${data.totalPages} lists no reviews though the profile has ${data.totalCount}`,
      );
    }
    if (data.currentPage !== cursor.page) {
      throw permanentError(
        "publisher_error",
        `Trustpilot served page ${data.currentPage} when page ${cursor.page} was asked for`,
      );
    }
    const profileUrl = cursor.page === 1 ? profileOf(fetched.url) : cursor.profileUrl;
    const next = cursor.page < data.totalPages ? { profileUrl, page: cursor.page + 1 } : null;
    return {
      pageUrl: fetched.url.toString(),
      reviews: data.reviews,
      next,
      profileUrl,
      publisherTotal: data.totalCount,
      summary: data.summary,
    };
  },

  inspect: inspectTrustpilotPage,
};
