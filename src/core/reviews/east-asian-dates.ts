/**
 * Japanese and Korean dates as review sites print them, which chrono reads only in part (it has no
 * Korean parser, and Naver's year-less "2.15.토" is no form any general parser knows):
 *
 * - calendar dates, year first: "2025/03/14", "2025年3月14日", "2024년 2월 15일", "2024.2.15.", with an
 *   optional weekday ("(金)", "토") and a trailing word ("訪問", "投稿", "更新", "방문");
 * - months: "2025年3月", "2025/03訪問", "2024년 2월";
 * - Naver's short forms: "24.2.15.목" (two-digit year) and "2.15.토" (this year, or the latest year
 *   the date is not after the scrape and, when the weekday is printed, falls on that weekday);
 * - relative dates: "3日前", "2時間前", "昨日", "一昨日", "今日"; "3일 전", "2시간 전", "어제", "그저께",
 *   "오늘".
 *
 * Pure: every function takes the scrape time, and page text is bounded before any regex sees it.
 */
import type { PostedAt } from "./posted-at";

/** Longer text is no printed date ("2025年3月14日(金) 訪問" is 17 characters). */
const MAX_TEXT = 40;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A calendar day or month as printed; `day` null for a month. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number | null;
}

// A weekday as Japanese ("(金)", "（土）") or Korean ("토", "(토)", "토요일") pages print it after a date.
const WEEKDAY = String.raw`\s*[(（]?\s*([月火水木金土日]|[월화수목금토일])(?:요일|曜日?)?\s*[)）]?`;
/** Words printed after a date on these sites: visited, posted, updated, edited. */
const TRAILER = String.raw`\s*(?:訪問|投稿|更新|編集|방문|작성|수정)?\s*`;

const FULL = new RegExp(
  String.raw`^(\d{4})\s*(?:[/.\-]|年)\s*(\d{1,2})\s*(?:[/.\-]|月)\s*(\d{1,2})\s*(?:日|\.)?(?:${WEEKDAY})?${TRAILER}$`,
);
const KOREAN_FULL = new RegExp(
  String.raw`^(\d{4})\s*년\s*(\d{1,2})\s*월\s*(\d{1,2})\s*일(?:${WEEKDAY})?${TRAILER}$`,
);
const MONTH = new RegExp(String.raw`^(\d{4})\s*(?:[/.\-]|年)\s*(\d{1,2})\s*(?:月|\.)?${TRAILER}$`);
const KOREAN_MONTH = new RegExp(String.raw`^(\d{4})\s*년\s*(\d{1,2})\s*월${TRAILER}$`);
/** Naver: "24.2.15.목" (a two-digit year) and "2.15.토" (none); the weekday is what marks them as dates. */
const SHORT_YEAR = new RegExp(String.raw`^(\d{2})\.(\d{1,2})\.(\d{1,2})\.?${WEEKDAY}${TRAILER}$`);
const NO_YEAR = new RegExp(String.raw`^(\d{1,2})\.(\d{1,2})\.?${WEEKDAY}${TRAILER}$`);

const JAPANESE_DAYS = "日月火水木金土";
const KOREAN_DAYS = "일월화수목금토";

function weekdayOf(mark: string | undefined): number | null {
  if (!mark) return null;
  // "日" and "月" are also Sunday and Monday in Japanese; Korean marks are Hangul, never ambiguous.
  const korean = KOREAN_DAYS.indexOf(mark);
  if (korean >= 0 && /[가-힣]/.test(mark)) return korean;
  const japanese = JAPANESE_DAYS.indexOf(mark);
  return japanese >= 0 ? japanese : null;
}

