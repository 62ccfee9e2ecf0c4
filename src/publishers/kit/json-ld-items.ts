/**
 * The JSON-LD items of a page (arrays and `@graph` flattened), read in one HTMLRewriter pass that
 * counts every element against `budget`. Markup past the parser's own limits (tens of thousands of
 * elements left open) is the page's doing: `publisher_error` in the page's name (`what`), as for
 * the structured-data reader.
 */
import { collectJsonLd } from "../../scraping/extract/json-ld";
import { permanentError } from "../../scraping/errors";
import type { WorkBudget } from "./work-budget";

export async function pageJsonLdItems(html: string, budget: WorkBudget, what: string): Promise<unknown[]> {
  const rewriter = new HTMLRewriter();
  const items = collectJsonLd(rewriter);
  const stop: { error: Error | null } = { error: null };
  rewriter.on("*", {
    element: () => {
      if (stop.error) return;
      try {
        budget.spend();
      } catch (err) {
        stop.error = err instanceof Error ? err : new Error(String(err));
      }
    },
  });
  try {
    await rewriter
      .transform(new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }))
      .arrayBuffer();
  } catch (err) {
    if (stop.error) throw stop.error;
    throw permanentError(
      "publisher_error",
      `${what}: the HTML parser could not read the page: ${err instanceof Error ? err.message.slice(0, 200) : "unknown error"}`,
    );
  }
  if (stop.error) throw stop.error;
  return items();
}

/** A profile's count and average as its JSON-LD states them (null where it does not). */
export interface JsonLdAggregate {
  total: number | null;
  /** The average on the 1–5 scale, null outside it. */
  rating: number | null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The `aggregateRating` of the first JSON-LD item that has one: its reviewCount and ratingValue. */
export function jsonLdAggregate(items: readonly unknown[], budget: WorkBudget): JsonLdAggregate {
  for (const item of items) {
    budget.spend();
    if (!isObject(item) || !isObject(item.aggregateRating)) continue;
    const { reviewCount, ratingValue } = item.aggregateRating;
    const total =
      typeof reviewCount === "number" || (typeof reviewCount === "string" && /^\d{1,12}$/.test(reviewCount))
        ? Number(reviewCount)
        : NaN;
    const rating =
      typeof ratingValue === "number" || typeof ratingValue === "string" ? Number(ratingValue) : NaN;
    return {
      total: Number.isSafeInteger(total) && total >= 0 ? total : null,
      rating: Number.isFinite(rating) && rating >= 1 && rating <= 5 ? rating : null,
    };
  }
  return { total: null, rating: null };
}
