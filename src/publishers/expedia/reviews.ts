/**
 * Expedia Group's reviews, as a property page gets them: `POST https://www.<site>/graphql` with a
 * one-operation batch `[{operationName: "PWAReviewsSortingAndFiltersRevampQuery" (or the older
 * "PWAReviewsSortingAndFiltersQuery"), variables:
 * {productIdentifier: {id, type: "PROPERTY_ID", travelSearchCriteria: {property: {primary, secondary:
 * {selections, counts: [pageIndex, size]}}}}, context: {...}}, extensions.persistedQuery}]` and the
 * page's `client-info` header, answering `[{data: {productReviewDetails: {reviews: {details: [...],
 * pagination}}}}]` (`pagination` null on the last page). As the public clients read it (README.md).
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import type { RequestOptions } from "../../scraping/client";
import { permanentError } from "../../scraping/errors";
import { readAnswer, type ParseContext, type WalkPage, type WalkPosition } from "../kit/json-walk";
import type { ExpediaContext } from "./profile";
import { printedDate } from "../kit/printed-date";

export const WHAT = "Expedia reviews";
export const PAGE_SIZE = 50;
/**
 * The reviews operations, newest first: the Revamp query 2026 clients send (tested 2026-10-05), and
 * the older one, asked when Expedia does not know the Revamp's persisted hash (`PersistedQueryNotFound`).
 */
export const OPERATIONS = {
  revamp: {
    name: "PWAReviewsSortingAndFiltersRevampQuery",
    hash: "5d801d9b6cd0a13885881999fe810b4e5b489aec8dfd7ab0fbe25278c2ef2279",
  },
  legacy: {
    name: "PWAReviewsSortingAndFiltersQuery",
    hash: "6ef916a9f1758506bd39254623a4704123d75898667a06ca7b2c216cf22ee061",
  },
} as const;
export type ExpediaOperation = keyof typeof OPERATIONS;
/** The walk's token once the older operation answered: later pages ask it directly. */
export const LEGACY_TOKEN = "legacy";
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

/** The operation a page asks first: the Revamp, unless an earlier page found only the older one known. */
export function operationOf(position: WalkPosition): ExpediaOperation {
  return position.token === LEGACY_TOKEN ? "legacy" : "revamp";
}

/** The filters of each operation, as its client sends them (the Revamp client sends only the sort). */
function secondary(operation: ExpediaOperation, page: number) {
  const counts = [
    { id: "pageIndex", value: page },
    { id: "size", value: PAGE_SIZE },
  ];
  if (operation === "revamp") return { selections: [{ id: "sortBy", value: SORT_BY }], counts };
  return {
    selections: [
      { id: "sortBy", value: SORT_BY },
      { id: "searchTerm", value: "" },
      { id: "travelerType", value: "" },
    ],
    counts,
  };
}

