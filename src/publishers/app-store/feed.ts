/**
 * The App Store's public customer-reviews feed, one storefront at a time:
 * `GET https://itunes.apple.com/<cc>/rss/customerreviews/page=<1..10>/id=<app>/sortby=mostrecent/json`,
 * newest first, about 50 reviews a page and never more than 10 pages (about 500 reviews). Shape as
 * a 2026 public client reads it (aws-samples/sample-voice-of-customer-datalake, see README.md):
 * `feed.entry[]` with `{label}` wrappers; a single review comes as an object instead of an array.
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import { transientError } from "../../scraping/errors";
import { readAnswer, type ParseContext, type WalkPage, type WalkPosition } from "../kit/json-walk";

export const WHAT = "App Store reviews";
/** The feed's own limit: page=11 and beyond are refused. */
export const FEED_PAGES = 10;

/** `us:284882215`: the storefront and the app id. */
export function appStoreKey(storefront: string, appId: string): string {
  return `${storefront}:${appId}`;
}

export function feedUrl(key: string, position: WalkPosition): string {
  const [storefront, appId] = key.split(":");
  return `https://itunes.apple.com/${storefront}/rss/customerreviews/page=${position.page}/id=${appId}/sortby=mostrecent/json`;
}

const label = z.object({ label: z.string() });

const EntrySchema = z.object({
  id: label,
  author: z.object({ name: label, uri: label.nullish() }).nullish(),
  updated: label,
  "im:rating": z.object({ label: z.coerce.number().int().min(1).max(5) }),
  "im:version": label.nullish(),
  title: label.nullish(),
  content: label.nullish(),
});

const LinkSchema = z.object({ attributes: z.object({ rel: z.string(), href: z.string().max(2_000) }) });

const FeedSchema = z.object({
  feed: z.object({
    entry: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).nullish(),
    link: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).nullish(),
  }),
});

/** The page number of the feed's `rel="last"` link (`…/page=10/…`), or null. */
function lastPage(links: unknown[]): number | null {
  for (const raw of links) {
    const link = LinkSchema.safeParse(raw);
    if (!link.success || link.data.attributes.rel !== "last") continue;
    const match = /\/page=(\d{1,3})\//.exec(link.data.attributes.href);
    return match ? Number(match[1]) : null;
  }
  return null;
}

/**
 * One feed page. An entry without a rating (the app's own entry in older feeds) or with a value of
 * the wrong type is skipped. The feed states no review total; a walk that reaches page 10 with
 * reviews on it is cut off by the feed, which the page says (`limitedView`).
 */
export function parseFeedPage(data: unknown, ctx: ParseContext): WalkPage {
  const feed = readAnswer(FeedSchema, data, WHAT).feed;
  const entries = Array.isArray(feed.entry) ? feed.entry : feed.entry ? [feed.entry] : [];
  const links = Array.isArray(feed.link) ? feed.link : feed.link ? [feed.link] : [];
  // Without a `rel="last"` link the walk goes on while pages have reviews, as public clients do.
  const stated = lastPage(links);
  const last = Math.min(stated ?? FEED_PAGES, FEED_PAGES);
  const reviews: RawReview[] = [];
  for (const raw of entries) {
    ctx.budget.spend();
    const entry = EntrySchema.safeParse(raw);
    if (!entry.success) continue;
    const { data: e } = entry;
    const body = [e.title?.label.trim(), e.content?.label.trim()].filter(Boolean).join("\n\n");
    const author = e.author?.name.label.trim();
    reviews.push({
      id: e.id.label,
      ...(author ? { author_name: author } : {}),
      ...(e.author?.uri?.label.startsWith("https://") ? { author_url: e.author.uri.label } : {}),
      rating: { value: e["im:rating"].label, best: 5, worst: 1 },
      text: body,
      url: ctx.pageUrl,
      date: e.updated.label,
      // Also a field of its own (issue 36); the text keeps it first, so review_hash is unchanged.
      ...(e.title?.label.trim() ? { title: e.title.label.trim() } : {}),
    });
  }
  const page = ctx.position.page;
  if (entries.length === 0 && stated !== null && page < last) {
    // Apple's feed sometimes answers one page of a populated feed empty; the page is retried later.
    throw transientError(
      "publisher_error",
      `${WHAT}: page ${page} came back empty although the feed has ${last} pages`,
    );
  }
  const next = entries.length > 0 && page < last ? { page: page + 1, token: null } : null;
  const cut = next === null && page >= FEED_PAGES && entries.length > 0;
  return {
    reviews,
    next,
    limitedView: cut
      ? `The App Store's review feed stops after ${FEED_PAGES} pages (about 500 reviews) per storefront`
      : null,
  };
}
