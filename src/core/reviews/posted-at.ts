import * as chrono from "chrono-node";
import { eastAsianPostedAt } from "./east-asian-dates";

/**
 * Turns a date as printed ("2024-03-03", "March 3, 2024", "3 weeks ago", "vor 2 Tagen") into
 * milliseconds since the epoch, UTC, resolving relative dates against the scrape time.
 *
 * - The page's language picks the parser (dates are printed in the page's UI language); English is
 *   always tried too. English numeric dates are month first ("03/04/2024" = March 4) except on
 *   British-style pages (en-GB, en-AU, ...), which use day first, as do all other languages.
 * - A calendar date without a time of day is midnight UTC of that date, so it does not depend on
 *   where the scraper runs. A relative date keeps the scrape's time of day.
 * - A year-less date ("15 марта", "March 3") that would lie after the scrape is the same day a year
 *   earlier (chrono picks the nearest such day, which can be next year's); any other date after the
 *   scrape is the scrape time: a review cannot be newer than the page it was read from.
 * - An ISO 8601 timestamp with more than millisecond precision ("…T12:34:56.123456+07:00", as
 *   Python back ends print it) is read to the millisecond with its offset kept.
 */
export interface PostedAt {
  postedAt: number;
  /** False for relative dates ("3 weeks ago"), whose resolved value drifts between scrapes. */
  absolute: boolean;
}

/**
 * Printed dates are short ("Edited 2 days ago", "14. März 2024 um 10:12"); longer text is not a
 * date and is never handed to chrono, whose many regexes get slow on long page-controlled input.
 */
export const MAX_DATE_TEXT = 100;

const LOCALES: Record<string, chrono.Chrono> = {
  de: chrono.de.casual,
  fr: chrono.fr.casual,
  ja: chrono.ja.casual,
  pt: chrono.pt.casual,
  nl: chrono.nl.casual,
  zh: chrono.zh.casual,
  ru: chrono.ru.casual,
  es: chrono.es.casual,
  uk: chrono.uk.casual,
  it: chrono.it.casual,
  sv: chrono.sv.casual,
  fi: chrono.fi.casual,
  vi: chrono.vi.casual,
  id: chrono.id.casual,
  ar: chrono.ar.casual,
};
const DAY_FIRST_ENGLISH = new Set(["gb", "au", "nz", "ie", "in", "za", "sg", "hk"]);

function parsersFor(languageTag: string | null): chrono.Chrono[] {
  const [language, region] = (languageTag ?? "").toLowerCase().split(/[-_]/);
  if (language === "en") return [DAY_FIRST_ENGLISH.has(region ?? "") ? chrono.en.GB : chrono.casual];
  const local = LOCALES[language ?? ""];
  return local ? [local, chrono.casual] : [chrono.casual];
}

/** An ISO 8601 timestamp's fraction beyond milliseconds, which chrono cannot read together with an offset. */
const SUB_MILLISECONDS = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3})\d+(?=Z|[+-]\d{2}:?\d{2}$|$)/;

/** The same instant a year earlier (a Feb 29 rolls on to Mar 1). */
function yearEarlier(time: number): number {
  const date = new Date(time);
  date.setUTCFullYear(date.getUTCFullYear() - 1);
  return date.getTime();
}

function isRelative(components: chrono.ParsedComponents): boolean {
  for (const tag of components.tags())
    if (tag.startsWith("result/relative") || tag.startsWith("casualReference/")) return true;
  return false;
}

export function resolvePostedAt(
  dateText: string | undefined,
  scrapedAt: number,
  languageTag: string | null,
): PostedAt | null {
  if (!dateText?.trim() || dateText.length > MAX_DATE_TEXT) return null;
  // Japanese and Korean forms first: chrono has no Korean parser and misreads Naver's "2.15.토".
  const eastAsian = eastAsianPostedAt(dateText, scrapedAt);
  if (eastAsian) return eastAsian;
  const reference = { instant: new Date(scrapedAt), timezone: 0 };
  for (const parser of parsersFor(languageTag)) {
    const [result] = parser.parse(dateText.replace(SUB_MILLISECONDS, "$1"), reference);
    if (!result) continue;
    const start = result.start;
    const relative = isRelative(start);
    let postedAt = start.date().getTime();
    if (!relative && !start.isCertain("hour")) {
      postedAt = Date.UTC(start.get("year") ?? 1970, (start.get("month") ?? 1) - 1, start.get("day") ?? 1);
    }
    if (postedAt > scrapedAt && !relative && !start.isCertain("year")) postedAt = yearEarlier(postedAt);
    return { postedAt: Math.min(postedAt, scrapedAt), absolute: !relative };
  }
  return null;
}
