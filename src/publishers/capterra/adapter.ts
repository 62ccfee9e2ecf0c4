import { z } from "zod";
import type { PageInspector } from "../../scraping/client";
import { permanentError, transientError } from "../../scraping/errors";
import type { Adapter, AdapterPage } from "../types";
import { productIdOf, reviewsPageUrl, slugOf } from "./profile";
import { parseReviews, reviewsUrl } from "./reviews";

export const CapterraCursorSchema = z.object({
  productId: z.string().regex(/^\d{1,12}$/),
  /** The canonical reviews page (where a review links to). */
  pageUrl: z.string().url(),
  offset: z.number().int().min(0),
});
export type CapterraCursor = z.infer<typeof CapterraCursorSchema>;

/**
 * Capterra sits behind bot protection: its challenge pages (Cloudflare's "Just a moment...",
 * PerimeterX's px-captcha "Access to this page has been denied") come with 403 or 200, and an HTML
 * page where the JSON endpoint should answer is such a wall too. All are `blocked`, retried later.
 */
const inspectCapterraPage: PageInspector = (page) => {
  const head = page.text.slice(0, 20_000);
  if (
    /<title>\s*Just a moment\.\.\./i.test(head) ||
    /px-captcha|Access to this page has been denied/i.test(head)
  ) {
    return transientError("blocked", "Capterra answered with its bot check");
  }
  if (page.url.pathname.startsWith("/spotlight/rest/") && page.text.trimStart().startsWith("<")) {
    return transientError("blocked", "Capterra answered its reviews endpoint with an HTML page");
  }
  return null;
};

/**
 * capterra.com: the product page is opened once (an unknown product is a 404 there, and its
 * redirect gives the canonical reviews URL), then the reviews come from the JSON endpoint the page
 * loads them from, newest first, 25 at a time by offset.
 */
export const capterraAdapter: Adapter<CapterraCursor> = {
  cursor: CapterraCursorSchema,
  inspect: inspectCapterraPage,

  async start(profileUrl, ctx) {
    const given = new URL(profileUrl);
    const productId = productIdOf(given);
    if (!productId) throw permanentError("profile_not_found", "The profile URL names no Capterra product");
    const page = await ctx.client.request(profileUrl);
    // The product page redirects to its canonical `/p/<id>/<Slug>/` form; keep that slug.
    const finalId = productIdOf(page.url);
    if (finalId !== productId)
      throw permanentError("profile_not_found", `Capterra sent product ${productId} to ${page.url.pathname}`);
    const pageUrl = reviewsPageUrl(productId, slugOf(page.url) ?? slugOf(given));
    return { profileUrl: pageUrl, cursor: { productId, pageUrl, offset: 0 } };
  },

  async page(cursor, ctx): Promise<AdapterPage<CapterraCursor>> {
    const { data } = await ctx.client.json(reviewsUrl(cursor.productId, cursor.offset), {
      headers: { Referer: cursor.pageUrl },
    });
    const page = parseReviews(data, cursor.offset, cursor.pageUrl);
    return {
      pageUrl: cursor.pageUrl,
      reviews: page.reviews,
      next: page.nextOffset === null ? null : { ...cursor, offset: page.nextOffset },
      profileUrl: cursor.pageUrl,
      publisherTotal: page.total,
    };
  },
};
