import { z } from "zod";
import { isOnDomain } from "../../core/publishers/canonical";
import { permanentError } from "../../scraping/errors";
import { extractStructuredData } from "../../scraping/extract";
import { hasLoginForm } from "../../scraping/response-status";
import type { Adapter, AdapterPage } from "../types";

/** The generic walk's cursor: the URL of the next page to read. */
export const GenericCursorSchema = z.object({ url: z.string() });
export type GenericCursor = z.infer<typeof GenericCursorSchema>;

/** The next page link, kept only when it stays on the publisher and goes somewhere new. */
function followableNext(nextUrl: string | null, pageUrl: string, publisherKey: string): string | null {
  const next = nextUrl ? URL.parse(nextUrl) : null;
  if (!next || !isOnDomain(next.hostname, publisherKey)) return null;
  next.hash = "";
  return next.toString() === new URL(pageUrl).toString() ? null : next.toString();
}

/**
 * The adapter for every publisher without its own: schema.org reviews (JSON-LD, microdata, RDFa)
 * on the profile page, older pages through `rel="next"`.
 *
 * Each page is first loaded with a plain HTTP GET. Only when that HTML has neither a review nor a
 * next link is the page rendered in the browser and read again, since its reviews may be inserted
 * by JavaScript. A page that has nothing even then and asks for a password is a login wall.
 */
export const genericAdapter: Adapter<GenericCursor> = {
  cursor: GenericCursorSchema,

  async start(profileUrl) {
    return { profileUrl, cursor: { url: profileUrl } };
  },

  async page(cursor, ctx): Promise<AdapterPage<GenericCursor>> {
    let page = await ctx.client.request(cursor.url);
    let data = await extractStructuredData(page.text, page.url.toString());
    if (data.reviews.length === 0 && !data.nextUrl) {
      page = await ctx.client.render(cursor.url);
      data = await extractStructuredData(page.text, page.url.toString());
      if (data.reviews.length === 0 && (await hasLoginForm(page.text))) {
        throw permanentError("login_required", "The profile page asks to sign in");
      }
    }
    const pageUrl = page.url.toString();
    const next = followableNext(data.nextUrl, pageUrl, ctx.publisherKey);
    return {
      pageUrl,
      reviews: data.reviews,
      next: next ? { url: next } : null,
      pageLanguage: data.pageLanguage,
      profileUrl: pageUrl,
      publisherTotal: data.reviewCount,
    };
  },
};
