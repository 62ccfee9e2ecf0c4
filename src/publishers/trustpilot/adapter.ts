import { z } from "zod";
import { log } from "../../log";
import { permanentError, ScrapeError, transientError } from "../../scraping/errors";
import type { FetchedPage } from "../../scraping/client";
import type { RawReview } from "../../core/reviews";
import type { Adapter, AdapterPage, ScrapeContext } from "../types";
import type { ReviewSort } from "../../core/tasks/collection";
import { hasNextData } from "./next-data";
import { parseReviewPage, type ReviewPage, type ReviewPagination } from "./reviews";

/** Reviews per star rating, index 0 = 1 star. */
const StarCounts = z.array(z.number().int().nonnegative()).length(5);

/**
 * Where the walk is: the profile (canonical, after redirects) and the page number to read. The
 * newest-first list (`stars` unset) carries what it has read so far (`seen`, `boundary`) and the
 * profile's counts per star (`ratings`, `perPage`), so that past Trustpilot's signed-out cap the walk
 * can go on list by list per star rating (`stars` set), reading only what the first list did not.
 */
export const TrustpilotCursorSchema = z.object({
  profileUrl: z.url(),
  page: z.number().int().positive(),
  stars: z.number().int().min(1).max(5).optional(),
  seen: StarCounts.optional(),
  ratings: StarCounts.nullish(),
  perPage: z.number().int().positive().optional(),
  /** The oldest review the newest-first list read: its date and the ids published at that moment. */
  boundary: z.object({ at: z.number(), ids: z.array(z.string().max(100)).max(100) }).optional(),
  /** Star ratings whose list is longer than the cap: their older reviews cannot be reached. */
  capped: z.array(z.number().int().min(1).max(5)).max(5).optional(),
});
export type TrustpilotCursor = z.infer<typeof TrustpilotCursorSchema>;

/**
 * Trustpilot serves a signed-out visitor the first ten pages of any one list (browser-use/
 * browser-harness `trustpilot/scraping.md`, field-tested 2026-04-18): page 11 and later come with an
 * empty `reviews` and no `filters.pagination`. The cap is per filter combination, so each star rating
 * is a list of its own with its own ten pages.
 */
export const PAGE_CAP = 10;
/** Trustpilot's page size, used when a page does not state its own. */
const PER_PAGE = 20;
/** The star lists are read from five stars down. */
const STARS = [5, 4, 3, 2, 1] as const;

/**
 * The URL of one page of a profile's list: every language (a country site otherwise shows only
 * reviews in its own language) and newest first (the default order is "most relevant"), optionally
 * only the reviews of one star rating.
 */
/**
 * The orders besides newest first (`sort=recency`): "most relevant" is Trustpilot's default order,
 * asked for by leaving `sort` out. Trustpilot has no rating order (only a star filter).
 */
export const TRUSTPILOT_SORTS = { relevant: "" } as const;

