import { z } from "zod";
import type { FetchedPage } from "../../scraping/client";
import { permanentError, type ScrapeError } from "../../scraping/errors";
import { hasLoginForm } from "../../scraping/response-status";
import type { Adapter, AdapterPage } from "../types";
import { cardReview, readG2Page } from "./cards";

/** Where the walk is: the product's slug and the page number. */
export const G2CursorSchema = z.object({
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  page: z.number().int().positive(),
  /** Reviews read on the pages before this one (the 2026 layout has no next link: the count says when to stop). */
  read: z.number().int().nonnegative().default(0),
});
export type G2Cursor = z.input<typeof G2CursorSchema>;

const SLUG = /^[a-z0-9][a-z0-9-]{0,127}$/;
const PRODUCT_PATH = /^\/products\/([a-z0-9][a-z0-9-]{0,127})(?:\/.*)?$/i;

/** The product slug of a G2 product URL (`/products/<slug>`, `/products/<slug>/reviews…`), or null. */
export function productSlug(url: URL): string | null {
  return PRODUCT_PATH.exec(url.pathname)?.[1]?.toLowerCase() ?? null;
}

/** A bare slug as a client may give it ("acme-crm"), or null. */
export function bareSlug(value: string): string | null {
  const slug = value.toLowerCase();
  return SLUG.test(slug) ? slug : null;
}

/** One page of reviews, most recent first (G2's `order=most_recent`). */
export function pageUrl({ slug, page }: { slug: string; page: number }): string {
  return `https://www.g2.com/products/${slug}/reviews?order=most_recent${page > 1 ? `&page=${page}` : ""}`;
}

/**
 * G2 answers bots with DataDome's captcha page (a script from captcha-delivery.com) or Cloudflare's
 * "Just a moment..." challenge, with status 403 or 200.
 */
export function inspectG2Page(page: FetchedPage): ScrapeError | null {
  // Challenge pages are small: look in the page's head only (no regex over the whole page).
  const head = page.text.slice(0, 64 * 1024);
  if (/captcha-delivery\.com/i.test(head) || /<title>\s{0,20}Just a moment\.\.\./i.test(head))
    return permanentError("blocked", "G2 answered with its bot check");
  return null;
}

/** g2.com: product reviews read from the review cards (2026, 2025 and 2024 layouts), newest first, one page per step. */
export const g2Adapter: Adapter<G2Cursor> = {
  cursor: G2CursorSchema,

  async start(profileUrl) {
    const slug = productSlug(new URL(profileUrl));
    if (!slug) throw permanentError("profile_not_found", "Not a G2 product URL");
    return { profileUrl: pageUrl({ slug, page: 1 }), cursor: { slug, page: 1 } };
  },

  async page(cursor, ctx): Promise<AdapterPage<G2Cursor>> {
    const page = await ctx.client.request(pageUrl(cursor));
    const { cards, reviewCount, hasNext } = await readG2Page(page.text);
    const read = cursor.read ?? 0;
    const url = page.url.toString();
    const profileUrl = cursor.page === 1 ? url : undefined;
    if (cards.length === 0) {
      // A product nobody reviewed says so (reviewCount 0); anything else is not the page we know.
      if (reviewCount === 0) return { pageUrl: url, reviews: [], next: null, profileUrl, publisherTotal: 0 };
      if (await hasLoginForm(page.text)) throw permanentError("login_required", "G2 shows a sign-in form instead of reviews");
      throw permanentError(
        "publisher_error",
        reviewCount === null
          ? "G2 page: no review cards (article or itemprop=review) and no review count"
          : `G2 page ${cursor.page}: no review cards (article or itemprop=review) for a product with ${reviewCount} reviews`,
      );
    }
    const reviews = cards.map((card, index) => cardReview(card, index, cursor.slug));
    // 2024 and 2025 pages link the next one; 2026 pages do not, and the product's count tells.
    const more = hasNext || (reviewCount !== null && read + cards.length < reviewCount);
    return {
      pageUrl: url,
      reviews,
      next: more ? { slug: cursor.slug, page: cursor.page + 1, read: read + cards.length } : null,
      profileUrl,
      publisherTotal: reviewCount,
    };
  },

  inspect: inspectG2Page,
};
