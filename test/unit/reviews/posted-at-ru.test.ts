/** Russian printed dates (2GIS, Yandex Maps) and the ISO timestamps their APIs give, read like any other. */
import { describe, expect, it } from "vitest";
import { resolvePostedAt } from "../../../src/core/reviews/posted-at";

const SCRAPED_AT = Date.UTC(2026, 10, 27, 12, 0); // 2026-11-27T12:00:00Z
const DAY = 86_400_000;

describe("posted_at from Russian dates", () => {
  it.each([
    ["15 марта 2024", Date.UTC(2024, 2, 15)],
    ["1 января 2025 г.", Date.UTC(2025, 0, 1)],
    ["14 февраля 2025 в 10:12", Date.UTC(2025, 1, 14, 10, 12)],
    // Year-less: the latest such day not after the scrape, never next year's.
    ["15 марта", Date.UTC(2026, 2, 15)],
    ["5 июня", Date.UTC(2026, 5, 5)],
    ["25 ноября", Date.UTC(2026, 10, 25)],
    ["28 декабря", Date.UTC(2025, 11, 28)],
  ])("absolute %s", (text, expected) => {
    expect(resolvePostedAt(text, SCRAPED_AT, "ru")).toEqual({ postedAt: expected, absolute: true });
  });

  it.each([
    ["3 дня назад", SCRAPED_AT - 3 * DAY],
    ["неделю назад", SCRAPED_AT - 7 * DAY],
    ["2 недели назад", SCRAPED_AT - 14 * DAY],
    ["вчера", SCRAPED_AT - DAY],
    ["месяц назад", Date.UTC(2026, 9, 27, 12, 0)],
    ["год назад", Date.UTC(2025, 10, 27, 12, 0)],
  ])("relative %s against the scrape time", (text, expected) => {
    expect(resolvePostedAt(text, SCRAPED_AT, "ru-RU")).toEqual({ postedAt: expected, absolute: false });
  });

  it.each([
    // 2GIS's date_created: microseconds and the branch's offset.
    ["2026-11-20T17:53:17.016371+07:00", Date.UTC(2026, 10, 20, 10, 53, 17, 16)],
    ["2025-10-05T09:15:42.817000+03:00", Date.UTC(2025, 9, 5, 6, 15, 42, 817)],
    // Yandex's updatedTime.
    ["2026-11-18T09:30:00.000Z", Date.UTC(2026, 10, 18, 9, 30)],
  ])("ISO timestamp %s keeps its offset", (text, expected) => {
    expect(resolvePostedAt(text, SCRAPED_AT, "ru")).toEqual({ postedAt: expected, absolute: true });
  });

  it("a dated year after the scrape is still the scrape time, not a year earlier", () => {
    expect(resolvePostedAt("15 марта 2027", SCRAPED_AT, "ru")?.postedAt).toBe(SCRAPED_AT);
  });
});
