import { alpha3Country } from "../countries";
import type { Review } from "./review";
import { detectLanguage, isoLanguage } from "./language";
import { originalText } from "./machine-translation";
import { resolvePostedAt } from "./posted-at";
import { fiveStarRating } from "./rating";
import type { RawReview } from "./raw-review";
import { derivedReviewId } from "./review-id";
import { reviewHash } from "./review-hash";
import { MAX_DATE_TEXT } from "./posted-at";
import { clip, cleanName, cleanText } from "./text";

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
 * Limits on scraped fields, applied before any regex, date parser or language detector sees them
 * (page content is hostile input; the rating and date parsers also bound their own input). Longer
 * text and names are cut; an id that long is no id (a derived one is used).
 */
export const MAX_TEXT = 50_000;
export const MAX_NAME = 1_000;
export const MAX_ID = 512;
export const MAX_URL = 2_048;
const MAX_LANGUAGE_TAG = 35;
/** "YYYY-MM-DDThh:mm:ss.sss+hh:mm" and some slack; a longer visit date is no date. */
const MAX_VISIT_DATE = 40;
/** A country code with spaces around it; anything longer is no code. */
const MAX_COUNTRY = 8;

function bounded(raw: RawReview): RawReview {
  return {
    ...raw,
    id: raw.id !== undefined && raw.id.length > MAX_ID ? undefined : raw.id,
    author_name: clip(raw.author_name, MAX_NAME),
    author_id: raw.author_id !== undefined && raw.author_id.length > MAX_URL ? undefined : raw.author_id,
    author_url: raw.author_url !== undefined && raw.author_url.length > MAX_URL ? undefined : raw.author_url,
    text: clip(raw.text, MAX_TEXT),
    reply_text: clip(raw.reply_text, MAX_TEXT),
    url: raw.url !== undefined && raw.url.length > MAX_URL ? undefined : raw.url,
    date: raw.date !== undefined && raw.date.length > MAX_DATE_TEXT ? undefined : raw.date,
    language: raw.language !== undefined && raw.language.length > MAX_LANGUAGE_TAG ? undefined : raw.language,
    visit_date:
      raw.visit_date !== undefined && raw.visit_date.length > MAX_VISIT_DATE ? undefined : raw.visit_date,
    author_country:
      raw.author_country !== undefined && raw.author_country.length > MAX_COUNTRY
        ? undefined
        : raw.author_country,
  };
}

/** Most photos, badges and sub-ratings kept per review; a page cannot make a review grow without bound. */
const MAX_LIST = 50;
const MAX_BADGE = 64;

/** The optional fields of issue 36, each present only where the publisher gave a usable value. */
function extras(raw: RawReview): Partial<Review> {
  const title = cleanName(clip(raw.title, MAX_NAME));
  const likes = wholeCount(raw.likes);
  const badges = (raw.author_badges ?? [])
    .slice(0, MAX_LIST)
    .map((badge) => cleanName(clip(badge, MAX_BADGE)))
    .filter(Boolean);
  const photos = (raw.photos ?? [])
    .slice(0, MAX_LIST)
    .map((url) => (url.length > MAX_URL ? null : webUrl(url)))
    .filter((url): url is string => url !== null);
  const subRatings = Object.entries(raw.sub_ratings ?? {})
    .slice(0, MAX_LIST)
    .map(
      ([name, value]) =>
        [cleanName(clip(name, MAX_BADGE)), fiveStarRating({ ...raw.rating, value })] as const,
    )
    .filter((entry): entry is readonly [string, number] => Boolean(entry[0]) && entry[1] !== null);
  const translated = cleanText(clip(raw.translated_text, MAX_TEXT));
  const translatedLanguage = isoLanguage(raw.translated_language);
  return {
    ...(title ? { title } : {}),
    ...(badges.length ? { author_badges: badges } : {}),
    ...(photos.length ? { photos } : {}),
    ...(likes !== null ? { likes } : {}),
    ...(subRatings.length ? { sub_ratings: Object.fromEntries(subRatings) } : {}),
    ...(translated && translatedLanguage
      ? { translated_text: translated, translated_language: translatedLanguage }
      : {}),
  };
}

