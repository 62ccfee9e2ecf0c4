import { describe, expect, it } from "vitest";
import { resolvePostedAt } from "../../../src/core/reviews/posted-at";

const SCRAPED_AT = Date.UTC(2025, 5, 15, 10, 30); // 2025-06-15T10:30:00Z
const DAY = 86_400_000;

describe("posted_at from the printed date", () => {
  it.each([
    ["2024-03-03", null, Date.UTC(2024, 2, 3)],
    ["March 3, 2024", null, Date.UTC(2024, 2, 3)],
    ["3 March 2024", "en-GB", Date.UTC(2024, 2, 3)],
    ["03/04/2024", "en-US", Date.UTC(2024, 2, 4)],
    ["03/04/2024", "en-GB", Date.UTC(2024, 3, 3)],
    ["03.04.2024", "de-DE", Date.UTC(2024, 3, 3)],
    ["3 mars 2024", "fr", Date.UTC(2024, 2, 3)],
    ["2024-03-03T10:00:00+02:00", null, Date.UTC(2024, 2, 3, 8)],
    ["2024-03-03T10:00:00Z", "de", Date.UTC(2024, 2, 3, 10)],
    // Zomato's review `timestamp` once a review is older than about a month.
    ["Oct 29, 2023", null, Date.UTC(2023, 9, 29)],
  ])("absolute %s (page %s)", (text, language, expected) => {
    expect(resolvePostedAt(text, SCRAPED_AT, language)).toEqual({ postedAt: expected, absolute: true });
  });

  it.each([
    ["3 weeks ago", null, SCRAPED_AT - 21 * DAY],
    ["a month ago", null, Date.UTC(2025, 4, 15, 10, 30)],
    ["a year ago", "en", Date.UTC(2024, 5, 15, 10, 30)],
    ["yesterday", null, SCRAPED_AT - DAY],
    ["Edited 2 days ago", null, SCRAPED_AT - 2 * DAY],
    ["2 hours ago", null, SCRAPED_AT - 2 * 3_600_000],
    ["vor 3 Wochen", "de", SCRAPED_AT - 21 * DAY],
    ["il y a 2 jours", "fr-FR", SCRAPED_AT - 2 * DAY],
    // Zomato's review `timestamp` for recent reviews (zomato.com, webroutes/reviews/loadMore).
    ["one month ago", null, Date.UTC(2025, 4, 15, 10, 30)],
    ["23 hours ago", null, SCRAPED_AT - 23 * 3_600_000],
    ["5 minutes ago", null, SCRAPED_AT - 5 * 60_000],
    ["just now", null, SCRAPED_AT],
  ])("relative %s (page %s) against the scrape time", (text, language, expected) => {
    expect(resolvePostedAt(text, SCRAPED_AT, language)).toEqual({ postedAt: expected, absolute: false });
  });

  it("English is tried when the page language's parser finds nothing", () => {
    expect(resolvePostedAt("2 days ago", SCRAPED_AT, "de")).toEqual({
      postedAt: SCRAPED_AT - 2 * DAY,
      absolute: false,
    });
  });

  it("a date after the scrape is the scrape time", () => {
    expect(resolvePostedAt("2030-01-01", SCRAPED_AT, null)?.postedAt).toBe(SCRAPED_AT);
  });

  it.each([undefined, "", "   ", "no date here"])("nothing parseable (%s) is null", (text) => {
    expect(resolvePostedAt(text, SCRAPED_AT, "en")).toBeNull();
  });
});
