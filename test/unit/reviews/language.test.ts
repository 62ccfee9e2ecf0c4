import { describe, expect, it } from "vitest";
import { normalizeReview, type NormalizeContext } from "../../../src/core/reviews";
import { isoLanguage } from "../../../src/core/reviews/language";

const ctx: NormalizeContext = {
  publisherKey: "example.com",
  pageUrl: "https://example.com/biz/blue-door",
  scrapedAt: Date.UTC(2025, 5, 15),
  pageLanguage: null,
};
const GERMAN = "Sehr gutes Essen und ein freundliches Personal, wir kommen gerne wieder.";

describe("publisher language codes: only ISO 639-1 passes", () => {
  it.each([
    ["en", "en"],
    ["EN-us", "en"],
    ["pt_BR", "pt"],
    ["zh-Hant", "zh"],
    [" de ", "de"],
    ["iw", "he"], // withdrawn, mapped to its successor
    ["in", "id"],
    ["ji", "yi"],
    ["zu", "zu"],
    ["aa", "aa"],
    ["xu", null], // Booking's code for a language it does not know
    ["zz", null],
    ["qa", null], // ISO 639 private-use range
    ["sh", null], // deprecated Serbo-Croatian, no longer in the list
    ["eng", null], // ISO 639-2/3, not 639-1
    ["e", null],
    ["", null],
    ["-", null],
    ["x-klingon", null],
    [null, null],
    [undefined, null],
  ])("%j → %j", (tag, expected) => {
    expect(isoLanguage(tag)).toBe(expected);
  });

  it.each([
    ["xu", "de"],
    ["zz", "de"],
    ["de", "de"],
    ["fr", "fr"], // a valid publisher code wins over detection, as docs/architecture.md says
  ])("a review tagged %j with German text gets language %j", (tag, expected) => {
    expect(
      normalizeReview({ author_name: "Ann", rating: { value: 5 }, text: GERMAN, language: tag }, ctx)
        .language,
    ).toBe(expected);
  });

  it("a code outside the list with no text to detect from ends as und", () => {
    expect(
      normalizeReview({ author_name: "Ann", rating: { value: 5 }, text: "", language: "xu" }, ctx).language,
    ).toBe("und");
  });
});