/** A reviewer's count as the API shows it: a whole number from 0 up, or null (left out). */
function wholeCount(value: number | undefined): number | null {
  return value !== undefined && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/**
 * `visited_at`: UTC midnight of the first day of the stay or visit, from "YYYY-MM-DD" (a time after
 * it is ignored: the day is what the publisher states) or "YYYY-MM" (the first of that month). Null
 * for anything else, including dates that do not exist ("2026-02-30").
 */
export function visitedAt(value: string | undefined): number | null {
  const match = /^(\d{4})-(\d{2})(?:-(\d{2})(?:T[\d:.]+(?:Z|[+-]\d\d:?\d\d)?)?)?$/.exec(value?.trim() ?? "");
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3] ?? "1")];
  const time = Date.UTC(year, month - 1, day);
  const date = new Date(time);
  // Date.UTC rolls over ("2026-02-30" would become March 2): only a date that exists is kept.
  if (
    year < 1900 ||
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  )
    return null;
  return time;
}

/**
 * Links clients may render: only absolute http(s) URLs, as the URL parser normalizes them. A page
 * can put `javascript:` or `data:` URLs in its markup (stored XSS for clients that render links).
 */
function webUrl(value: string | undefined): string | null {
  const url = value?.trim() ? URL.parse(value.trim()) : null;
  return url && (url.protocol === "https:" || url.protocol === "http:") && url.hostname ? url.href : null;
}

/**
 * The author's id as the publisher gives it, or their profile URL. An opaque id (no ":" and no
 * whitespace or control characters, so no URL scheme however it is spelled) is kept as it is;
 * anything else must be an absolute http(s) URL, or the author has no id (null).
 */
function authorId(raw: RawReview): string | null {
  for (const candidate of [raw.author_id?.trim(), raw.author_url?.trim()]) {
    if (!candidate) continue;
    // A plain id has no scheme separator, whitespace or control characters; anything else must be a web URL.
    // eslint-disable-next-line no-control-regex
    if (!/[:\s\u0000-\u001f\u007f]/.test(candidate)) return candidate;
    const url = webUrl(candidate);
    if (url) return url;
  }
  return null;
}

/**
 * A review is kept when it has a rating that maps onto 1..5 (the API's rating is required) and
 * something to tell it apart by: text, an author name or the publisher's id. Anything else is
 * page furniture (an empty template, a rating widget) rather than a review.
 */
export function isUsableReview(page: RawReview): boolean {
  const raw = bounded(page);
  if (fiveStarRating(raw.rating) === null) return false;
  return Boolean(cleanText(raw.text) || cleanName(raw.author_name) || raw.id?.trim());
}

export function normalizeReview(page: RawReview, ctx: NormalizeContext): Review {
  const raw = bounded(page);
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
    derivedReviewId({
      publisherKey: ctx.publisherKey,
      author_name,
      text,
      absolutePostedAt: posted?.absolute ? posted.postedAt : null,
    });
  // The review's own language: the publisher's per-review tag, else the text itself. `<html lang>`
  // is the site's interface language (a German review on an English page is German), so it only
  // breaks an unreliable detection; a machine-translated text is shown in the page's language, so
  // there it says nothing about the original.
  const language =
    isoLanguage(raw.language) ??
    detectLanguage(text, machineTranslated ? null : isoLanguage(ctx.pageLanguage));

  const author_country = raw.author_country ? alpha3Country(raw.author_country) : null;
  const visited_at = visitedAt(raw.visit_date);
  const author_review_count = wholeCount(raw.author_review_count);
  const author_photo_count = wholeCount(raw.author_photo_count);

  const reply = reply_text
    ? {
        text: reply_text,
        posted_at:
          resolvePostedAt(cleanName(raw.reply_date), ctx.scrapedAt, ctx.pageLanguage ?? raw.language ?? null)
            ?.postedAt ?? null,
      }
    : null;
  return {
    review_id,
    author_name,
    author_id: authorId(raw),
    rating,
    text,
    // A review link that is not an absolute http(s) URL is replaced by the page it was read from.
    url: webUrl(raw.url) ?? ctx.pageUrl,
    // With no readable date the scrape time is the best bound we have: the review existed by then.
    posted_at: posted?.postedAt ?? ctx.scrapedAt,
    review_hash: reviewHash({ text, author_name, reply_text, review_id }),
    language,
    source_date,
    scraped_at: ctx.scrapedAt,
    // Optional, like owner_reply: absent when the publisher does not give them; never hashed.
    ...(author_country ? { author_country } : {}),
    ...(visited_at !== null ? { visited_at } : {}),
    ...(author_review_count !== null ? { author_review_count } : {}),
    ...(author_photo_count !== null ? { author_photo_count } : {}),
    ...extras(raw),
    ...(reply ? { owner_reply: reply } : {}),
  };
}

/** Normalizes the usable reviews of a page and drops the rest (see {@link isUsableReview}). */
export function normalizeReviews(raws: readonly RawReview[], ctx: NormalizeContext): Review[] {
  return raws.filter(isUsableReview).map((raw) => normalizeReview(raw, ctx));
}
