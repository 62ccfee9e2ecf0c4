/**
 * Feefo's public Reviews API (no key): `GET https://api.feefo.com/api/10/reviews/service` for a
 * merchant's service reviews, paged by number (`page` from 1, `page_size` up to 100), with
 * `summary.meta.{count, pages}` stating the totals. Structure as Feefo documents it
 * (feefo.readme.io "Reviews API Response") and as a 2026-09 client reads it (see README.md).
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import { permanentError } from "../../scraping/errors";
import {
  countOf,
  nextByNumber,
  readAnswer,
  type ParseContext,
  type WalkPage,
  type WalkPosition,
} from "../kit/json-walk";

export const WHAT = "Feefo reviews";
export const PAGE_SIZE = 100;

/** The request of one page of a merchant's service reviews, newest first. */
export function feefoReviewsUrl(merchant: string, position: WalkPosition): string {
  const url = new URL("https://api.feefo.com/api/10/reviews/service");
  url.searchParams.set("merchant_identifier", merchant);
  url.searchParams.set("since_period", "ALL");
  url.searchParams.set("sort", "-created_date");
  url.searchParams.set("page_size", String(PAGE_SIZE));
  url.searchParams.set("page", String(position.page));
  return url.toString();
}

const text = z.string().nullish();

const ItemSchema = z.object({
  url: text,
  customer: z.object({ display_name: text }).nullish(),
  service: z
    .object({
      id: z.string().min(1),
      rating: z.object({ rating: z.number().min(1).max(5) }),
      title: text,
      review: text,
      /** Epoch milliseconds in Feefo's own example; an ISO timestamp in newer answers. */
      created_at: z.union([z.number().int().positive(), z.string().min(4)]),
    })
    .nullish(),
});

const AnswerSchema = z.object({
  summary: z.object({ meta: z.object({ count: z.unknown(), pages: z.unknown() }) }),
  reviews: z.array(z.unknown()),
});

function isoDate(value: number | string): string | null {
  if (typeof value === "string") return value;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/**
 * One page. A review without its service part (a product-only review) or with a value of the wrong
 * type is skipped: the rest of the page is still good. The page count comes from `summary.meta`.
 */
export function parseFeefoPage(data: unknown, ctx: ParseContext): WalkPage {
  const answer = readAnswer(AnswerSchema, data, WHAT);
  const total = countOf(answer.summary.meta.count);
  const pages = countOf(answer.summary.meta.pages);
  if (total === null || pages === null)
    throw permanentError("publisher_error", `${WHAT}: summary.meta has no count or page count`);
  const reviews: RawReview[] = [];
  for (const raw of answer.reviews) {
    ctx.budget.spend();
    const item = ItemSchema.safeParse(raw);
    const service = item.success ? item.data.service : null;
    if (!item.success || !service) continue;
    const date = isoDate(service.created_at);
    const author = item.data.customer?.display_name?.trim();
    const body = [service.title?.trim(), service.review?.trim()].filter(Boolean).join("\n\n");
    reviews.push({
      id: service.id,
      ...(author ? { author_name: author } : {}),
      rating: { value: service.rating.rating, best: 5, worst: 1 },
      text: body,
      url:
        item.data.url?.startsWith("https://") || item.data.url?.startsWith("http://")
          ? item.data.url
          : ctx.pageUrl,
      ...(date ? { date } : {}),
    });
  }
  return {
    reviews,
    next: nextByNumber(WHAT, ctx.position.page, pages, answer.reviews.length),
    publisherTotal: total,
  };
}
