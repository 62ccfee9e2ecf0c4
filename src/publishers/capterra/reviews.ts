/**
 * Capterra's review list: the JSON endpoint its product pages load reviews from
 * (`GET /spotlight/rest/reviews?apiVersion=2&productId=<id>&from=<offset>&size=<n>&sort=mostRecent`),
 * answering `{hits: [...], totalHits: {value, relation}}`, and a pure reader of that answer. The
 * structure is the one public scrapers request and read (see test/publishers/capterra/site.ts).
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import { parseAnswer } from "../../scraping/answer-schema";
import { permanentError } from "../../scraping/errors";
import { WorkBudget } from "../kit/work-budget";

/** Reviews per request (the page's own "load more" asks for 25). */
export const REVIEWS_PER_PAGE = 25;

/** The request URL of one page of a product's reviews, newest first. */
export function reviewsUrl(productId: string, offset: number): string {
  const url = new URL("https://www.capterra.com/spotlight/rest/reviews");
  url.searchParams.set("apiVersion", "2");
  url.searchParams.set("productId", productId);
  url.searchParams.set("from", String(offset));
  url.searchParams.set("size", String(REVIEWS_PER_PAGE));
  url.searchParams.set("sort", "mostRecent");
  return url.toString();
}

const text = z.string().nullish();

const HitSchema = z.object({
  reviewId: z.union([z.string().min(1), z.number().int()]),
  productId: z.union([z.number().int(), z.string()]).nullish(),
  slug: z.string().nullish(),
  language: text,
  overallRating: z.number().min(1).max(5),
  title: text,
  prosText: text,
  consText: text,
  generalComments: text,
  adviceToOthers: text,
  /** "2019-04-12 17:24:23 -0400": local time with the reviewer's UTC offset. */
  writtenOn: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/, "not a writtenOn date"),
  reviewer: z.object({ fullName: text, jobTitle: text }).nullish(),
  vendorResponse: z.object({ name: text, date: text, text }).nullish(),
});

const AnswerSchema = z.object({
  hits: z.array(HitSchema),
  totalHits: z.object({ value: z.number().int().min(0) }).nullish(),
});

export type CapterraHit = z.infer<typeof HitSchema>;

/** "2019-04-12 17:24:23 -0400" as ISO 8601 ("2019-04-12T17:24:23-04:00"), the instant it names. */
export function writtenOnIso(writtenOn: string): string {
  const [date, time, zone] = writtenOn.split(" ");
  return `${date}T${time}${zone.slice(0, 3)}:${zone.slice(3)}`;
}

/**
 * The review's text as the API keeps it (the layout of glassdoor.com's): the title, then "Pros",
 * "Cons", "Overall" (Capterra's general comments) and "Advice to others", each under its heading
 * line, separated by blank lines; sections the reviewer left empty are left out. Capterra's
 * `translation` fields are machine translations and are not used: the reviewer's own words are kept.
 */
export function hitText(hit: CapterraHit): string {
  const parts = [hit.title?.trim()];
  for (const [body, heading] of [
    [hit.prosText, "Pros"],
    [hit.consText, "Cons"],
    [hit.generalComments, "Overall"],
    [hit.adviceToOthers, "Advice to others"],
  ] as const) {
    const trimmed = body?.trim();
    if (trimmed) parts.push(`${heading}:\n${trimmed}`);
  }
  return parts.filter(Boolean).join("\n\n");
}

export function rawReview(hit: CapterraHit, reviewsPageUrl: string): RawReview {
  const reply = hit.vendorResponse?.text?.trim();
  const author = hit.reviewer?.fullName?.trim();
  return {
    id: String(hit.reviewId),
    ...(author ? { author_name: author } : {}),
    rating: { value: hit.overallRating, best: 5, worst: 1 },
    text: hitText(hit),
    url: reviewsPageUrl,
    date: writtenOnIso(hit.writtenOn),
    ...(hit.language ? { language: hit.language } : {}),
    ...(reply
      ? { reply_text: reply, ...(hit.vendorResponse?.date ? { reply_date: hit.vendorResponse.date } : {}) }
      : {}),
  };
}

export interface ReviewsPage {
  reviews: RawReview[];
  /** `totalHits.value`: how many reviews the product has, where the answer says. */
  total: number | null;
  /** Offset of the next (older) page, or null on the last one. */
  nextOffset: number | null;
}

/**
 * Reads one answer. A changed shape is `publisher_error` naming the field; an empty page where the
 * total says there are more reviews is `publisher_error` too (never a silent end of the walk).
 */
export function parseReviews(
  data: unknown,
  offset: number,
  reviewsPageUrl: string,
  budget = new WorkBudget("Capterra reviews answer"),
): ReviewsPage {
  // zod reads only the fields named here (no walk of the rest of the answer); each hit read is counted.
  const { hits, totalHits } = parseAnswer(AnswerSchema, data, "Capterra reviews");
  const total = totalHits?.value;
  if (hits.length === 0 && total !== undefined && total > offset) {
    throw permanentError(
      "publisher_error",
      `Capterra reviews: no reviews at offset ${offset} although totalHits is ${total}`,
    );
  }
  const end = offset + hits.length;
  const more = hits.length > 0 && (total !== undefined ? end < total : hits.length >= REVIEWS_PER_PAGE);
  return {
    reviews: hits.map((hit) => {
      budget.spend();
      return rawReview(hit, reviewsPageUrl);
    }),
    total: total ?? null,
    nextOffset: more ? end : null,
  };
}
