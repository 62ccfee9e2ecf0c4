/**
 * The review filters of retrieve and export (issue 33; decisions "Collection options and retrieve
 * filters"). Every field is optional; without any, answers are exactly what they were before.
 */
import { z } from "@hono/zod-openapi";
import { drfBoolean, drfInteger, drfString, MSG } from "../../core/validation";
import { isoLanguage } from "../../core/reviews/language";
import type { ReviewFilters } from "../../storage/task-reviews";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/i;
const DAY_MS = 86_400_000;
export const DATE_MESSAGE = "Enter a valid ISO 8601 date (YYYY-MM-DD) or date-time.";
export const LANGUAGE_MESSAGE = "Enter a valid ISO 639-1 language code (two letters, e.g. en).";

/** A calendar date that exists (2026-02-30 does not): UTC midnight in ms, or null. */
function dateMs(text: string): number | null {
  const match = DATE.exec(text);
  if (!match) return null;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(ms).toISOString().startsWith(text) ? ms : null;
}

/**
 * An ISO 8601 date or date-time as an inclusive bound in ms. Without an offset it is UTC. A date
 * alone means the whole day: from its first millisecond for `since`, to its last for `until`.
 */
function isoBound(edge: "start" | "end") {
  return drfString({ max: 40 }).transform((text, ctx) => {
    const day = dateMs(text);
    if (day !== null) return edge === "start" ? day : day + DAY_MS - 1;
    if (DATE_TIME.test(text) && dateMs(text.slice(0, 10)) !== null) {
      const zoned = /(Z|[+-]\d{2}:\d{2})$/i.test(text) ? text : `${text}Z`;
      const ms = Date.parse(zoned);
      if (Number.isFinite(ms)) return ms;
    }
    ctx.addIssue({ code: "custom", message: DATE_MESSAGE });
    return z.NEVER;
  });
}

export const FilterFields = {
  min_rating: drfInteger({ min: 1, max: 5 })
    .optional()
    .openapi({ type: "integer", minimum: 1, maximum: 5, description: "Only reviews rated at least this." }),
  max_rating: drfInteger({ min: 1, max: 5 })
    .optional()
    .openapi({ type: "integer", minimum: 1, maximum: 5, description: "Only reviews rated at most this." }),
  since: isoBound("start").optional().openapi({
    type: "string",
    example: "2026-01-01",
    description:
      "Only reviews posted at or after this ISO 8601 date or date-time (UTC unless it has an offset; a date alone starts at its 00:00).",
  }),
  until: isoBound("end").optional().openapi({
    type: "string",
    example: "2026-06-30T18:00:00Z",
    description:
      "Only reviews posted at or before this ISO 8601 date or date-time (UTC unless it has an offset; a date alone includes its whole day).",
  }),
  language: drfString({ max: 2 })
    .transform((v, ctx) => {
      // One of the 183 ISO 639-1 codes, any case; a withdrawn one (iw, in, ji) means its successor.
      const code = /^[A-Za-z]{2}$/.test(v) ? isoLanguage(v) : null;
      if (code === null) {
        ctx.addIssue({ code: "custom", message: LANGUAGE_MESSAGE });
        return z.NEVER;
      }
      return code;
    })
    .optional()
    .openapi({ type: "string", example: "en", description: "Only reviews in this ISO 639-1 language." }),
  has_text: drfBoolean()
    .optional()
    .openapi({ type: "boolean", description: "true: only reviews with text; false: only those without." }),
  has_reply: drfBoolean().optional().openapi({
    type: "boolean",
    description: "true: only reviews with an owner reply; false: only those without.",
  }),
  q: drfString({ max: 200 }).optional().openapi({
    type: "string",
    example: "delivery",
    description: "Only reviews whose text contains this, ignoring case (Unicode lower-casing).",
  }),
};

type FilterInput = { [K in keyof typeof FilterFields]?: z.output<(typeof FilterFields)[K]> };

/** Bounds that contradict each other name the upper one. */
export function checkFilterBounds(input: FilterInput, ctx: z.RefinementCtx): void {
  if (input.min_rating !== undefined && input.max_rating !== undefined && input.max_rating < input.min_rating)
    ctx.addIssue({ code: "custom", path: ["max_rating"], message: MSG.min(input.min_rating) });
  if (input.since !== undefined && input.until !== undefined && input.until < input.since)
    ctx.addIssue({ code: "custom", path: ["until"], message: "Must not be earlier than since." });
}

export function reviewFilters(input: FilterInput): ReviewFilters {
  return {
    minRating: input.min_rating,
    maxRating: input.max_rating,
    since: input.since,
    until: input.until,
    language: input.language,
    hasText: input.has_text,
    hasReply: input.has_reply,
    q: input.q?.toLowerCase(),
  };
}
