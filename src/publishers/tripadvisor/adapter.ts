import { z } from "zod";
import { permanentError } from "../../scraping/errors";
import type { FetchedPage } from "../../scraping/client";
import type { Adapter, AdapterPage, ScrapeContext } from "../types";
import { cardReview, readReviewCards } from "./cards";
import {
  parseReviewListResponse,
  persistedQueryRefused,
  refusedReviewList,
  REVIEWS_PER_PAGE,
  reviewListRequest,
  toRawReview,
} from "./reviews";
import { locationPage, reviewPageUrl } from "./urls";

/**
 * Where the walk stands: the profile page (referer and review links), its location id, the next
 * offset, and past the first page the review count the first page stated and the ids of the page
 * before (a page repeating them means the offset was ignored, which must not pass for the end).
 */
export const TripadvisorCursorSchema = z.object({
  profileUrl: z.string().url(),
  locationId: z.number().int().positive(),
  offset: z.number().int().nonnegative(),
  total: z.number().int().nonnegative().optional(),
  previousIds: z.array(z.string().max(32)).max(REVIEWS_PER_PAGE).optional(),
});
export type TripadvisorCursor = z.infer<typeof TripadvisorCursorSchema>;

/**
 * DataDome, Tripadvisor's bot shield, answers with its captcha page (a script or iframe from
 * captcha-delivery.com) or, to XHR, with JSON pointing there (`{"url": "https://geo.captcha-delivery.com/captcha/?…"}`).
 * Ordinary pages load DataDome's own tag (js.datadome.co) too, so only the captcha host counts.
 */
const DATADOME_CAPTCHA = /(?:src|url)["']?\s*[:=]\s*["']https?:\/\/[\w.-]*captcha-delivery\.com\//i;

/** A random client token, for a session the location page issued none to. */
function clientToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The review list's session headers. The GraphQL endpoint refuses a request without a client token
 * (`X-Requested-By` and the `TAUnique` cookie) and distrusts one without the location page's session,
 * so the walk opens the page first (`start`): its cookies are in the client's jar and go with the
 * call, and the `TAUnique` it issued is the token. Only when it issued none is a random one sent.
 */
function sessionHeaders(ctx: ScrapeContext, profile: URL): Record<string, string> {
  const host = profile.hostname;
  const issued = ctx.client
    .jarSnapshot()
    .find((c) => c.name === "TAUnique" && (host === c.domain || host.endsWith(`.${c.domain}`)))?.value;
  if (issued) return { "X-Requested-By": issued };
  const token = clientToken();
  return { "X-Requested-By": token, Cookie: `TAUnique=${token}` };
}

/**
 * tripadvisor.com (and its country sites): the location page is opened once to follow redirects to
 * its canonical address, to see that it exists and to take the session it issues (cookies,
 * TAUnique). The newest reviews (up to 20, with their ids, languages, replies and months of stay)
 * come from the review list query the page itself runs; that
 * query ignores its offset (2026 evidence), so the rest come from the location's `-or<offset>-`
 * review pages, ten cards a page, until the count the first answer stated.
 */
export const tripadvisorAdapter: Adapter<TripadvisorCursor> = {
  cursor: TripadvisorCursorSchema,

  async start(profileUrl, ctx) {
    const page = await ctx.client.request(profileUrl);
    const location = locationPage(page.url);
    if (!location)
      throw permanentError(
        "profile_not_found",
        `Tripadvisor sent the profile to ${page.url.pathname}, which is not a location page`,
      );
    return {
      profileUrl: location.url,
      cursor: { profileUrl: location.url, locationId: location.locationId, offset: 0 },
    };
  },

  async page(cursor, ctx): Promise<AdapterPage<TripadvisorCursor>> {
    return cursor.offset === 0 ? firstPage(cursor, ctx) : reviewPage(cursor, ctx);
  },

  inspect(page: FetchedPage) {
    // A distrusted session's review list answer: blocked here, so the next route is tried at once.
    if (page.url.pathname === "/data/graphql/ids" && refusedReviewList(page.text))
      return persistedQueryRefused();
    // DataDome's captcha page and XHR answer are small: look in the head only (no regex over the whole page).
    return DATADOME_CAPTCHA.test(page.text.slice(0, 64 * 1024))
      ? permanentError("blocked", "Tripadvisor answered with a DataDome captcha page")
      : null;
  },
};

/** The newest reviews from the review list query, and the count the walk goes to. */
async function firstPage(
  cursor: TripadvisorCursor,
  ctx: ScrapeContext,
): Promise<AdapterPage<TripadvisorCursor>> {
  const profile = new URL(cursor.profileUrl);
  const { data } = await ctx.client.json(new URL("/data/graphql/ids", profile.origin), {
    method: "POST",
    json: reviewListRequest(cursor.locationId, 0),
    headers: { Origin: profile.origin, Referer: cursor.profileUrl, ...sessionHeaders(ctx, profile) },
  });
  const list = parseReviewListResponse(data);
  if (list.reviews.length === 0 && list.totalCount > 0) {
    // A location that says it has reviews but lists none here is a page we no longer understand.
    throw permanentError(
      "publisher_error",
      `Tripadvisor review list: no reviews although totalCount is ${list.totalCount}`,
    );
  }
  const reviews = list.reviews.map((review) => toRawReview(review, profile.origin));
  const more = list.reviews.length < list.totalCount;
  return {
    pageUrl: cursor.profileUrl,
    reviews,
    next: more
      ? {
          ...cursor,
          offset: list.reviews.length,
          total: list.totalCount,
          previousIds: reviews.map((r) => r.id ?? ""),
        }
      : null,
    pageLanguage: null,
    publisherTotal: list.totalCount,
  };
}

/** Ten reviews from the location's `-or<offset>-` page. */
async function reviewPage(
  cursor: TripadvisorCursor,
  ctx: ScrapeContext,
): Promise<AdapterPage<TripadvisorCursor>> {
  const origin = new URL(cursor.profileUrl).origin;
  const url = reviewPageUrl(cursor.profileUrl, cursor.offset);
  const page = await ctx.client.request(url);
  const cards = await readReviewCards(page.text);
  const total = cursor.total ?? 0;
  if (cards.length === 0) {
    if (cursor.offset < total)
      throw permanentError(
        "publisher_error",
        `Tripadvisor review page -or${cursor.offset}-: no review cards although the location has ${total} reviews`,
      );
    return { pageUrl: url, reviews: [], next: null };
  }
  const reviews = cards.map((card, index) => cardReview(card, index, origin, cursor.profileUrl));
  const previous = new Set(cursor.previousIds ?? []);
  if (reviews.every((review) => previous.has(review.id ?? ""))) {
    throw permanentError(
      "publisher_error",
      `Tripadvisor review page -or${cursor.offset}- repeats the reviews of the page before: the offset was not honoured`,
    );
  }
  const end = cursor.offset + cards.length;
  return {
    pageUrl: url,
    reviews,
    next:
      end < total
        ? { ...cursor, offset: end, previousIds: reviews.map((r) => r.id ?? "").slice(0, REVIEWS_PER_PAGE) }
        : null,
    pageLanguage: null,
  };
}
