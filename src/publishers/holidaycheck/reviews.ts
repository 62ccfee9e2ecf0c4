/**
 * HolidayCheck's hotel review API as 2026 clients call it: `GET https://www.holidaycheck.de/api/hotel-reviews`
 * with matrix parameters (`;filter=hotel.id:<uuid>;limit=100;locale=de;offset=…;select=…;sort=entryDate:desc`),
 * answering `{total, items: [{id, title, texts: {GENERAL}, ratings: {GENERAL: {GENERAL}}, travelDate,
 * entryDate, user: {id}, …}]}`, possibly wrapped in `data` as an older client of the same route reads it
 * (see README.md).
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

export const WHAT = "HolidayCheck reviews";
/** 100 a page, as the 2026 client asks. */
export const BATCH = 100;
/**
 * The module's own bound (no client states a limit for this route): the newest 10,000 reviews, 100
 * pages. Past it the walk completes as a limited view instead of reading without end.
 */
export const MAX_OFFSET = 10_000;
export const SELECT = "id,title,texts,ratings,travelDate,entryDate,user,travelReason,traveledWith,children";
export const REVIEWS_PATH = "/api/hotel-reviews";

/** Page n (from 0) is offset n × 100; values are percent-encoded as the older client of this route sends them. */
export function hotelReviewUrl(uuid: string, position: WalkPosition): string {
  const matrix: [string, string][] = [
    ["filter", `hotel.id:${uuid}`],
    ["limit", String(BATCH)],
    ["locale", "de"],
    ["offset", String(position.page * BATCH)],
    ["select", SELECT],
    ["sort", "entryDate:desc"],
  ];
  const params = matrix.map(([key, value]) => `;${key}=${encodeURIComponent(value)}`).join("");
  return `https://www.holidaycheck.de${REVIEWS_PATH}${params}`;
}

/**
 * A date as the API gives it: ISO text (the client this module follows passes it to `new Date`,
 * which takes both), or epoch milliseconds, as another public client (Chrome 124 user agent, so
 * 2024-04 or later) reads `entryDate`/`travelDate` in the same review items embedded in
 * HolidayCheck's review pages. Both are taken, so numbers do not make every review fail to parse.
 */
const when = z.union([z.string().max(40), z.number().finite()]);

/** Epoch milliseconds in a plausible range (1990–2200), else null. */
function fromMillis(value: number): Date | null {
  if (!(value >= Date.UTC(1990, 0, 1) && value <= Date.UTC(2200, 0, 1))) return null;
  return new Date(value);
}

/** The review's instant: ISO text as given, epoch milliseconds as ISO text. */
function entryInstant(value: string | number | null | undefined): string | null {
  if (typeof value === "string") return value.trim() || null;
  if (typeof value !== "number") return null;
  return fromMillis(value)?.toISOString() ?? null;
}

/** HolidayCheck is a German site: a travel date in milliseconds is a day in Berlin, not in UTC. */
const BERLIN_DAY = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Berlin",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

const ItemSchema = z.object({
  id: z.union([z.string().min(1).max(100), z.number().int()]),
  title: z.string().max(2_000).nullish(),
  texts: z
    .object({ GENERAL: z.string().max(50_000).nullish() })
    .passthrough()
    .nullish(),
  ratings: z
    .object({ GENERAL: z.object({ GENERAL: z.number().nullish() }).passthrough().nullish() })
    .passthrough()
    .nullish(),
  entryDate: when.nullish(),
  travelDate: when.nullish(),
  user: z
    .object({ id: z.union([z.string().max(100), z.number()]).nullish() })
    .passthrough()
    .nullish(),
});

const AnswerSchema = z.object({ total: z.unknown(), items: z.array(z.unknown()) });

/** The answer itself, or its `data` member where the answer wraps it (as the older client of the route reads it). */
function unwrap(data: unknown): unknown {
  if (data && typeof data === "object" && !Array.isArray(data) && !("items" in data) && "data" in data)
    return data.data;
  return data;
}

/** The month (or day) of travel from `travelDate`, as the review model takes it. */
function visitDate(value: string | number | null | undefined): string | null {
  if (typeof value === "number") {
    const date = fromMillis(value);
    if (!date) return null;
    const parts = Object.fromEntries(BERLIN_DAY.formatToParts(date).map((p) => [p.type, p.value]));
    return `${parts.year}-${parts.month}-${parts.day}`;
  }
  if (!value) return null;
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) return value.slice(0, 10);
  if (/^\d{4}-\d{2}$/.test(value)) return value;
  return null;
}

/**
 * One batch. An item without an id or with a value of the wrong type is skipped. The walk ends at
 * the stated total or at the module's bound; past that bound the page says what it does not read.
 */
export function parseHolidaycheckPage(data: unknown, ctx: ParseContext): WalkPage {
  const answer = readAnswer(AnswerSchema, unwrap(data), WHAT);
  const total = countOf(answer.total);
  if (total === null) throw permanentError("publisher_error", `${WHAT}: total is not a count`);
  const reviews: RawReview[] = [];
  for (const raw of answer.items) {
    ctx.budget.spend();
    const item = ItemSchema.safeParse(raw);
    if (!item.success) continue;
    const review = item.data;
    const rating = review.ratings?.GENERAL?.GENERAL;
    // Suns run 1–6; HolidayCheck's hotel pages now state a 10-point aggregate. A value past 6 means
    // the API changed its scale too, and mapping it as suns would be wrong: fail loudly instead.
    if (rating != null && (rating < 1 || rating > 6))
      throw permanentError("publisher_error", `${WHAT}: a rating of ${rating} is outside the 1–6 sun scale`);
    const userId = review.user?.id;
    const visit = visitDate(review.travelDate);
    const entry = entryInstant(review.entryDate);
    reviews.push({
      id: String(review.id),
      ...(userId !== null && userId !== undefined && String(userId) !== ""
        ? { author_id: String(userId) }
        : {}),
      ...(rating != null ? { rating: { value: rating, best: 6, worst: 1 } } : {}),
      text: [review.title?.trim(), review.texts?.GENERAL?.trim()].filter(Boolean).join("\n\n"),
      url: ctx.pageUrl,
      ...(entry ? { date: entry } : {}),
      ...(visit ? { visit_date: visit } : {}),
      language: "de",
      // Also a field of its own (issue 36); the text keeps it first, so review_hash is unchanged.
      ...(review.title?.trim() ? { title: review.title.trim() } : {}),
    });
  }
  const reachable = Math.min(total, MAX_OFFSET);
  const lastPage = Math.max(0, Math.ceil(reachable / BATCH) - 1);
  return {
    reviews,
    next: nextByNumber(WHAT, ctx.position.page, lastPage, answer.items.length),
    publisherTotal: total,
    ...(total > MAX_OFFSET
      ? {
          limitedView: `HolidayCheck: the walk reads the newest ${MAX_OFFSET} reviews of ${total}`,
        }
      : {}),
  };
}
