import { z } from "zod";
import { permanentError } from "../../scraping/errors";
import type { FetchedPage } from "../../scraping/client";
import type { Adapter, AdapterPage } from "../types";
import { parseReviewListResponse, reviewListRequest, toRawReview, type HotelIds } from "./reviews";
import { hotelPage } from "./urls";

export const BookingCursorSchema = z.object({
  profileUrl: z.string().url(),
  hotelId: z.number().int().positive(),
  ufi: z.number().int(),
  countryCode: z.string().regex(/^[a-z]{2}$/),
  skip: z.number().int().nonnegative(),
});
export type BookingCursor = z.infer<typeof BookingCursorSchema>;

/**
 * Booking's bot shield (AWS WAF) answers with a challenge page, often with status 202, that loads
 * its challenge script and sets `window.gokuProps`.
 */
const WAF_CHALLENGE = /window\.gokuProps\s*=|awswaf\.com\/[^"']*challenge\.js|AwsWafIntegration/;

/** `<input type="hidden" name="hotel_id" value="…">` and its kin on the hotel page. */
function hiddenInput(html: string, name: string): string | null {
  const tag = new RegExp(`<input\\b[^>]*\\bname=["']${name}["'][^>]*>`, "i").exec(html)?.[0];
  return tag ? (/\bvalue=["'](-?\d+)["']/i.exec(tag)?.[1] ?? null) : null;
}

/** The ids the review list needs, read from the hotel page; publisher_error naming what is missing. */
export function hotelIds(html: string, countryCode: string): HotelIds {
  const hotelId = hiddenInput(html, "hotel_id");
  if (!hotelId) throw permanentError("publisher_error", "Booking hotel page: no hotel_id input");
  const ufi = hiddenInput(html, "dest_id");
  if (!ufi) throw permanentError("publisher_error", "Booking hotel page: no dest_id (ufi) input");
  return { hotelId: Number(hotelId), ufi: Number(ufi), countryCode };
}

/**
 * booking.com hotels: the hotel page is read once for its ids (hotel_id, dest_id) and canonical
 * address; reviews then come from the ReviewList query its reviews panel runs, 10 at a time, newest
 * first, walking `skip` until `reviewsCount`.
 */
export const bookingAdapter: Adapter<BookingCursor> = {
  cursor: BookingCursorSchema,

  async start(profileUrl, ctx) {
    const page = await ctx.client.request(profileUrl);
    const hotel = hotelPage(page.url);
    if (!hotel) throw permanentError("profile_not_found", `Booking sent the profile to ${page.url.pathname}, which is not a hotel page`);
    const ids = hotelIds(page.text, hotel.countryCode);
    return { profileUrl: hotel.url, cursor: { profileUrl: hotel.url, ...ids, skip: 0 } };
  },

  async page(cursor, ctx): Promise<AdapterPage<BookingCursor>> {
    const profile = new URL(cursor.profileUrl);
    const endpoint = new URL("/dml/graphql", profile.origin);
    endpoint.searchParams.set("lang", "en-gb");
    const { data } = await ctx.client.json(endpoint, {
      method: "POST",
      json: reviewListRequest(cursor, cursor.skip),
      // The headers the hotel page's own client sends; Booking's gateway routes on them.
      headers: {
        Origin: profile.origin,
        Referer: cursor.profileUrl,
        "apollographql-client-name": "b-property-web-property-page",
        "x-booking-context-action-name": "hotel",
        "x-booking-site-type-id": "1",
      },
    });
    const list = parseReviewListResponse(data);
    if (list.cards.length === 0 && cursor.skip < list.reviewsCount) {
      throw permanentError("publisher_error", `Booking review list: no reviews at skip ${cursor.skip} although reviewsCount is ${list.reviewsCount}`);
    }
    const skip = cursor.skip + list.cards.length;
    return {
      pageUrl: cursor.profileUrl,
      reviews: list.cards.map(toRawReview),
      next: list.cards.length > 0 && skip < list.reviewsCount ? { ...cursor, skip } : null,
      pageLanguage: null,
    };
  },

  inspect(page: FetchedPage) {
    return WAF_CHALLENGE.test(page.text) ? permanentError("blocked", "Booking answered with a bot challenge page (AWS WAF)") : null;
  },
};
