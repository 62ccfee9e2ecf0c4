/**
 * English dates as review pages print them, turned into ISO dates the date resolver reads exactly
 * (src/core/reviews/posted-at.ts): "Aug 29, 2022", "October 14, 2021", "Sept. 3, 2025" and, where a
 * page prints only the month, "April 2026". Anything else is kept as printed, for the resolver.
 */
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const DAY_DATE = /^([A-Za-z]{3,9})\.? (\d{1,2}), (\d{4})$/;
const MONTH_DATE = /^([A-Za-z]{3,9})\.?\s+(\d{4})$/;

/** 1–12 for a month's name or an abbreviation of three letters or more ("Sep", "Sept"); else 0. */
export function monthNumber(word: string): number {
  const lower = word.toLowerCase();
  return MONTHS.findIndex((month) => month.startsWith(lower)) + 1;
}

const pad = (n: number | string) => String(n).padStart(2, "0");

/** "Aug 29, 2022" → "2022-08-29"; anything else is kept as printed (trimmed). */
export function printedDate(value: string): string {
  const match = DAY_DATE.exec(value.trim());
  const month = match ? monthNumber(match[1]) : 0;
  return match && month ? `${match[3]}-${pad(month)}-${pad(match[2])}` : value.trim();
}

/** "April 2026" → "2026-04-01" (a page that prints only the month); anything else as printed. */
export function printedMonth(value: string): string {
  const match = MONTH_DATE.exec(value.trim());
  const month = match ? monthNumber(match[1]) : 0;
  return match && month ? `${match[2]}-${pad(month)}-01` : value.trim();
}
