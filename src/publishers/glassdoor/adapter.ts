import { z } from "zod";
import type { FetchedPage } from "../../scraping/client";
import { permanentError, type ScrapeError } from "../../scraping/errors";
import { hasLoginForm } from "../../scraping/response-status";
import type { Adapter, AdapterPage, ScrapeContext } from "../types";
import { WorkBudget } from "../kit/work-budget";
import {
  apolloCache,
  employerProfileId,
  pageToken,
  rawReview,
  reviewsResult,
  type ReviewsResult,
} from "./apollo";
import {
  EMPLOYER_REVIEWS_PATH,
  JSON_PAGE_SIZE,
  PAGE_SIZE,
  employerReviewsRequest,
  parseEmployerReviewsAnswer,
} from "./graph";
import { rscFirstPage } from "./rsc";

const Base = z.string().url();

/**
 * Where the walk is. Page 1 is the reviews page itself (`base`, the employer's reviews address
 * without page and suffix, 10 reviews); the rest comes from the JSON call, which needs the employer
 * id and, as current clients send it, the page's `profileId` of the employer. The JSON call is asked
 * for `pageSize` 50 from its page 1 on (its page N is reviews 50(N-1)+1 to 50N); the ten of its
 * page 1 that the reviews page showed already are dropped by review id like any repeat (the
 * pipeline stores a review once). Cursors stored before carry no `pageSize`: their pages are of 10,
 * from page 2 on, as they were. Page 1's `gdToken`, when it has one, is sent along as
 * `gd-csrf-token` (the page's own client does); it is the page's anti-forgery token, worth nothing
 * without the session cookies (which the task keeps encrypted), so it is kept in the cursor as it
 * is. The JSON variant comes first: it alone has `employerId`, so its page 1 is never read as the
 * reviews page's.
 */
export const GlassdoorCursorSchema = z.union([
  z.object({
    base: Base,
    page: z.number().int().min(1),
    employerId: z.number().int().positive(),
    pageSize: z.literal(JSON_PAGE_SIZE).optional(),
    profileId: z.number().int().positive().nullish(),
    token: z.string().min(1).max(1024).nullish(),
  }),
  z.object({ base: Base, page: z.literal(1) }),
]);
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
export function pageUrl({ base, page }: { base: string; page: number }): string {
  return `${base}${page > 1 ? `_P${page}` : ""}.htm?sort.sortType=RD&sort.ascending=false`;
}

/**
 * Glassdoor's walls come with status 200 or through redirects: its sign-in pages
 * (/profile/login…, /member/…) and the bot checks ("Help Us Protect Glassdoor", Cloudflare's
 * "Just a moment...").
 */
export function inspectGlassdoorPage(page: FetchedPage): ScrapeError | null {
  const path = page.url.pathname.toLowerCase();
  if (path.startsWith("/profile/login") || path.startsWith("/member/"))
    return permanentError("login_required", "Glassdoor answered with its sign-in page");
  if (botCheckTitle(page.text)) return permanentError("blocked", "Glassdoor answered with its bot check");
  return null;
}

const BOT_TITLES = ["help us protect glassdoor", "just a moment..."];

/** The page's first `<title>` is a bot check's: read from a short slice after `<title>`, no regex over the page. */
function botCheckTitle(html: string): boolean {
  const at = html.search(/<title>/i);
  if (at < 0) return false;
  const title = html
    .slice(at + 7, at + 7 + 80)
    .trimStart()
    .toLowerCase();
  return BOT_TITLES.some((t) => title.startsWith(t));
}

/** The employer id in a reviews address (`…-Reviews-E<id>`). */
function employerId(base: string): number {
  const id = /-E(\d+)$/.exec(base)?.[1];
  if (!id) throw permanentError("publisher_error", `Glassdoor: no employer id in ${base}`);
  return Number(id);
}

/** Reviews counted but none shown: the sign-in overlay hides them, or the layout changed. */
async function noneShown(result: ReviewsResult, html: string, where: string): Promise<void> {
  if (result.reviews.length > 0 || (result.allReviewsCount ?? 0) === 0) return;
  if (await hasLoginForm(html))
    throw permanentError("login_required", "Glassdoor hides the reviews behind its sign-in form");
  throw permanentError(
    "publisher_error",
    `${where}: no reviews shown for an employer with ${result.allReviewsCount}`,
  );
}

/** What page 1 gives: its reviews result, and what the JSON call of pages 2.. sends. */
interface FirstPageData {
  result: ReviewsResult;
  profileId: (id: number) => number | null;
  token: string | null;
}

/**
 * Page 1's data from either format the reviews page is served in: the classic Apollo cache
 * (`__NEXT_DATA__` or inline `apolloState`), else the App Router's RSC payload (`self.__next_f`).
 */
