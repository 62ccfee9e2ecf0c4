/**
 * Angi's company profile page, as Next.js serves it since 2026: no JSON-LD reviews and no review API
 * a public client calls, but React Server Components props in `self.__next_f` (../kit/flight.ts).
 * The props this reads, as nick-fenech7204/bbb_webscrapper `bbb_scraper/angi/parsing.py` @ec5dc48f
 * (notes of 2026-09-15) reads them from real captured pages:
 * - the review list component: `{businessId, currentPage, totalPages, totalCount, pageSize,
 *   pageLinkQuery, reviews: [{reviewId, reviewerName, rating, dateLabel ("April 2026"), text,
 *   isVerified, recommends, costLabel, jobLabel, photoFullUrls, responseText, proResponseName}]}`,
 *   the newest `pageSize` (25) reviews, newest first;
 * - the rating breakdown: `{averageRating, reviewCount, distribution: [{star, count, percentage}]}`;
 * - the header ("businessProfileHero"): `{name, overallRating, reviewCount, …}`, where a company
 *   without reviews has `"$undefined"` for both.
 * Texts carry HTML entities (`&#39;`). Angi serves, for the same URL, a variant of the page without
 * any of these props (chosen per request by a cookie); that variant is retried, not read as empty.
 */
import { decodeHTML } from "entities";
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import type { PageSummary } from "../../core/tasks/publisher-summary";
import { permanentError, ScrapeError, transientError } from "../../scraping/errors";
import { embeddedDocuments } from "../kit/embedded-json";
import { countOf, type ParseContext, type WalkPage } from "../kit/json-walk";
import { MAX_WALK_DEPTH, type WorkBudget } from "../kit/work-budget";
import { printedMonth } from "../kit/printed-date";

export const ANGI_WHAT = "Angi profile page";

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The page's resolved RSC roots (the rows no other row refers to), every step counted. */
export async function angiPageRoots(html: string, budget: WorkBudget): Promise<unknown[]> {
  let documents;
  try {
    documents = await embeddedDocuments(html, budget);
  } catch (err) {
    if (err instanceof ScrapeError) throw err;
    // HTMLRewriter gives up on markup past its own limits (thousands of unclosed tags): the page's doing.
    throw permanentError(
      "publisher_error",
      `${ANGI_WHAT}: the HTML parser could not read the page: ${err instanceof Error ? err.message.slice(0, 200) : "unknown error"}`,
    );
  }
  return documents.filter((d) => d.source === "rsc").map((d) => d.value);
}

/** The three props objects the page is read for, the first of each found. */
export interface AngiProps {
  list: JsonObject | null;
  breakdown: JsonObject | null;
  hero: JsonObject | null;
}

