import { z } from "zod";
import type { FetchedPage } from "../../scraping/client";
import { permanentError, ScrapeError } from "../../scraping/errors";
import { hasLoginForm } from "../../scraping/response-status";
import type { Adapter, AdapterPage, ScrapeContext } from "../types";
import { WorkBudget } from "../kit/work-budget";
import { cardReview, readG2Page, type G2Page } from "./cards";

/** Where the walk is: the product's slug and the page number. */
export const G2CursorSchema = z.object({
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  page: z.number().int().positive(),
  /** Reviews read on the pages before this one (the 2026 layout has no next link: the count says when to stop). */
  read: z.number().int().nonnegative().default(0),
  /**
   * Page 1's reviews page held no cards (an app shell) and its reviews_and_filters fragment did:
   * the later pages are read from the fragment straight away, one request each.
   */
  fragment: z.boolean().default(false),
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
 * The HTML fragment G2's reviews page loads its review cards from (a Turbo frame,
 * `<turbo-frame id="reviews-and-filters">`), same page and sort. The sort is the fragment's own
 * sort control (`<select name="order">`, value `most_recent`); see the module README.
 */
export function fragmentUrl({ slug, page }: { slug: string; page: number }): string {
  return `https://www.g2.com/products/${slug}/reviews_and_filters?order=most_recent${page > 1 ? `&page=${page}` : ""}`;
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
    // Page 1 showed the reviews page to be a shell: the later pages skip it (one request each).
    if (cursor.fragment) return fragmentPage(cursor, ctx);
    const page = await ctx.client.request(pageUrl(cursor));
    const url = page.url.toString();
    const profileUrl = cursor.page === 1 ? url : undefined;
    const found = await readG2Page(page.text);
    if (found.cards.length > 0) return pageOf(cursor, found, { url, profileUrl, fragment: false });
    // A product nobody reviewed says so (reviewCount 0).
    if (found.reviewCount === 0)
      return { pageUrl: url, reviews: [], next: null, profileUrl, publisherTotal: 0 };
    // No cards and no "0 reviews": the app shell the 2026 notes describe, a sign-in page or a
    // changed page. The fragment the shell loads its cards from is asked once; only when it has no
    // cards either do the sign-in check and then publisher_error decide.
    const fragment = await readFragment(cursor, ctx);
    if (fragment && fragment.cards.length > 0) {
      // The shell may state the count where the fragment does not.
      return pageOf(
        cursor,
        { ...fragment, reviewCount: fragment.reviewCount ?? found.reviewCount },
        { url, profileUrl, fragment: true },
      );
    }
    if (fragment?.reviewCount === 0)
      return { pageUrl: url, reviews: [], next: null, profileUrl, publisherTotal: 0 };
    // The sign-in check reads the fragment where it answered: an app shell may carry a sign-in
    // dialog of its own (unverified), while a sign-in wall would stand in front of both.
    if (await hasLoginForm(fragment?.text ?? page.text))
      throw permanentError("login_required", "G2 shows a sign-in form instead of reviews");
    const count = fragment?.reviewCount ?? found.reviewCount;
    throw permanentError(
      "publisher_error",
      `G2 page ${cursor.page}: no review cards (article or itemprop=review) on ${pageUrl(cursor)} nor on its fragment ${fragmentUrl(cursor)}` +
        (fragment ? "" : " (answered 404)") +
        (count === null ? ", and no review count" : `, for a product with ${count} reviews`),
    );
  },

  inspect: inspectG2Page,
};

/** One page's reviews fragment and what it holds; null when G2 answers 404 (no such fragment). */
async function readFragment(
  cursor: G2Cursor,
  ctx: ScrapeContext,
): Promise<(G2Page & { text: string }) | null> {
  let text: string;
  try {
    text = (await ctx.client.request(fragmentUrl(cursor))).text;
  } catch (err) {
    // The product exists (its reviews page answered): a 404 here says the fragment is gone, not the product.
    if (err instanceof ScrapeError && err.reason === "profile_not_found") return null;
    throw err;
  }
  return { ...(await readG2Page(text, new WorkBudget("G2 reviews fragment"))), text };
}

/** A later page of a walk that page 1 moved to the fragment: the fragment alone, cards required. */
async function fragmentPage(cursor: G2Cursor, ctx: ScrapeContext): Promise<AdapterPage<G2Cursor>> {
  const fragment = await readFragment(cursor, ctx);
  if (!fragment || fragment.cards.length === 0) {
    const count = fragment?.reviewCount ?? null;
    throw permanentError(
      "publisher_error",
      `G2 page ${cursor.page}: no review cards (article or itemprop=review) on the fragment ${fragmentUrl(cursor)}` +
        (fragment ? "" : " (answered 404)") +
        (count === null ? "" : `, for a product with ${count} reviews`),
    );
  }
  return pageOf(cursor, fragment, { url: pageUrl(cursor), fragment: true });
}

/** The reviews of a page with cards, and where the walk goes next. */
function pageOf(
  cursor: G2Cursor,
  { cards, reviewCount, hasNext }: G2Page,
  where: { url: string; profileUrl?: string; fragment: boolean },
): AdapterPage<G2Cursor> {
  const read = cursor.read ?? 0;
  const reviews = cards.map((card, index) => cardReview(card, index, cursor.slug));
  // 2024 and 2025 pages link the next one; 2026 pages do not, and the product's count tells.
  const more = hasNext || (reviewCount !== null && read + cards.length < reviewCount);
  return {
    // The page a person opens, also when its cards came from the fragment.
    pageUrl: where.url,
    reviews,
    next: more
      ? {
          slug: cursor.slug,
          page: cursor.page + 1,
          read: read + cards.length,
          ...(where.fragment ? { fragment: true } : {}),
        }
      : null,
    profileUrl: where.profileUrl,
    publisherTotal: reviewCount,
  };
}
