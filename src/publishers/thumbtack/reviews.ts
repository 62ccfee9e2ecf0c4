/**
 * Thumbtack's pro page (`/<st>/<city>/<category>/<slug>/service/<servicePk>`) carries a JSON-LD
 * `@graph` with one business node: its `@type` is the trade's schema.org subtype (`Plumber`,
 * `LocalBusiness`, `Electrician`, …), so the node is found by shape (a `name` with an
 * `aggregateRating` or a `review`), never by type. `review` is an array of arrays of `Review`
 * nodes: `datePublished` printed "Aug 29, 2022", `description`, `author.name`,
 * `reviewRating.ratingValue` (1–5). Structure as the MIT-licensed capture in chrischall/thumbtack-mcp
 * shows it (see README.md).
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews/raw-review";
import { permanentError } from "../../scraping/errors";
import { countOf, type ParseContext, type WalkPage } from "../kit/json-walk";
import { pageJsonLdItems } from "../kit/json-ld-items";
import type { WorkBudget } from "../kit/work-budget";
import { printedDate } from "../kit/printed-date";

export const WHAT = "Thumbtack pro page";

/** The JSON-LD items of a page (see ../kit/json-ld-items.ts), failing in this page's name. */
export const jsonLdItems = (html: string, budget: WorkBudget): Promise<unknown[]> =>
  pageJsonLdItems(html, budget, WHAT);

const ReviewSchema = z.object({
  datePublished: z.string().max(40).nullish(),
  description: z.string().nullish(),
  reviewBody: z.string().nullish(),
  author: z.object({ name: z.string().max(200).nullish() }).nullish(),
  reviewRating: z.object({ ratingValue: z.union([z.number(), z.string().max(10)]) }),
});

/** "Aug 29, 2022" → "2022-08-29" (the kit's printedDate), re-exported for this module's tests. */
export { printedDate };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The business node: the first item with a name and an aggregateRating or reviews. */
function businessNode(items: unknown[], budget: WorkBudget): Record<string, unknown> | null {
  for (const item of items) {
    budget.spend();
    if (isObject(item) && typeof item.name === "string" && ("aggregateRating" in item || "review" in item))
      return item;
  }
  return null;
}

/** `review` as a flat list: its entries, or the entries of its nested arrays (one level). */
function reviewNodes(value: unknown, budget: WorkBudget): unknown[] {
  const nodes: unknown[] = [];
  for (const entry of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
    budget.spend();
    if (!Array.isArray(entry)) nodes.push(entry);
    else
      for (const inner of entry) {
        budget.spend();
        nodes.push(inner);
      }
  }
  return nodes;
}

function rawReview(node: unknown, pageUrl: string): RawReview | null {
  const parsed = ReviewSchema.safeParse(node);
  if (!parsed.success) return null;
  const { datePublished, description, reviewBody, author, reviewRating } = parsed.data;
  const rating = Number(reviewRating.ratingValue);
  if (!(rating >= 1 && rating <= 5)) return null;
  const name = author?.name?.trim();
  return {
    ...(name ? { author_name: name } : {}),
    rating: { value: rating, best: 5, worst: 1 },
    text: (description ?? reviewBody ?? "").trim(),
    url: pageUrl,
    ...(datePublished ? { date: printedDate(datePublished) } : {}),
  };
}

/**
 * Reads the reviews of the page's JSON-LD items. The page carries a fixed window of a pro's newest
 * reviews and no next page; when the stated count is larger than the reviews on the page (read or
 * skipped), the rest is named as a limited view.
 */
export function parseThumbtackPage(data: unknown, ctx: ParseContext): WalkPage {
  if (!Array.isArray(data)) throw permanentError("publisher_error", `${WHAT}: no JSON-LD on the page`);
  const business = businessNode(data, ctx.budget);
  if (!business) throw permanentError("publisher_error", `${WHAT}: no JSON-LD business node with reviews`);
  const nodes = reviewNodes(business.review, ctx.budget);
  const reviews: RawReview[] = [];
  for (const node of nodes) {
    const review = rawReview(node, ctx.pageUrl);
    if (review) reviews.push(review);
  }
  const aggregate = isObject(business.aggregateRating) ? business.aggregateRating : {};
  const total = countOf(aggregate.reviewCount);
  return {
    reviews,
    next: null,
    publisherTotal: total,
    limitedView:
      total !== null && total > nodes.length
        ? `Thumbtack's pro page carries ${nodes.length} of the pro's ${total} reviews; the rest come only ` +
          "from its GraphQL, whose reviews query is not established by public evidence"
        : null,
  };
}
