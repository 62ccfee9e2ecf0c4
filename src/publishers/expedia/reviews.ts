/**
 * Expedia Group's reviews, as a property page gets them: `POST https://www.<site>/graphql` with a
 * one-operation batch `[{operationName: "PWAReviewsSortingAndFiltersQuery", variables:
 * {productIdentifier: {id, type: "PROPERTY_ID", travelSearchCriteria: {property: {primary, secondary:
 * {selections, counts: [pageIndex, size]}}}}, context: {...}}, extensions.persistedQuery}]` and the
 * page's `client-info` header, answering `[{data: {productReviewDetails: {reviews: {details: [...],
 * pagination: {button: {primary}}}}}}]`. As the public client reads it (see README.md).
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import type { RequestOptions } from "../../scraping/client";
import { permanentError } from "../../scraping/errors";
import { readAnswer, type ParseContext, type WalkPage, type WalkPosition } from "../kit/json-walk";
import type { ExpediaContext } from "./profile";

export const WHAT = "Expedia reviews";
export const PAGE_SIZE = 50;
export const REVIEWS_HASH = "6ef916a9f1758506bd39254623a4704123d75898667a06ca7b2c216cf22ee061";
/** The sort selection the client sends (it stops at a cutoff date, so it reads this order as newest first). */
export const SORT_BY = "urn:expediagroup:taxonomies:core:#e9f32feb-5946-4b19-a6f2-8206edc7a130";

const ContextSchema = z.object({
  propertyId: z.string().regex(/^\d{1,12}$/),
  siteId: z.number().int(),
  locale: z.string().max(120),
  eapid: z.number().int(),
  tpid: z.number().int(),
  currency: z.string().max(120),
  duaid: z.string().max(120),
  clientInfo: z.string().max(120),
});

/** The walk's key back into the query context; a key that does not parse is publisher_error. */
export function contextOfKey(key: string): ExpediaContext {
  try {
    const parsed = ContextSchema.safeParse(JSON.parse(key));
    if (parsed.success) return parsed.data;
  } catch {
    // Reported below.
  }
  throw permanentError("publisher_error", `${WHAT}: the stored query context does not parse`);
}

export function expediaReviewsRequest(
  key: string,
  position: WalkPosition,
  pageUrl: string,
): { url: string; options: RequestOptions } {
  const context = contextOfKey(key);
  return {
    url: `${new URL(pageUrl).origin}/graphql`,
    options: {
      method: "POST",
      headers: { "client-info": context.clientInfo, Referer: pageUrl },
      json: [
        {
          operationName: "PWAReviewsSortingAndFiltersQuery",
          variables: {
            productIdentifier: {
              id: context.propertyId,
              type: "PROPERTY_ID",
              travelSearchCriteria: {
                property: {
                  primary: { dateRange: null, rooms: [{ adults: 2 }], destination: { regionId: "" } },
                  secondary: {
                    selections: [
                      { id: "sortBy", value: SORT_BY },
                      { id: "searchTerm", value: "" },
                      { id: "travelerType", value: "" },
                    ],
                    counts: [
                      { id: "pageIndex", value: position.page },
                      { id: "size", value: PAGE_SIZE },
                    ],
                  },
                },
              },
            },
            context: {
              siteId: context.siteId,
              locale: context.locale,
              eapid: context.eapid,
              tpid: context.tpid,
              currency: context.currency,
              device: { type: "DESKTOP" },
              identity: { duaid: context.duaid, authState: "ANONYMOUS" },
              privacyTrackingState: "CAN_TRACK",
            },
          },
          extensions: { persistedQuery: { version: 1, sha256Hash: REVIEWS_HASH } },
        },
      ],
    },
  };
}

const AnswerSchema = z
  .array(
    z.object({
      data: z.object({
        productReviewDetails: z.object({
          reviews: z.object({
            details: z.array(z.unknown()),
            pagination: z.object({ button: z.object({ primary: z.string().nullish() }).nullish() }).nullish(),
          }),
        }),
      }),
    }),
  )
  .min(1);

// Expedia's own client bundle (its ReviewFragment on ProductReview) asks for `id` (the review's id,
// its Apollo cache key and the page's `?reviewId=` deep link) and `managementResponses[]` (the
// property's replies, each a ReviewSection with `text`), besides `review` and `summary`.
const DetailSchema = z.object({
  id: z.string().min(1).max(200).nullish(),
  review: z.object({ __typename: z.string().nullish(), text: z.string().max(50_000).nullish() }).nullish(),
  managementResponses: z
    .array(z.object({ text: z.string().max(50_000).nullish() }).nullish())
    .max(20)
    .nullish(),
  summary: z.object({
    primary: z.string().max(60).nullish(),
    secondary: z.string().max(200).nullish(),
    supportingMessages: z.array(z.unknown()).max(20).nullish(),
  }),
});

/** "10/10 Excellent" → 10 (out of 10); anything else → null. */
const SCORE = /^(\d{1,2}(?:\.\d)?)\s*\/\s*10\b/;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const PRINTED_DATE = /^([A-Za-z]{3})[a-z]{0,6} (\d{1,2}), (\d{4})$/;

/** The first supporting message that is a date ("Nov 3, 2025", as the client parses it) → "2025-11-03". */
export function reviewDate(messages: unknown[]): string | null {
  for (const message of messages) {
    const text =
      message !== null && typeof message === "object" ? (message as { text?: unknown }).text : undefined;
    if (typeof text !== "string" || text.length > 40) continue;
    const match = PRINTED_DATE.exec(text.trim());
    const month = match ? MONTHS.indexOf(match[1].toLowerCase()) + 1 : 0;
    if (match && month > 0)
      return `${match[3]}-${String(month).padStart(2, "0")}-${match[2].padStart(2, "0")}`;
  }
  return null;
}

/**
 * One page. A detail whose parts have the wrong type is skipped. There is more while the answer
 * carries the "More reviews" button (`pagination.button.primary`), as the client reads it.
 */
export function parseExpediaPage(data: unknown, ctx: ParseContext): WalkPage {
  const reviews = readAnswer(AnswerSchema, data, WHAT)[0].data.productReviewDetails.reviews;
  const out: RawReview[] = [];
  for (const raw of reviews.details) {
    ctx.budget.spend();
    const item = DetailSchema.safeParse(raw);
    if (!item.success) continue;
    const { id, review, summary, managementResponses } = item.data;
    const reply = managementResponses?.find((response) => response?.text?.trim())?.text?.trim();
    const score = summary.primary ? SCORE.exec(summary.primary.trim()) : null;
    const author = summary.secondary?.trim();
    const date = reviewDate(summary.supportingMessages ?? []);
    out.push({
      ...(id?.trim() ? { id: id.trim() } : {}),
      ...(author ? { author_name: author } : {}),
      ...(score ? { rating: { value: Number(score[1]), best: 10, worst: 1 } } : {}),
      text: review?.text?.trim() ?? "",
      url: ctx.pageUrl,
      ...(date ? { date } : {}),
      ...(reply ? { reply_text: reply } : {}),
    });
  }
  const more = Boolean(reviews.pagination?.button?.primary?.trim());
  if (more && reviews.details.length === 0)
    throw permanentError(
      "publisher_error",
      `${WHAT}: page ${ctx.position.page} is empty but offers more reviews`,
    );
  return { reviews: out, next: more ? { page: ctx.position.page + 1, token: null } : null };
}