export function reviewPageUrl(profileUrl: string, page: number, stars?: number, sort?: ReviewSort): string {
  const url = new URL(profileUrl);
  url.search = "";
  url.hash = "";
  url.searchParams.set("languages", "all");
  const order = sort === "relevant" ? TRUSTPILOT_SORTS.relevant : "recency";
  if (order) url.searchParams.set("sort", order);
  if (stars !== undefined) url.searchParams.set("stars", String(stars));
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

/** Reads one page, or ends the walk with the pages read when Trustpilot asks to sign in for it. */
async function fetchPage(
  cursor: TrustpilotCursor,
  ctx: ScrapeContext,
): Promise<FetchedPage | AdapterPage<TrustpilotCursor>> {
  const url = reviewPageUrl(cursor.profileUrl, cursor.page, cursor.stars, ctx.sort);
  try {
    return await ctx.client.request(url);
  } catch (err) {
    // Trustpilot may ask anonymous visitors to sign in before a deeper page. The reviews read so far
    // are kept rather than thrown away; login cookies let the walk go further.
    if (cursor.page > 1 && err instanceof ScrapeError && err.reason === "login_required") {
      log("warn", "trustpilot asks to sign in; the walk ends early", {
        profile_url: cursor.profileUrl,
        page: cursor.page,
        last_page_read: cursor.page - 1,
      });
      return {
        pageUrl: url,
        reviews: [],
        next: null,
        limitedView: `Trustpilot asks to sign in before page ${cursor.page}; login cookies let the walk go further`,
      };
    }
    throw err;
  }
}

/** The checks every served page passes: its reviews are there when it says so, and it is the page asked for. */
function checkPage(cursor: TrustpilotCursor, data: ReviewPage, pagination: ReviewPagination): void {
  if (data.reviews.length === 0 && (data.totalCount ?? 0) > 0 && cursor.page <= pagination.totalPages) {
    throw permanentError(
      "publisher_error",
      `Trustpilot review page ${cursor.page} of ${pagination.totalPages} lists no reviews though the profile has ${data.totalCount}`,
    );
  }
  if (pagination.currentPage !== cursor.page) {
    throw permanentError(
      "publisher_error",
      `Trustpilot served page ${pagination.currentPage} when page ${cursor.page} was asked for`,
    );
  }
}

/** A page past the signed-out cap: no reviews and no pagination (any other page without pagination has changed). */
function pastCap(cursor: TrustpilotCursor, data: ReviewPage): boolean {
  if (data.pagination) return false;
  if (cursor.page > 1 && data.reviews.length === 0) return true;
  throw permanentError(
    "publisher_error",
    "Trustpilot review page: __NEXT_DATA__.props.pageProps.filters.pagination is missing",
  );
}

/** What the newest-first list has read after this page: per star rating, and its oldest review. */
function afterNewest(
  cursor: TrustpilotCursor,
  reviews: readonly RawReview[],
): Pick<TrustpilotCursor, "seen" | "boundary"> {
  const seen = [...(cursor.seen ?? [0, 0, 0, 0, 0])];
  let boundary = cursor.boundary;
  for (const review of reviews) {
    const stars = Number(review.rating?.value);
    if (Number.isInteger(stars) && stars >= 1 && stars <= 5) seen[stars - 1]++;
    const at = Date.parse(review.date ?? "");
    if (!Number.isFinite(at) || !review.id) continue;
    if (!boundary || at < boundary.at) boundary = { at, ids: [review.id] };
    else if (at === boundary.at && boundary.ids.length < 100)
      boundary = { at, ids: [...boundary.ids, review.id] };
  }
  return { seen, boundary };
}

/** A star list's review the newest-first list has not read: of that rating, and older than its oldest. */
function unread(cursor: TrustpilotCursor, review: RawReview): boolean {
  if (Number(review.rating?.value) !== cursor.stars) return false;
  const at = Date.parse(review.date ?? "");
  const { boundary } = cursor;
  if (!boundary || !Number.isFinite(at)) return true;
  return at < boundary.at || (at === boundary.at && !boundary.ids.includes(review.id ?? ""));
}

/** Where the walk past the cap goes next (null: it ends), and the star lists found longer than the cap. */
interface StarStep {
  next: TrustpilotCursor | null;
  capped: number[];
}

/**
 * The next star list worth reading after `after` (null: from five stars), starting at its first page
 * the newest-first list did not cover. A list the profile's counts show to be read already is
 * skipped; one of them longer than the cap is noted as capped.
 */
function nextStarList(cursor: TrustpilotCursor, after: number | null, capped: number[]): StarStep {
  const perPage = cursor.perPage ?? PER_PAGE;
  const seen = cursor.seen ?? [0, 0, 0, 0, 0];
  for (const stars of STARS) {
    if (after !== null && stars >= after) continue;
    const total = cursor.ratings?.[stars - 1];
    const reachable = total === undefined ? Infinity : Math.min(total, PAGE_CAP * perPage);
    if (reachable > seen[stars - 1]) {
      const page = Math.floor(seen[stars - 1] / perPage) + 1;
      return { next: { ...cursor, stars, page, capped }, capped };
    }
    if (total !== undefined && total > PAGE_CAP * perPage) capped = [...capped, stars];
  }
  return { next: null, capped };
}

/** coverage's stop reason while some star lists are longer than the cap. */
export function capReason(capped: readonly number[]): string | null {
  if (capped.length === 0) return null;
  const lists = capped.map((stars) => `${stars}-star`).join(", ");
  return (
    `anonymous page cap: Trustpilot shows a signed-out visitor only the first ${PAGE_CAP} pages of a list; ` +
    `past them each star rating was read as its own list, and the ${lists} list${capped.length > 1 ? "s go" : " goes"} ` +
    `further, so older reviews were not reached (login cookies lift the cap)`
  );
}

/** The page's `next` and `limitedView` for a step of the walk past the cap. */
function stepOf(step: StarStep): Pick<AdapterPage<TrustpilotCursor>, "next" | "limitedView"> {
  return { next: step.next, limitedView: capReason(step.capped) };
}

/** One page of the newest-first list (every rating). */
function newestPage(
  cursor: TrustpilotCursor,
  fetched: FetchedPage,
  data: ReviewPage,
): AdapterPage<TrustpilotCursor> {
  const profileUrl = cursor.page === 1 ? profileOf(fetched.url) : cursor.profileUrl;
  const base = { pageUrl: fetched.url.toString(), profileUrl };
  if (pastCap(cursor, data)) {
    log("info", "trustpilot page cap reached; reading one list per star rating", {
      profile_url: cursor.profileUrl,
      page: cursor.page,
    });
    return { ...base, reviews: [], ...stepOf(nextStarList(cursor, null, [])) };
  }
  const pagination = data.pagination!;
  checkPage(cursor, data, pagination);
  const state: TrustpilotCursor = {
    profileUrl,
    page: cursor.page + 1,
    ...afterNewest(cursor, data.reviews),
    ratings: data.ratings ?? cursor.ratings,
    perPage: pagination.perPage ?? cursor.perPage,
  };
  return {
    ...base,
    reviews: data.reviews,
    next: cursor.page < pagination.totalPages ? state : null,
    publisherTotal: data.totalCount,
    summary: data.summary,
  };
}

/** One page of a star rating's own list, past the cap: only what the newest-first list did not read. */
function starPage(
  cursor: TrustpilotCursor,
  fetched: FetchedPage,
  data: ReviewPage,
): AdapterPage<TrustpilotCursor> {
  const stars = cursor.stars!;
  const capped = cursor.capped ?? [];
  const pageUrl = fetched.url.toString();
  if (pastCap(cursor, data))
    return { pageUrl, reviews: [], ...stepOf(nextStarList(cursor, stars, [...capped, stars])) };
  const pagination = data.pagination!;
  checkPage(cursor, data, pagination);
  const reviews = data.reviews.filter((review) => unread(cursor, review));
  if (cursor.page >= pagination.totalPages)
    return { pageUrl, reviews, ...stepOf(nextStarList(cursor, stars, capped)) };
  // The cap is known by now: its page 11 is not asked for, the list is noted as longer than it.
  if (cursor.page >= PAGE_CAP)
    return { pageUrl, reviews, ...stepOf(nextStarList(cursor, stars, [...capped, stars])) };
  return { pageUrl, reviews, next: { ...cursor, page: cursor.page + 1 }, limitedView: capReason(capped) };
}

/**
 * Reviews from the profile page's own data (`__NEXT_DATA__` → `props.pageProps.reviews`), one
 * `?page=N` after another, all languages, newest first, up to the page count the page states. Past
 * the signed-out cap, one list per star rating (README "Page cap").
 */
export const trustpilotAdapter: Adapter<TrustpilotCursor> = {
  cursor: TrustpilotCursorSchema,

  async start(profileUrl) {
    return { profileUrl, cursor: { profileUrl, page: 1 } };
  },

  async page(cursor, ctx): Promise<AdapterPage<TrustpilotCursor>> {
    const fetched = await fetchPage(cursor, ctx);
    if (!("text" in fetched)) return fetched;
    const data = await parseReviewPage(fetched.text);
    return cursor.stars === undefined ? newestPage(cursor, fetched, data) : starPage(cursor, fetched, data);
  },

  inspect: inspectTrustpilotPage,
};