function exists(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1900 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

const scrapeYear = (scrapedAt: number) => new Date(scrapedAt).getUTCFullYear();

/**
 * The year of a year-less day: the latest year (from the scrape's back to six before it) in which
 * the day exists, is not after the scrape and, when a weekday is printed, falls on it; without a
 * matching weekday in those years, the latest year the day is not after the scrape.
 */
function yearOf(month: number, day: number, weekday: number | null, scrapedAt: number): number | null {
  const latest = scrapeYear(scrapedAt);
  let fallback: number | null = null;
  for (let year = latest; year >= latest - 6; year--) {
    if (!exists(year, month, day) || Date.UTC(year, month - 1, day) > scrapedAt) continue;
    fallback ??= year;
    if (weekday === null || new Date(Date.UTC(year, month - 1, day)).getUTCDay() === weekday) return year;
  }
  return fallback;
}

/** The calendar day or month a printed date names, or null when it is none of the forms above. */
export function eastAsianCalendarDate(text: string | undefined, scrapedAt: number): CalendarDate | null {
  const value = text?.normalize("NFKC").trim() ?? "";
  if (!value || value.length > MAX_TEXT) return null;
  const full = FULL.exec(value) ?? KOREAN_FULL.exec(value);
  if (full) return day(Number(full[1]), Number(full[2]), Number(full[3]));
  const month = MONTH.exec(value) ?? KOREAN_MONTH.exec(value);
  if (month) {
    const [year, m] = [Number(month[1]), Number(month[2])];
    return year >= 1900 && m >= 1 && m <= 12 ? { year, month: m, day: null } : null;
  }
  const short = SHORT_YEAR.exec(value);
  if (short) return day(2000 + Number(short[1]), Number(short[2]), Number(short[3]));
  const bare = NO_YEAR.exec(value);
  if (bare) {
    const [m, d] = [Number(bare[1]), Number(bare[2])];
    const year = yearOf(m, d, weekdayOf(bare[3]), scrapedAt);
    return year === null ? null : { year, month: m, day: d };
  }
  return null;
}

function day(year: number, month: number, d: number): CalendarDate | null {
  return exists(year, month, d) ? { year, month, day: d } : null;
}

const RELATIVE_UNITS: Record<string, number | "month" | "year"> = {
  秒: 1000,
  分: MINUTE,
  時間: HOUR,
  日: DAY,
  週間: 7 * DAY,
  週: 7 * DAY,
  ヶ月: "month",
  か月: "month",
  カ月: "month",
  ヵ月: "month",
  箇月: "month",
  年: "year",
  초: 1000,
  분: MINUTE,
  시간: HOUR,
  일: DAY,
  주: 7 * DAY,
  개월: "month",
  달: "month",
  년: "year",
};
const RELATIVE =
  /^(\d{1,4})\s*(秒|分|時間|日|週間|週|ヶ月|か月|カ月|ヵ月|箇月|年|초|분|시간|일|주|개월|달|년)\s*(?:前|전)$/;
const NAMED_DAYS: Record<string, number> = {
  今日: 0,
  本日: 0,
  昨日: 1,
  一昨日: 2,
  おととい: 2,
  오늘: 0,
  어제: 1,
  그제: 2,
  그저께: 2,
};

function monthsBefore(scrapedAt: number, months: number): number {
  const date = new Date(scrapedAt);
  date.setUTCMonth(date.getUTCMonth() - months);
  return date.getTime();
}

/** "3日前", "어제", "2시간 전": the instant it names against the scrape time, or null. */
function relative(value: string, scrapedAt: number): number | null {
  if (value in NAMED_DAYS) return scrapedAt - NAMED_DAYS[value] * DAY;
  const match = RELATIVE.exec(value);
  if (!match) return null;
  const count = Number(match[1]);
  const unit = RELATIVE_UNITS[match[2]];
  if (unit === "month") return monthsBefore(scrapedAt, count);
  if (unit === "year") return monthsBefore(scrapedAt, 12 * count);
  return scrapedAt - count * unit;
}

/**
 * posted_at from a Japanese or Korean printed date: a calendar day is midnight UTC of that day, a
 * month its first day, a relative date keeps the scrape's time of day (and is not `absolute`).
 * Never after the scrape. Null when the text is none of these forms (other parsers may still read it).
 */
export function eastAsianPostedAt(text: string | undefined, scrapedAt: number): PostedAt | null {
  const value = text?.normalize("NFKC").trim() ?? "";
  if (!value || value.length > MAX_TEXT) return null;
  const ago = relative(value, scrapedAt);
  if (ago !== null) return { postedAt: Math.min(ago, scrapedAt), absolute: false };
  const date = eastAsianCalendarDate(value, scrapedAt);
  if (!date) return null;
  return {
    postedAt: Math.min(Date.UTC(date.year, date.month - 1, date.day ?? 1), scrapedAt),
    absolute: true,
  };
}

/**
 * A visit date as the review's `visit_date` takes it: "YYYY-MM-DD", or "YYYY-MM" where the site
 * prints only the month ("2025/03訪問"); null when the text names no calendar date.
 */
export function eastAsianVisitDate(text: string | undefined, scrapedAt: number): string | null {
  const date = eastAsianCalendarDate(text, scrapedAt);
  if (!date) return null;
  const month = `${date.year}-${String(date.month).padStart(2, "0")}`;
  return date.day === null ? month : `${month}-${String(date.day).padStart(2, "0")}`;
}
