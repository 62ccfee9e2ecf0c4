import { z } from "zod";
import { permanentError } from "../../scraping/errors";
import type { FetchedPage } from "../../scraping/client";
import type { Adapter, AdapterPage } from "../types";
import { parseReviewListResponse, reviewListRequest, toRawReview } from "./reviews";
import { locationPage, reviewPageUrl } from "./urls";

/** Where the walk stands: the profile page (referer and review links), its location id and the next offset. */
export const TripadvisorCursorSchema = z.object({
  profileUrl: z.string().url(),
  locationId: z.number().int().positive(),
  offset: z.number().int().nonnegative(),
});
export type TripadvisorCursor = z.infer<typeof TripadvisorCursorSchema>;

/**
 * DataDome, Tripadvisor's bot shield, answers with its captcha page (a script or iframe from
 * captcha-delivery.com) or, to XHR, with JSON pointing there (`{"url": "https://geo.captcha-delivery.com/captcha/?…"}`).
 * Ordinary pages load DataDome's own tag (js.datadome.co) too, so only the captcha host counts.
 */
const DATADOME_CAPTCHA = /(?:src|url)["']?\s*[:=]\s*["']https?:\/\/[\w.-]*captcha-delivery\.com\//i;

/** A random client token. The site's GraphQL endpoint refuses requests without one (X-Requested-By, TAUnique). */
function clientToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * tripadvisor.com (and its country sites): the location page is opened once to follow redirects to
 * its canonical address and to see that it exists; reviews then come from the review list query the
 * page itself runs, 20 at a time, newest first, walking `offset` until `totalCount`.
 */
export const tripadvisorAdapter: Adapter<TripadvisorCursor> = {
  cursor: TripadvisorCursorSchema,

  async start(profileUrl, ctx) {
    const page = await ctx.client.request(profileUrl);
    const location = locationPage(page.url);
    if (!location) throw permanentError("profile_not_found", `Tripadvisor sent the profile to ${page.url.pathname}, which is not a location page`);
    return { profileUrl: location.url, cursor: { profileUrl: location.url, locationId: location.locationId, offset: 0 } };
  },

  async page(cursor, ctx): Promise<AdapterPage<TripadvisorCursor>> {
    const profile = new URL(cursor.profileUrl);
    const token = clientToken();
    const { data } = await ctx.client.json(new URL("/data/graphql/ids", profile.origin), {
      method: "POST",
      json: reviewListRequest(cursor.locationId, cursor.offset),
      headers: { Origin: profile.origin, Referer: cursor.profileUrl, "X-Requested-By": token, Cookie: `TAUnique=${token}` },
    });
    const list = parseReviewListResponse(data);
    if (list.reviews.length === 0 && cursor.offset < list.totalCount) {
      // A location that says it has reviews but lists none here is a page we no longer understand.
      throw permanentError("publisher_error", `Tripadvisor review list: no reviews at offset ${cursor.offset} although totalCount is ${list.totalCount}`);
    }
    const nextOffset = cursor.offset + list.reviews.length;
    return {
      pageUrl: reviewPageUrl(cursor.profileUrl, cursor.offset),
      reviews: list.reviews.map((review) => toRawReview(review, profile.origin)),
      next: list.reviews.length > 0 && nextOffset < list.totalCount ? { ...cursor, offset: nextOffset } : null,
      pageLanguage: null,
    };
  },

  inspect(page: FetchedPage) {
    return DATADOME_CAPTCHA.test(page.text) ? permanentError("blocked", "Tripadvisor answered with a DataDome captcha page") : null;
  },
};