/** Finds the props by shape, in one bounded walk over the resolved RSC roots. */
export function angiProps(roots: readonly unknown[], budget: WorkBudget): AngiProps {
  const found: AngiProps = { list: null, breakdown: null, hero: null };
  const visit = (node: unknown, depth: number): void => {
    budget.spend();
    if (depth > MAX_WALK_DEPTH || node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    const object = node as JsonObject;
    if (!found.list && Array.isArray(object.reviews) && "totalCount" in object && "pageSize" in object)
      found.list = object;
    if (!found.breakdown && Array.isArray(object.distribution) && "averageRating" in object)
      found.breakdown = object;
    if (!found.hero && object["data-testid"] === "businessProfileHero") found.hero = object;
    for (const child of Object.values(object)) visit(child, depth + 1);
  };
  for (const root of roots) visit(root, 0);
  return found;
}

/**
 * "April 2026" → "2026-04-01": Angi prints only the month, so the review is dated the month's first
 * day (README, "Assumed"). Anything else is kept as printed for the date resolver.
 */
export function angiDate(label: string): string {
  return printedMonth(label);
}

/** A string prop, with RSC's `"$undefined"` and empty strings as absent. */
const prop = z
  .string()
  .max(100_000)
  .nullish()
  .transform((v) => (v && v.trim() && v !== "$undefined" ? v.trim() : undefined));

const ReviewSchema = z.object({
  reviewId: z.string().min(1).max(100),
  reviewerName: prop,
  rating: z.number().int().min(1).max(5),
  dateLabel: z.string().min(4).max(40),
  text: prop,
  isVerified: z.boolean().nullish(),
  photoFullUrls: z.array(z.string().max(2_000)).max(100).nullish(),
  responseText: prop,
});

function angiReview(item: unknown, pageUrl: string): RawReview | null {
  const parsed = ReviewSchema.safeParse(item);
  if (!parsed.success) return null;
  const r = parsed.data;
  const photos = (r.photoFullUrls ?? []).filter((url) => /^https:\/\//.test(url));
  return {
    id: r.reviewId,
    ...(r.reviewerName ? { author_name: r.reviewerName } : {}),
    rating: { value: r.rating, best: 5, worst: 1 },
    text: r.text ? decodeHTML(r.text) : "",
    url: pageUrl,
    date: angiDate(r.dateLabel),
    language: "en",
    ...(r.isVerified ? { author_badges: ["verified"] } : {}),
    ...(photos.length ? { photos } : {}),
    ...(r.responseText ? { reply_text: decodeHTML(r.responseText) } : {}),
  };
}

/** The breakdown's average and histogram (stars 1–5 → count); null parts where they are not shown. */
function angiSummary(breakdown: JsonObject | null, hero: JsonObject | null): PageSummary | null {
  const average = breakdown?.averageRating ?? hero?.overallRating;
  const histogram: Partial<Record<"1" | "2" | "3" | "4" | "5", number>> = {};
  for (const entry of Array.isArray(breakdown?.distribution) ? breakdown.distribution.slice(0, 5) : []) {
    const star = isObject(entry) ? countOf(entry.star) : null;
    const count = isObject(entry) ? countOf(entry.count) : null;
    if (star !== null && star >= 1 && star <= 5 && count !== null)
      histogram[String(star) as "1" | "2" | "3" | "4" | "5"] = count;
  }
  if (typeof average !== "number" && !Object.keys(histogram).length) return null;
  return {
    rating: typeof average === "number" ? average : null,
    ratingScale: "1-5",
    histogram: Object.keys(histogram).length === 5 ? histogram : null,
  };
}

/**
 * Reads one Angi profile page (its resolved RSC roots). The page carries the newest `pageSize`
 * reviews and no next page a public client has established (`pageLinkQuery` is unset on every page
 * seen), so the walk ends here and the rest is named as a limited view.
 */
export function parseAngiPage(roots: readonly unknown[], ctx: ParseContext): WalkPage {
  const { list, breakdown, hero } = angiProps(roots, ctx.budget);
  const total = countOf(list?.totalCount) ?? countOf(breakdown?.reviewCount) ?? countOf(hero?.reviewCount);
  if (!list) {
    // The variant of the page without the profile's props: another request may get the full one.
    if (!hero && !breakdown)
      throw transientError(
        "publisher_error",
        `${ANGI_WHAT}: no profile props in its RSC payload (Angi's variant of the page without them)`,
      );
    // A company without reviews shows no list; one with reviews must have it.
    if (total)
      throw permanentError(
        "publisher_error",
        `${ANGI_WHAT}: the page counts ${total} reviews but carries no review list (reviews, totalCount, pageSize)`,
      );
    return { reviews: [], next: null, publisherTotal: total ?? 0, summary: angiSummary(breakdown, hero) };
  }
  const items = list.reviews as unknown[];
  const reviews: RawReview[] = [];
  for (const item of items) {
    ctx.budget.spend();
    const review = angiReview(item, ctx.pageUrl);
    if (review) reviews.push(review);
  }
  if (items.length && !reviews.length)
    throw permanentError(
      "publisher_error",
      `${ANGI_WHAT}: none of the ${items.length} reviews has reviewId, rating (1–5) and dateLabel`,
    );
  return {
    reviews,
    next: null,
    publisherTotal: total,
    summary: angiSummary(breakdown, hero),
    limitedView:
      total !== null && total > items.length
        ? `Angi's profile page carries its newest ${items.length} of ${total} reviews; how later pages ` +
          "are requested is not established by public evidence (the page's pageLinkQuery is unset)"
        : null,
  };
}
