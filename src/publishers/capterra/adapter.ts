import { z } from "zod";
import type { PageInspector } from "../../scraping/client";
import { permanentError, transientError } from "../../scraping/errors";
import type { Adapter, AdapterPage } from "../types";
import { productIdOf, reviewsPageUrl, slugOf } from "./profile";
import { parseReviewsPage, REVIEWS_PER_PAGE, reviewsPageAt } from "./reviews";

const Where = {
  productId: z.string().regex(/^\d{1,12}$/),
  /** The canonical reviews page (where a review links to). */
  pageUrl: z.string().url(),
};

/**
 * Where the walk is: the page number of `…/reviews/?page=N`. Cursors stored while the module read
 * the JSON endpoint (`offset`, 25 a page) go on at the page holding that offset.
 */
export const CapterraCursorSchema = z.union([
  z.object({ ...Where, page: z.number().int().min(1).max(100_000) }),
  z
    .object({ ...Where, offset: z.number().int().min(0) })
    .transform(({ offset, ...rest }) => ({ ...rest, page: Math.floor(offset / REVIEWS_PER_PAGE) + 1 })),
]);
export type CapterraCursor = z.infer<typeof CapterraCursorSchema>;

/**
 * Capterra sits behind Cloudflare (a 2026 field note: browser user agents get 403 with
 * `Cf-Mitigated: challenge`, a `blocked` the route settings can pass to the browser or a provider);
 * a challenge served with 200 ("Just a moment...") or PerimeterX's px-captcha page is `blocked` too.
 */
const inspectCapterraPage: PageInspector = (page) => {
  const head = page.text.slice(0, 20_000);
  if (
    /<title>\s*Just a moment\.\.\./i.test(head) ||
    /px-captcha|Access to this page has been denied/i.test(head)
  ) {
    return transientError("blocked", "Capterra answered with its bot check");
  }
  return null;
};

/** The pages the product's count spans, 25 a page; null when the page states no count. */
function pagesFor(total: number | null): number | null {
  return total === null ? null : Math.max(1, Math.ceil(total / REVIEWS_PER_PAGE));
}

/**
 * capterra.com: the product page is opened once (an unknown product is a 404 there, and its
 * redirect gives the canonical slug), then the server-rendered reviews pages `…/reviews/?page=N`
 * are read in Capterra's own order (most helpful first: no newest-first form is known), to the
 * last page the product's count spans.
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
    return { profileUrl: pageUrl, cursor: { productId, pageUrl, page: 1 } };
  },

  async page(cursor, ctx): Promise<AdapterPage<CapterraCursor>> {
    const fetched = await ctx.client.request(reviewsPageAt(cursor.pageUrl, cursor.page));
    const { reviews, total, summary } = await parseReviewsPage(fetched.text, cursor.pageUrl);
    const pages = pagesFor(total);
    const first = cursor.page === 1;
    const common = {
      pageUrl: cursor.pageUrl,
      profileUrl: cursor.pageUrl,
      publisherTotal: total,
      ...(first ? { summary } : {}),
    };
    if (reviews.length === 0) {
      if (total === null || total === 0 || (pages !== null && cursor.page > pages))
        return { ...common, reviews, next: null };
      if (first)
        throw permanentError(
          "publisher_error",
          `Capterra page: no reviews on page 1 of a product with ${total}`,
        );
      // Capterra stops serving pages before its count runs out: say so rather than fail or pass it over.
      return {
        ...common,
        reviews,
        next: null,
        limitedView: `capterra serves no reviews on page ${cursor.page} of the ${pages} its count of ${total} spans`,
      };
    }
    const more = pages === null ? reviews.length >= REVIEWS_PER_PAGE : cursor.page < pages;
    return { ...common, reviews, next: more ? { ...cursor, page: cursor.page + 1 } : null };
  },
};
