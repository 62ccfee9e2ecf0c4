import { z } from "zod";
import { permanentError } from "../../scraping/errors";
import type { FetchedPage } from "../../scraping/client";
import { elementAttributes, valueAfter } from "../kit/html-scan";
import type { Adapter, AdapterPage } from "../types";
import { parseReviewListResponse, reviewListRequest, toRawReview, type HotelIds } from "./reviews";
import { hotelPage } from "./urls";

export const BookingCursorSchema = z.object({
  profileUrl: z.string().url(),
  hotelId: z.number().int().positive(),
  ufi: z.number().int(),
  countryCode: z.string().regex(/^[a-z]{2}$/),
  skip: z.number().int().nonnegative(),
  /**
   * The hotel page's `b_csrf_token`, sent as `x-booking-csrf-token` as public scrapers do "to avoid
   * being blocked". An anti-forgery token of the page's session, worthless without its cookies, so
   * kept as it is; absent in cursors stored before it was read.
   */
  csrfToken: z.string().min(1).max(1024).nullish(),
});
export type BookingCursor = z.infer<typeof BookingCursorSchema>;

/**
 * Booking's bot shield (AWS WAF) answers with a challenge page, often with status 202, that loads
 * its challenge script and sets `window.gokuProps`. Literal markers only (`indexOf`): no pattern
 * scans the page from each of its openings.
 */
function isWafChallenge(text: string): boolean {
  if (text.includes("AwsWafIntegration") || /window\.gokuProps\s{0,8}=/.test(text)) return true;
  let from = 0;
  for (let hit = 0; hit < 20; hit++) {
    const at = text.indexOf("awswaf.com/", from);
    if (at < 0) return false;
    from = at + 11;
    const rest = text.slice(from, from + 300);
    const end = rest.search(/["']/);
    if ((end < 0 ? rest : rest.slice(0, end)).includes("challenge.js")) return true;
  }
  return false;
}

const INTEGER = /^-?\d{1,15}$/;

/**
 * The ids the review list needs, read from the hotel page: its hidden form inputs (`hotel_id`,
 * `dest_id`), else the inline `b_hotel_id` / `b_ufi` values of its page settings script, which
 * public scrapers read (scrapfly-scrapers bookingcom.py, 2026-05). publisher_error naming what is missing.
 */
export async function hotelIds(html: string, countryCode: string): Promise<HotelIds> {
  const inputs = await elementAttributes(html, "input[name]", ["name", "value"]);
  const input = (name: string) =>
    inputs.find((i) => i.name === name && INTEGER.test(i.value?.trim() ?? ""))?.value?.trim() ?? null;
  const inline = (name: string) => {
    const value = valueAfter(html, name, { maxLength: 20, bare: /[-\d]/ });
    return value && INTEGER.test(value) ? value : null;
  };
  const hotelId = input("hotel_id") ?? inline("b_hotel_id");
  if (!hotelId || Number(hotelId) <= 0)
    throw permanentError("publisher_error", "Booking hotel page: no hotel_id input nor b_hotel_id");
  const ufi = input("dest_id") ?? inline("b_ufi");
  if (!ufi) throw permanentError("publisher_error", "Booking hotel page: no dest_id (ufi) input nor b_ufi");
  return { hotelId: Number(hotelId), ufi: Number(ufi), countryCode };
}

/** The page's `b_csrf_token: '…'`, or null. */
export function csrfToken(html: string): string | null {
  return valueAfter(html, "b_csrf_token", { maxLength: 1024, bare: /$^/ });
}

/**
 * booking.com hotels: the hotel page is read once for its ids (hotel_id, dest_id), its CSRF token
 * and canonical address; reviews then come from the ReviewList query its reviews panel runs, 10 at a time, newest
 * first, walking `skip` until `reviewsCount`.
 */
export const bookingAdapter: Adapter<BookingCursor> = {
  cursor: BookingCursorSchema,

  async start(profileUrl, ctx) {
    const page = await ctx.client.request(profileUrl);
    const hotel = hotelPage(page.url);
    if (!hotel)
      throw permanentError(
        "profile_not_found",
        `Booking sent the profile to ${page.url.pathname}, which is not a hotel page`,
      );
    const ids = await hotelIds(page.text, hotel.countryCode);
    return {
      profileUrl: hotel.url,
      cursor: { profileUrl: hotel.url, ...ids, skip: 0, csrfToken: csrfToken(page.text) },
    };
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
        ...(cursor.csrfToken ? { "x-booking-csrf-token": cursor.csrfToken } : {}),
      },
    });
    const list = parseReviewListResponse(data);
    if (list.cards.length === 0 && cursor.skip < list.reviewsCount) {
      throw permanentError(
        "publisher_error",
        `Booking review list: no reviews at skip ${cursor.skip} although reviewsCount is ${list.reviewsCount}`,
      );
    }
    const skip = cursor.skip + list.cards.length;
    return {
      pageUrl: cursor.profileUrl,
      reviews: list.cards.map(toRawReview),
      next: list.cards.length > 0 && skip < list.reviewsCount ? { ...cursor, skip } : null,
      pageLanguage: null,
      publisherTotal: list.reviewsCount,
    };
  },

  inspect(page: FetchedPage) {
    return isWafChallenge(page.text)
      ? permanentError("blocked", "Booking answered with a bot challenge page (AWS WAF)")
      : null;
  },
};
