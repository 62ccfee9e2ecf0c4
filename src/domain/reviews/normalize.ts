import type { Review } from "./review";
import { detectLanguage, isoLanguage } from "./language";
import { originalText } from "./machine-translation";
import { resolvePostedAt } from "./posted-at";
import { fiveStarRating } from "./rating";
import type { RawReview } from "./raw-review";
import { derivedReviewId } from "./review-id";
import { reviewHash } from "./review-hash";
import { cleanName, cleanText } from "./text";

export interface NormalizeContext {
  /** Canonical publisher domain, e.g. "trustpilot.com". */
  publisherKey: string;
  /** The page the review was read from; the review's URL when it has none of its own. */
  pageUrl: string;
  /** Milliseconds since the epoch; relative dates are resolved against it. */
  scrapedAt: number;
  /** The page's declared language tag (`<html lang>`), as written. */
  pageLanguage: string | null;
}

/**
 * Thrown by {@link normalizeReview} for a raw review that cannot become a `Review`. Use
 * {@link isUsableReview} or {@link normalizeReviews} to drop those instead.
 */
export class UnusableReviewError extends Error {
  constructor() {
    super("Review has no usable rating, or neither text, author nor id");
    this.name = "UnusableReviewError";
  }
}

/**
 * A review is kept when it has a rating that maps onto 1..5 (the API's rating is required) and
 * something to tell it apart by: text, an author name or the publisher's id. Anything else is
 * page furniture (an empty template, a rating widget) rather than a review.
 */
export function isUsableReview(raw: RawReview): boolean {
  if (fiveStarRating(raw.rating) === null) return false;
  return Boolean(cleanText(raw.text) || cleanName(raw.author_name) || raw.id?.trim());
}

export function normalizeReview(raw: RawReview, ctx: NormalizeContext): Review {
  const rating = fiveStarRating(raw.rating);
  if (rating === null || !isUsableReview(raw)) throw new UnusableReviewError();

  const { text: original, machineTranslated } = originalText(raw.text ?? "");
  const text = cleanText(original);
  const author_name = cleanName(raw.author_name);
  const reply_text = cleanText(originalText(raw.reply_text ?? "").text);
  const source_date = cleanName(raw.date);
  // Dates are printed in the page's UI language, which may differ from the review's.
  const posted = resolvePostedAt(source_date, ctx.scrapedAt, ctx.pageLanguage ?? raw.language ?? null);
  const review_id =
    raw.id?.trim() ||
    derivedReviewId({ publisherKey: ctx.publisherKey, author_name, text, absolutePostedAt: posted?.absolute ? posted.postedAt : null });
  // The review's own language: the publisher's per-review tag, else the text itself. `<html lang>`
  // is the site's interface language (a German review on an English page is German), so it only
  // breaks an unreliable detection; a machine-translated text is shown in the page's language, so
  // there it says nothing about the original.
  const language = isoLanguage(raw.language) ?? detectLanguage(text, machineTranslated ? null : isoLanguage(ctx.pageLanguage));

  const reply = reply_text ? { text: reply_text, posted_at: resolvePostedAt(cleanName(raw.reply_date), ctx.scrapedAt, ctx.pageLanguage ?? raw.language ?? null)?.postedAt ?? null } : null;
  return {
    review_id,
    author_name,
    author_id: raw.author_id?.trim() || raw.author_url?.trim() || null,
    rating,
    text,
    url: raw.url?.trim() || ctx.pageUrl,
    // With no readable date the scrape time is the best bound we have: the review existed by then.
    posted_at: posted?.postedAt ?? ctx.scrapedAt,
    review_hash: reviewHash({ text, author_name, reply_text, review_id }),
    language,
    source_date,
    scraped_at: ctx.scrapedAt,
    ...(reply ? { owner_reply: reply } : {}),
  };
}

/** Normalizes the usable reviews of a page and drops the rest (see {@link isUsableReview}). */
export function normalizeReviews(raws: readonly RawReview[], ctx: NormalizeContext): Review[] {
  return raws.filter(isUsableReview).map((raw) => normalizeReview(raw, ctx));
}
