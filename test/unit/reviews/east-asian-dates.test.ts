import { describe, expect, it } from "vitest";
import { eastAsianPostedAt, eastAsianVisitDate } from "../../../src/core/reviews/east-asian-dates";
import { resolvePostedAt } from "../../../src/core/reviews/posted-at";

// Friday 2026-03-20, 09:15 UTC.
const SCRAPED_AT = Date.UTC(2026, 2, 20, 9, 15);
const DAY = 86_400_000;

describe("Japanese and Korean printed dates", () => {
  it.each([
    ["2025/03/14", Date.UTC(2025, 2, 14)],
    ["2025/3/4", Date.UTC(2025, 2, 4)],
    ["2025年3月14日", Date.UTC(2025, 2, 14)],
    ["2025年3月14日(金)", Date.UTC(2025, 2, 14)],
    ["２０２５年３月１４日", Date.UTC(2025, 2, 14)],
    ["2025/03/14 更新", Date.UTC(2025, 2, 14)],
    ["2025年3月", Date.UTC(2025, 2, 1)],
    ["2025/03訪問", Date.UTC(2025, 2, 1)],
    ["2024년 2월 15일", Date.UTC(2024, 1, 15)],
    ["2024년 2월 15일 목요일", Date.UTC(2024, 1, 15)],
    ["2024.2.15.", Date.UTC(2024, 1, 15)],
    ["24.2.15.목", Date.UTC(2024, 1, 15)],
    // Naver's year-less visit date: this year, a Sunday (2026-03-15).
    ["3.15.일", Date.UTC(2026, 2, 15)],
    // 2026-03-21 is after the scrape: last year's, a Friday (2025-03-21).
    ["3.21.금", Date.UTC(2025, 2, 21)],
    // 2.15 was a Saturday in 2025, not in 2026 (a Sunday): the weekday picks the year.
    ["2.15.토", Date.UTC(2025, 1, 15)],
    ["2.15.(토)", Date.UTC(2025, 1, 15)],
  ])("absolute %s", (text, expected) => {
    expect(eastAsianPostedAt(text, SCRAPED_AT)).toEqual({ postedAt: expected, absolute: true });
    // The date resolver every review goes through takes the same reading, whatever the page's language.
    expect(resolvePostedAt(text, SCRAPED_AT, "ja")).toEqual({ postedAt: expected, absolute: true });
    expect(resolvePostedAt(text, SCRAPED_AT, "ko")).toEqual({ postedAt: expected, absolute: true });
  });

  it.each([
    ["3日前", SCRAPED_AT - 3 * DAY],
    ["2時間前", SCRAPED_AT - 2 * 3_600_000],
    ["1週間前", SCRAPED_AT - 7 * DAY],
    ["2ヶ月前", Date.UTC(2026, 0, 20, 9, 15)],
    ["1年前", Date.UTC(2025, 2, 20, 9, 15)],
    ["昨日", SCRAPED_AT - DAY],
    ["一昨日", SCRAPED_AT - 2 * DAY],
    ["今日", SCRAPED_AT],
    ["3일 전", SCRAPED_AT - 3 * DAY],
    ["5시간 전", SCRAPED_AT - 5 * 3_600_000],
    ["2주 전", SCRAPED_AT - 14 * DAY],
    ["1개월 전", Date.UTC(2026, 1, 20, 9, 15)],
    ["어제", SCRAPED_AT - DAY],
    ["그저께", SCRAPED_AT - 2 * DAY],
    ["오늘", SCRAPED_AT],
  ])("relative %s", (text, expected) => {
    expect(eastAsianPostedAt(text, SCRAPED_AT)).toEqual({ postedAt: expected, absolute: false });
    expect(resolvePostedAt(text, SCRAPED_AT, "ko")).toEqual({ postedAt: expected, absolute: false });
  });

  it.each([
    "2025/02/30",
    "2025年13月",
    "13.40.토",
    "2.15.",
    "3日後",
    "2025/03/14 訪問 とても美味しかった",
    "1".repeat(500),
    "",
  ])("not a date: %j", (text) => {
    expect(eastAsianPostedAt(text, SCRAPED_AT)).toBeNull();
  });

  it("a date after the scrape is the scrape time", () => {
    expect(eastAsianPostedAt("2026/12/24", SCRAPED_AT)).toEqual({ postedAt: SCRAPED_AT, absolute: true });
  });

  it.each([
    ["2025/03訪問", "2025-03"],
    ["2025年3月訪問", "2025-03"],
    ["2025/03/14", "2025-03-14"],
    ["2.15.토", "2025-02-15"],
    ["24.12.1.일", "2024-12-01"],
    ["2024년 2월 방문", "2024-02"],
    ["yesterday", null],
    ["어제", null],
    [undefined, null],
  ])("visit date %j → %j", (text, expected) => {
    expect(eastAsianVisitDate(text, SCRAPED_AT)).toBe(expected);
  });
});
