import type { RawReview } from "../../core/reviews/raw-review";
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
}

/**
 * Reads the structured review data of one HTML page. A single streaming HTMLRewriter pass feeds
 * every syntax's collector; the items are then read by one schema.org reader.
 */
export async function extractStructuredData(html: string, pageUrl: string): Promise<ExtractedPage> {
  const rewriter = new HTMLRewriter();
  const jsonLd = collectJsonLd(rewriter);
  const elements = new ElementStream(rewriter);
  const microdata = collectMicrodata(elements);
  const rdfa = collectRdfa(elements);
  const meta = collectPageMeta(rewriter, pageUrl);
  await rewriter.transform(new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } })).arrayBuffer();

  const { language, baseUrl, nextUrl } = meta();
  const reviews = reviewsFromItems([...jsonLd(), ...microdata(), ...rdfa()], baseUrl);
  return { reviews: mergeDuplicates(reviews, new Set([pageUrl, baseUrl])), nextUrl, pageLanguage: language };
}
