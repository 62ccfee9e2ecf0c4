import { isOnDomain } from "../../domain/publishers/canonical";
import { permanentError } from "../errors";
import { extractStructuredData } from "../extract";
import { fetchPage } from "../http-fetch";
import { hasLoginForm } from "../response-status";
import type { Adapter, ScrapeContext, ScrapedPage } from "./adapter";

/** The next page link, kept only when it stays on the publisher and goes somewhere new. */
function followableNext(nextUrl: string | null, pageUrl: string, ctx: ScrapeContext): string | null {
  const next = nextUrl ? URL.parse(nextUrl) : null;
  if (!next || !isOnDomain(next.hostname, ctx.publisherKey)) return null;
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
export const genericAdapter: Adapter = {
  async firstPageUrl(profile) {
    if (!profile.profileUrl) throw permanentError("profile_not_found", "No profile URL for this publisher");
    return profile.profileUrl;
  },

  async scrapePage(url, ctx): Promise<ScrapedPage> {
    let page = await fetchPage(ctx.env, url, { cookies: ctx.cookies, timeoutMs: ctx.pageTimeoutMs() });
    let data = await extractStructuredData(page.html, page.pageUrl.toString());
    if (data.reviews.length === 0 && !data.nextUrl) {
      page = await ctx.renderer.render(url, { cookies: ctx.cookies, timeoutMs: ctx.pageTimeoutMs() });
      data = await extractStructuredData(page.html, page.pageUrl.toString());
      if (data.reviews.length === 0 && (await hasLoginForm(page.html))) {
        throw permanentError("login_required", "The profile page asks to sign in");
      }
    }
    const pageUrl = page.pageUrl.toString();
    return { pageUrl, reviews: data.reviews, nextUrl: followableNext(data.nextUrl, pageUrl, ctx), pageLanguage: data.pageLanguage };
  },
};