async function firstPageData(html: string, base: string): Promise<FirstPageData | null> {
  const cache = await apolloCache(html);
  if (cache) {
    return {
      result: reviewsResult(cache, new WorkBudget("Glassdoor page's Apollo cache")),
      profileId: (id) => employerProfileId(html, id),
      token: pageToken(html),
    };
  }
  const rsc = await rscFirstPage(html, employerId(base));
  return rsc && { result: rsc.result, profileId: () => rsc.profileId, token: rsc.token };
}

/** The first page: the reviews page's page data, and from the page what the JSON call needs. */
async function firstPage(
  cursor: { base: string },
  ctx: ScrapeContext,
): Promise<AdapterPage<GlassdoorCursor>> {
  const page = await ctx.client.request(pageUrl({ base: cursor.base, page: 1 }));
  const data = await firstPageData(page.text, cursor.base);
  if (!data) {
    if (await hasLoginForm(page.text))
      throw permanentError("login_required", "Glassdoor shows a sign-in form instead of reviews");
    throw permanentError(
      "publisher_error",
      "Glassdoor page: no page data (__NEXT_DATA__ apolloCache, apolloState, or an RSC payload with employerReviews)",
    );
  }
  const { result } = data;
  await noneShown(result, page.text, "Glassdoor page");
  const reviews = result.reviews.map((review, index) => rawReview(review, index));
  const url = page.url.toString();
  let next: GlassdoorCursor | null = null;
  if (result.currentPage < result.numberOfPages) {
    const id = employerId(cursor.base);
    // Neither is required: the JSON call is tried without them rather than dropping this page's reviews.
    // Its page 1 of 50 holds this page's ten again: they are dropped as repeats, and 40 are new.
    next = {
      base: cursor.base,
      page: 1,
      pageSize: JSON_PAGE_SIZE,
      employerId: id,
      profileId: data.profileId(id),
      token: data.token,
    };
  }
  return { pageUrl: url, reviews, next, profileUrl: url, publisherTotal: result.allReviewsCount };
}

/** Pages 2..: the employer-reviews JSON call, with the headers Glassdoor's own client sends. */
async function jsonPage(
  cursor: Extract<GlassdoorCursor, { employerId: number }>,
  ctx: ScrapeContext,
): Promise<AdapterPage<GlassdoorCursor>> {
  const referer = pageUrl({ base: cursor.base, page: 1 });
  const { data } = await ctx.client.json(new URL(EMPLOYER_REVIEWS_PATH, "https://www.glassdoor.com"), {
    method: "POST",
    json: employerReviewsRequest(cursor),
    headers: {
      ...(cursor.token ? { "gd-csrf-token": cursor.token } : {}),
      Origin: "https://www.glassdoor.com",
      Referer: referer,
    },
  });
  const pageSize = cursor.pageSize ?? PAGE_SIZE;
  const result = parseEmployerReviewsAnswer(data, cursor.page, pageSize);
  // Another page than asked for (Glassdoor clamps a page past the end) would walk in circles.
  if (result.currentPage !== cursor.page)
    throw permanentError(
      "publisher_error",
      `Glassdoor JSON call: asked for page ${cursor.page}, answered page ${result.currentPage}`,
    );
  if (result.reviews.length === 0 && (result.allReviewsCount ?? 0) > 0)
    throw permanentError(
      "publisher_error",
      `Glassdoor JSON call: no reviews on page ${cursor.page} for an employer with ${result.allReviewsCount}`,
    );
  const reviews = result.reviews.map((review, index) => rawReview(review, index, "Glassdoor JSON call"));
  const next = cursor.page < result.numberOfPages ? { ...cursor, page: cursor.page + 1 } : null;
  return { pageUrl: referer, reviews, next, publisherTotal: result.allReviewsCount };
}

/**
 * glassdoor.com: employer reviews, newest first. Page 1 is read from the Apollo cache of the reviews
 * page (`/Reviews/<Name>-Reviews-E<id>.htm`), which also gives what the JSON call sends; the rest
 * comes from that call (`POST /bff/employer-profile-mono/employer-reviews`), 50 a page, as current
 * clients load them.
 */
export const glassdoorAdapter: Adapter<GlassdoorCursor> = {
  cursor: GlassdoorCursorSchema,

  async start(profileUrl) {
    const base = reviewsBase(new URL(profileUrl));
    if (!base) throw permanentError("profile_not_found", "Not a Glassdoor employer reviews URL");
    return { profileUrl: pageUrl({ base, page: 1 }), cursor: { base, page: 1 } };
  },

  page(cursor, ctx): Promise<AdapterPage<GlassdoorCursor>> {
    return "employerId" in cursor ? jsonPage(cursor, ctx) : firstPage(cursor, ctx);
  },

  inspect: inspectGlassdoorPage,
};
