import { z } from "zod";
import { permanentError } from "../../scraping/errors";
import { hasLoginForm } from "../../scraping/response-status";
import type { Adapter, AdapterPage } from "../types";
import { inspectYelpPage, readBizPage } from "./biz-page";
import { FEED_OPERATION, feedRequest, parseFeed } from "./feed";
import { aliasOf } from "./profile";

/** Where the walk is: the biz page (referer and review URLs), the encoded business id, reviews skipped. */
export const YelpCursorSchema = z.object({
  profileUrl: z.string().url(),
  bizId: z.string().min(1),
  offset: z.number().int().min(0),
});
export type YelpCursor = z.infer<typeof YelpCursorSchema>;

/** The biz page URL as reached (after redirects), without the query and fragment Yelp adds. */
function canonicalBizUrl(url: URL): string {
  const canonical = new URL(url);
  canonical.search = "";
  canonical.hash = "";
  return canonical.toString();
}

/**
 * yelp.com: the biz page gives the encoded business id (`meta[name=yelp-biz-id]`); the reviews come
 * from the `GetBusinessReviewFeed` GraphQL query, newest first, REVIEWS_PER_PAGE at a time, paged
 * by offset. Every request carries the task's login cookies (the client adds them).
 */
export const yelpAdapter: Adapter<YelpCursor> = {
  cursor: YelpCursorSchema,
  inspect: inspectYelpPage,

  async start(profileUrl, ctx) {
    const page = await ctx.client.request(profileUrl);
    const { bizId } = await readBizPage(page.text);
    if (!bizId) {
      if (await hasLoginForm(page.text))
        throw permanentError("login_required", "The Yelp business page asks to sign in");
      throw permanentError("publisher_error", "Yelp business page has no meta[name=yelp-biz-id]");
    }
    // A biz page that redirected elsewhere (a merged business, a closed one) is still fine if it is a biz page.
    const reached = aliasOf(page.url) ? canonicalBizUrl(page.url) : profileUrl;
    return { profileUrl: reached, cursor: { profileUrl: reached, bizId, offset: 0 } };
  },

  async page(cursor, ctx): Promise<AdapterPage<YelpCursor>> {
    const endpoint = new URL("/gql/batch", cursor.profileUrl);
    const { data } = await ctx.client.json(endpoint, {
      method: "POST",
      json: feedRequest(cursor.bizId, cursor.offset, ctx.sort),
      headers: {
        Origin: endpoint.origin,
        Referer: cursor.profileUrl,
        "x-apollo-operation-name": FEED_OPERATION,
      },
    });
    const feed = parseFeed(data, cursor.profileUrl, cursor.offset);
    return {
      pageUrl: cursor.profileUrl,
      reviews: feed.reviews,
      next: feed.hasNextPage ? { ...cursor, offset: cursor.offset + feed.count } : null,
      profileUrl: cursor.profileUrl,
      publisherTotal: feed.reviewCount,
    };
  },
};
