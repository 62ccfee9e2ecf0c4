import { z } from "zod";
import { isOnDomain } from "../../core/publishers/canonical";
import type { RawReview } from "../../core/reviews";
import type { FetchedPage } from "../../scraping/client";
import { permanentError, ScrapeError } from "../../scraping/errors";
import { extractStructuredData } from "../../scraping/extract";
import { hasLoginForm } from "../../scraping/response-status";
import { answerDocument, embeddedDocuments, type EmbeddedDocument } from "../kit/embedded-json";
import { findReviewRecords } from "../kit/review-records";
import { WorkBudget } from "../kit/work-budget";
import type { Adapter, AdapterPage } from "../types";

/** The generic walk's cursor: the URL of the next page to read. */
export const GenericCursorSchema = z.object({ url: z.string() });
export type GenericCursor = z.infer<typeof GenericCursorSchema>;

/**
 * Reader steps of a render (scroll to the end, press "more reviews"): enough for a page that loads
 * its reviews in a few batches, few enough to stay within one page's time.
 */
export const READER_STEPS = 5;

/** The next page link, kept only when it stays on the publisher and goes somewhere new. */
function followableNext(nextUrl: string | null, pageUrl: string, publisherKey: string): string | null {
  const next = nextUrl ? URL.parse(nextUrl) : null;
  if (!next || !isOnDomain(next.hostname, publisherKey)) return null;
  next.hash = "";
  return next.toString() === new URL(pageUrl).toString() ? null : next.toString();
}

export interface PageRead {
  reviews: RawReview[];
  nextUrl: string | null;
  pageLanguage: string | null;
  publisherTotal: number | null;
  /** The page's data says more reviews follow (a next cursor, `hasNextPage`). */
  more: boolean;
  /** Why the page's embedded data could not be read (a hostile page past the work budget), if so. */
  failure: ScrapeError | null;
}

/**
 * Reads one page both ways: schema.org markup, and review records in the JSON it embeds and (after
 * a render) the JSON answers its scripts loaded. The larger list wins; on a tie the markup, which
 * the site wrote for readers of its reviews. A hostile embedded state that needs more than the work
 * budget leaves the markup's reviews standing.
 */
export async function readGenericPage(
  page: Pick<FetchedPage, "url" | "text" | "answers">,
): Promise<PageRead> {
  const url = page.url.toString();
  const data = await extractStructuredData(page.text, url);
  const read: PageRead = {
    reviews: data.reviews,
    nextUrl: data.nextUrl,
    pageLanguage: data.pageLanguage,
    publisherTotal: data.reviewCount,
    more: false,
    failure: null,
  };
  try {
    const budget = new WorkBudget("embedded page data");
    const documents: EmbeddedDocument[] = await embeddedDocuments(page.text, budget);
    for (const answer of page.answers ?? []) {
      const document = answerDocument(answer.url, answer.text);
      if (document) documents.push(document);
    }
    const found = findReviewRecords(documents, url, budget);
    if (found && found.reviews.length > read.reviews.length) {
      read.reviews = found.reviews;
      read.publisherTotal = found.total ?? read.publisherTotal;
      read.more = found.more;
    }
  } catch (err) {
    if (!(err instanceof ScrapeError)) throw err;
    read.failure = err;
  }
  return read;
}

/**
 * The adapter for every publisher without its own: schema.org reviews (JSON-LD, microdata, RDFa)
 * and review records in the page's own JSON (docs/generic-reader.md) on the profile page, older
 * pages through `rel="next"` or a `?page=N` link.
 *
 * Each page is first loaded with a plain HTTP GET. Only when that HTML has neither a review nor a
 * next link is the page rendered in the browser and read again, with the JSON answers its scripts
 * load while it settles and while the reader scrolls and presses "more reviews" (READER_STEPS). A
 * page that has nothing even then and asks for a password is a login wall.
 */
export const genericAdapter: Adapter<GenericCursor> = {
  cursor: GenericCursorSchema,

  async start(profileUrl) {
    return { profileUrl, cursor: { url: profileUrl } };
  },

  async page(cursor, ctx): Promise<AdapterPage<GenericCursor>> {
    let page = await ctx.client.request(cursor.url);
    let read = await readGenericPage(page);
    if (read.reviews.length === 0 && !read.nextUrl) {
      page = await ctx.client.render(cursor.url, { readerSteps: READER_STEPS });
      read = await readGenericPage(page);
      if (read.reviews.length === 0 && (await hasLoginForm(page.text))) {
        throw permanentError("login_required", "The profile page asks to sign in");
      }
    }
    if (read.reviews.length === 0 && read.failure) throw read.failure;
    const pageUrl = page.url.toString();
    const next = followableNext(read.nextUrl, pageUrl, ctx.publisherKey);
    return {
      pageUrl,
      reviews: read.reviews,
      next: next ? { url: next } : null,
      pageLanguage: read.pageLanguage,
      profileUrl: pageUrl,
      publisherTotal: read.publisherTotal,
      // The data pages on by a cursor of its own (an API the page calls), which the generic reader
      // cannot follow: the task completes, saying it holds only what the page showed.
      ...(next === null && read.more
        ? {
            limitedView:
              "the page's data says more reviews follow (a next cursor or page), but the page links to no next page the generic reader can follow",
          }
        : {}),
    };
  },
};
