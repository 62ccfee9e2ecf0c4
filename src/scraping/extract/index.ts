import type { RawReview } from "../../core/reviews/raw-review";
import { WorkBudget } from "../../publishers/kit/work-budget";
import { permanentError } from "../errors";
import { ElementStream } from "./element-stream";
import { collectJsonLd } from "./json-ld";
import { mergeDuplicates } from "./merge-duplicates";
import { collectMicrodata } from "./microdata";
import { collectPageMeta } from "./page-meta";
import { collectRdfa } from "./rdfa";
import { reviewsFromItems } from "./schema-reviews";

export interface ExtractedPage {
  /** schema.org reviews found in JSON-LD, microdata and RDFa, each once, in page order. */
  reviews: RawReview[];
  /** The absolute URL of the next (older) page from `rel="next"`, or null. */
  nextUrl: string | null;
  /** `<html lang>` as written ("en-GB"), or null. */
  pageLanguage: string | null;
  /** The review count the page states (one AggregateRating's `reviewCount`), or null. */
  reviewCount: number | null;
}

/**
 * Reads the structured review data of one HTML page. A single streaming HTMLRewriter pass feeds
 * every syntax's collector; the items are then read by one schema.org reader. All of it counts
 * against `budget` (elements, text chunks, nodes): a page needing more fails with `publisher_error`.
 */
export async function extractStructuredData(
  html: string,
  pageUrl: string,
  budget = new WorkBudget("structured data"),
): Promise<ExtractedPage> {
  const rewriter = new HTMLRewriter();
  const jsonLd = collectJsonLd(rewriter);
  const elements = new ElementStream(rewriter, budget);
  const microdata = collectMicrodata(elements);
  const rdfa = collectRdfa(elements);
  const meta = collectPageMeta(rewriter, pageUrl);
  try {
    await rewriter
      .transform(new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }))
      .arrayBuffer();
  } catch (err) {
    if (elements.overBudget) throw elements.overBudget;
    // The parser refuses markup past its own limits (tens of thousands of elements left open exceed
    // its memory limit) with a plain TypeError: that is the page's doing, not a fault of ours.
    throw permanentError(
      "publisher_error",
      `HTML parser could not read the page: ${err instanceof Error ? err.message.slice(0, 200) : "unknown error"}`,
    );
  }
  if (elements.overBudget) throw elements.overBudget;

  const { language, baseUrl, nextUrl } = meta();
  const { reviews, reviewCount } = reviewsFromItems(
    [...jsonLd(), ...microdata(), ...rdfa()],
    baseUrl,
    budget,
  );
  return {
    reviews: mergeDuplicates(reviews, new Set([pageUrl, baseUrl])),
    nextUrl,
    pageLanguage: language,
    reviewCount,
  };
}
