import { z } from "zod";
import { permanentError, transientError } from "../../scraping/errors";
import type { PageInspector } from "../../scraping/client";
import type { Adapter, AdapterPage } from "../types";
import { parseReviews, reviewsUrl, WEB_API_KEY } from "./feed";
import { listingIdOf, listingUrl } from "./profile";

export const AirbnbCursorSchema = z.object({
  listingId: z.string().regex(/^\d+$/),
  offset: z.number().int().min(0),
});
export type AirbnbCursor = z.infer<typeof AirbnbCursorSchema>;

/**
 * A sign-in redirect is login_required; an HTML page where the JSON API should answer (a captcha or
 * bot wall, served with 200) is blocked and retried later.
 */
const inspectAirbnbPage: PageInspector = (page) => {
  if (/^\/login(?:\/|$)/.test(page.url.pathname))
    return permanentError("login_required", "Airbnb sent us to its sign-in page");
  const body = page.text.trimStart();
  if (page.url.pathname.startsWith("/api/") && body.startsWith("<"))
    return transientError("blocked", "Airbnb answered its API with an HTML page (captcha or bot wall)");
  return null;
};

/**
 * airbnb.com: the listing id comes from the profile URL; reviews from `StaysPdpReviewsQuery`, newest
 * first, REVIEWS_PER_PAGE at a time, paged by offset. No page load and no login are needed.
 */
export const airbnbAdapter: Adapter<AirbnbCursor> = {
  cursor: AirbnbCursorSchema,
  inspect: inspectAirbnbPage,

  async start(profileUrl) {
    const listingId = listingIdOf(new URL(profileUrl));
    if (!listingId) throw permanentError("profile_not_found", "The profile URL names no Airbnb listing");
    return { profileUrl: listingUrl(listingId), cursor: { listingId, offset: 0 } };
  },

  async page(cursor, ctx): Promise<AdapterPage<AirbnbCursor>> {
    const profileUrl = listingUrl(cursor.listingId);
    const { data } = await ctx.client.json(reviewsUrl(cursor.listingId, cursor.offset), {
      headers: { "X-Airbnb-Api-Key": WEB_API_KEY, Referer: profileUrl },
    });
    const page = parseReviews(data, cursor.offset);
    return {
      pageUrl: `${profileUrl}/reviews`,
      reviews: page.reviews,
      next: page.nextOffset === null ? null : { ...cursor, offset: page.nextOffset },
      profileUrl,
      publisherTotal: page.total,
    };
  },
};
