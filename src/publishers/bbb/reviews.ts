/**
 * BBB's customer reviews: the JSON endpoint its `/customer-reviews` pages load,
 * `GET https://www.bbb.org/api/businessprofile/customerreviews?page=<n>&pageSize=<n>&businessId=<id>
 * &bbbId=<office>&sort=reviewDate desc, id desc`, answering `{items: [...], totalPages, numFound}`
 * (the same object as the page's `__PRELOADED_STATE__.businessProfile.customerReviews`). Field
 * names as public clients read them and as a 2026-09 capture of the page shows (see README.md).
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

export const WHAT = "BBB reviews";
export const PAGE_SIZE = 10;

/** `<bbbId>-<businessId>`: the BBB office and the business. */
export function bbbKey(bbbId: string, businessId: string): string {
  return `${bbbId}-${businessId}`;
}

export function customerReviewsUrl(key: string, position: WalkPosition): string {
  const [bbbId, businessId] = key.split("-");
  const url = new URL("https://www.bbb.org/api/businessprofile/customerreviews");
  url.searchParams.set("page", String(position.page));
  url.searchParams.set("pageSize", String(PAGE_SIZE));
  url.searchParams.set("businessId", businessId ?? "");
  url.searchParams.set("bbbId", bbbId ?? "");
  url.searchParams.set("sort", "reviewDate desc, id desc");
  return url.toString();
}

const text = z.string().nullish();
const part = z.union([z.number().int(), z.string().regex(/^\d{1,4}$/)]);
/** `{year, month, day}`, numbers or digit strings. */
const DateSchema = z.object({ year: part, month: part, day: part });
type BbbDate = z.infer<typeof DateSchema>;

const ItemSchema = z.object({
  id: z.union([z.string().min(1), z.number().int()]),
  displayName: text,
  reviewStarRating: z.number().int().min(1).max(5).nullish(),
  text,
  date: DateSchema,
  hasExtendedText: z.boolean().nullish(),
  extendedText: z.array(z.object({ text })).nullish(),
  businessResponseText: text,
  businessResponseDate: DateSchema.nullish(),
  businessRebuttalText: text,
  businessRebuttalDate: DateSchema.nullish(),
});

const AnswerSchema = z.object({
  items: z.array(z.unknown()),
  totalPages: z.unknown(),
  numFound: z.unknown().optional(),
});

function isoDay(date: BbbDate): string | null {
  const [y, m, d] = [Number(date.year), Number(date.month), Number(date.day)];
  if (!(y >= 1900 && y <= 2200 && m >= 1 && m <= 12 && d >= 1 && d <= 31)) return null;
  return `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/**
 * The business's side of the thread as one owner reply: its response, then its rebuttal to the
 * customer's answer (separated by a blank line), dated by the first of them.
 */
function ownerReply(item: z.infer<typeof ItemSchema>): Partial<Pick<RawReview, "reply_text" | "reply_date">> {
  const response = item.businessResponseText?.trim();
  const rebuttal = item.businessRebuttalText?.trim();
  const replyText = [response, rebuttal].filter(Boolean).join("\n\n");
  if (!replyText) return {};
  const dated = response ? item.businessResponseDate : item.businessRebuttalDate;
  const replyDate = dated ? isoDay(dated) : null;
  return { reply_text: replyText, ...(replyDate ? { reply_date: replyDate } : {}) };
}

/**
 * One page. A long review's full text is `extendedText[0].text` (the short `text` is cut); an item
 * with a wrong value is skipped. `numFound` is the profile's review count. A review without stars
 * (written before BBB rated reviews) is read without a rating and the page says it cannot be kept.
 */
export function parseBbbPage(data: unknown, ctx: ParseContext): WalkPage {
  const answer = readAnswer(AnswerSchema, data, WHAT);
  const pages = countOf(answer.totalPages);
  if (pages === null) throw permanentError("publisher_error", `${WHAT}: no totalPages in the answer`);
  const reviews: RawReview[] = [];
  let unrated = 0;
  for (const raw of answer.items) {
    ctx.budget.spend();
    const parsed = ItemSchema.safeParse(raw);
    if (!parsed.success) continue;
    const item = parsed.data;
    const date = isoDay(item.date);
    if (!date) continue;
    if (!item.reviewStarRating) unrated++;
    const full = item.hasExtendedText ? item.extendedText?.[0]?.text?.trim() : null;
    const author = item.displayName?.trim();
    reviews.push({
      id: String(item.id),
      ...(author ? { author_name: author } : {}),
      ...(item.reviewStarRating ? { rating: { value: item.reviewStarRating, best: 5, worst: 1 } } : {}),
      text: full || (item.text?.trim() ?? ""),
      url: ctx.pageUrl,
      date,
      language: "en",
      ...ownerReply(item),
    });
  }
  return {
    reviews,
    next: nextByNumber(WHAT, ctx.position.page, pages, answer.items.length),
    publisherTotal: countOf(answer.numFound),
    // The service requires a rating, so a review from before BBB's stars is dropped downstream: say so.
    limitedView:
      unrated > 0
        ? `${unrated} BBB review(s) on page ${ctx.position.page} have no star rating and cannot be returned`
        : null,
  };
}