export function expediaReviewsRequest(
  key: string,
  position: WalkPosition,
  pageUrl: string,
  operation: ExpediaOperation = operationOf(position),
): { url: string; options: RequestOptions } {
  const context = contextOfKey(key);
  const { name, hash } = OPERATIONS[operation];
  return {
    url: `${new URL(pageUrl).origin}/graphql`,
    options: {
      method: "POST",
      headers: { "client-info": context.clientInfo, Referer: pageUrl },
      json: [
        {
          operationName: name,
          variables: {
            productIdentifier: {
              id: context.propertyId,
              type: "PROPERTY_ID",
              travelSearchCriteria: {
                property: {
                  primary: {
                    dateRange: null,
                    rooms: [{ adults: 2 }],
                    destination: operation === "revamp" ? {} : { regionId: "" },
                  },
                  secondary: secondary(operation, position.page),
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
          extensions: { persistedQuery: { version: 1, sha256Hash: hash } },
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
            // Present (an object) while more pages follow; null on the last (the 2026 client's test).
            pagination: z.unknown().optional(),
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

/** The first supporting message that is a date ("Nov 3, 2025", as the client parses it) → "2025-11-03". */
export function reviewDate(messages: unknown[]): string | null {
  for (const message of messages) {
    const text =
      message !== null && typeof message === "object" ? (message as { text?: unknown }).text : undefined;
    if (typeof text !== "string" || text.length > 40) continue;
    const date = printedDate(text);
    if (date !== text.trim()) return date;
  }
  return null;
}

const OBJECT_ID = /^[0-9a-f]{24}$/i;
/** Expedia Group's first reviews are from the 2000s; a prefix before 2005 is not a creation time. */
const EARLIEST = Date.UTC(2005, 0, 1);

/**
 * The creation time in a review id that is a 24-hex ObjectId (its first 8 hex digits are seconds
 * since the epoch), as the 2026 client dates reviews whose messages carry only the stay. The text
 * says where it came from, so `source_date` shows it; null for another id or an implausible time.
 */
export function dateOfReviewId(id: string | null | undefined, now = Date.now()): string | null {
  if (!id || !OBJECT_ID.test(id)) return null;
  const ms = parseInt(id.slice(0, 8), 16) * 1000;
  if (ms < EARLIEST || ms > now) return null;
  return `${new Date(ms).toISOString()} (from the review id)`;
}

/** What the walk fetched for a page: the answer and the operation that gave it. */
export interface ExpediaFetched {
  kind: "expedia-answer";
  operation: ExpediaOperation;
  answer: unknown;
}

function isFetched(data: unknown): data is ExpediaFetched {
  return typeof data === "object" && data !== null && (data as { kind?: unknown }).kind === "expedia-answer";
}

const PERSISTED_QUERY_NOT_FOUND = /persisted\s*query\s*not\s*found|PERSISTED_QUERY_NOT_FOUND/i;

/** An answer refusing the operation's persisted hash: `[{errors: [{message: "PersistedQueryNotFound"}]}]`. */
export function persistedQueryUnknown(answer: unknown): boolean {
  if (!Array.isArray(answer) || answer.length === 0) return false;
  const errors = (answer[0] as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return false;
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  return errors.some((error) => {
    const { message, extensions } = (error ?? {}) as { message?: unknown; extensions?: { code?: unknown } };
    return PERSISTED_QUERY_NOT_FOUND.test(`${text(message)} ${text(extensions?.code)}`);
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** The older operation's "More reviews" button (`pagination.button.primary`), as its client read it. */
function buttonShown(pagination: unknown): boolean {
  const button = isObject(pagination) ? pagination.button : null;
  const primary = isObject(button) ? button.primary : null;
  return typeof primary === "string" && primary.trim() !== "";
}

/**
 * One page. A detail whose parts have the wrong type is skipped. There is more while the answer's
 * `reviews.pagination` is an object (null on the last page), as the 2026 client reads the Revamp's
 * answer; the older operation's answer has more while its "More reviews" button is there.
 */
export function parseExpediaPage(data: unknown, ctx: ParseContext): WalkPage {
  const fetched = isFetched(data) ? data : null;
  const reviews = readAnswer(AnswerSchema, fetched ? fetched.answer : data, WHAT)[0].data.productReviewDetails
    .reviews;
  const out: RawReview[] = [];
  for (const raw of reviews.details) {
    ctx.budget.spend();
    const item = DetailSchema.safeParse(raw);
    if (!item.success) continue;
    const { id, review, summary, managementResponses } = item.data;
    const reply = managementResponses?.find((response) => response?.text?.trim())?.text?.trim();
    const score = summary.primary ? SCORE.exec(summary.primary.trim()) : null;
    const author = summary.secondary?.trim();
    const date = reviewDate(summary.supportingMessages ?? []) ?? dateOfReviewId(id?.trim());
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
  const more =
    fetched?.operation === "legacy" ? buttonShown(reviews.pagination) : isObject(reviews.pagination);
  if (more && reviews.details.length === 0)
    throw permanentError(
      "publisher_error",
      `${WHAT}: page ${ctx.position.page} is empty but offers more reviews`,
    );
  const token = fetched?.operation === "legacy" ? LEGACY_TOKEN : null;
  return { reviews: out, next: more ? { page: ctx.position.page + 1, token } : null };
}
