/**
 * Trusted Shops' public shop API (no key, no login): `GET https://api.trustedshops.com/rest/public/v2/
 * shops/<tsId>/reviews.json` for the reviews it shows and `…/quality/reviews.json` for the shop's
 * review indicator (`totalReviewCount`); `shops.json?url=<domain>` finds a shop's tsId from its
 * web address. Every answer is wrapped as `{response: {code, data: {…}}}`. The public API shows only
 * the newest reviews and has no page parameter, so a shop is one page; when the indicator counts
 * more, the page says so (`limitedView`).
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import { permanentError } from "../../scraping/errors";
import { countOf, readAnswer, type ParseContext, type WalkPage } from "../kit/json-walk";

export const WHAT = "Trusted Shops reviews";
const API = "https://api.trustedshops.com/rest/public/v2";

export const reviewsUrl = (tsId: string) => `${API}/shops/${tsId}/reviews.json`;
export const qualityUrl = (tsId: string) => `${API}/shops/${tsId}/quality/reviews.json`;
export const shopSearchUrl = (domain: string) => `${API}/shops.json?url=${encodeURIComponent(domain)}`;

const text = z.string().nullish();

const ReviewSchema = z.object({
  UID: z.string().min(1),
  /** "4.00": the mark as a decimal string (a number in some answers). */
  mark: z.coerce.number().min(1).max(5),
  comment: text,
  creationDate: z.string().min(4).max(40),
});

const ReviewsAnswerSchema = z.object({
  response: z.object({
    data: z.object({
      shop: z.object({ tsId: z.string(), languageISO2: text, reviews: z.array(z.unknown()).nullish() }),
    }),
  }),
});

const QualityAnswerSchema = z.object({
  response: z.object({
    data: z.object({
      shop: z.object({
        qualityIndicators: z.object({
          reviewIndicator: z.object({
            totalReviewCount: z.unknown().optional(),
            activeReviewCount: z.unknown(),
          }),
        }),
      }),
    }),
  }),
});

const ShopsAnswerSchema = z.object({
  response: z.object({
    data: z.object({ shops: z.array(z.object({ tsId: z.string().regex(/^X[0-9A-F]{32}$/) })).nullish() }),
  }),
});

/** The tsId of the shop at a web address, or null when Trusted Shops knows none there. */
export function parseShopSearch(data: unknown): string | null {
  return (
    readAnswer(ShopsAnswerSchema, data, "Trusted Shops shop search").response.data.shops?.[0]?.tsId ?? null
  );
}

/** The two answers of a shop, read together: the reviews and the review indicator. */
export interface ShopAnswers {
  reviews: unknown;
  quality: unknown;
}

export function parseTrustedShopsPage(data: unknown, ctx: ParseContext): WalkPage {
  // Built by the module's own fetch; anything else reads as missing answers (publisher_error).
  const { reviews: reviewsAnswer, quality } =
    typeof data === "object" && data !== null ? (data as Partial<ShopAnswers>) : {};
  const shop = readAnswer(ReviewsAnswerSchema, reviewsAnswer, WHAT).response.data.shop;
  if (shop.tsId !== ctx.key)
    throw permanentError(
      "publisher_error",
      `${WHAT}: asked for ${ctx.key}, the answer is about ${shop.tsId}`,
    );
  const indicator = readAnswer(QualityAnswerSchema, quality, "Trusted Shops review indicator").response.data
    .shop.qualityIndicators.reviewIndicator;
  // `activeReviewCount` counts only the last `activePeriodInDays` (365) days; `totalReviewCount` every
  // review since `reviewsCountedSince` (a real answer: 41 active of 222). The shop's reviews are the
  // total; the active count stands in only when the total is absent.
  const total = countOf(indicator.totalReviewCount) ?? countOf(indicator.activeReviewCount);
  const reviews: RawReview[] = [];
  for (const raw of shop.reviews ?? []) {
    ctx.budget.spend();
    const parsed = ReviewSchema.safeParse(raw);
    if (!parsed.success) continue;
    const review = parsed.data;
    reviews.push({
      id: review.UID,
      rating: { value: review.mark, best: 5, worst: 1 },
      text: review.comment?.trim() ?? "",
      url: ctx.pageUrl,
      date: review.creationDate,
    });
  }
  const shown = shop.reviews?.length ?? 0;
  return {
    reviews,
    next: null,
    publisherTotal: total,
    limitedView:
      total !== null && total > shown
        ? `Trusted Shops' public API shows only the newest ${shown} of ${total} reviews`
        : null,
    pageLanguage: shop.languageISO2 ?? null,
  };
}
