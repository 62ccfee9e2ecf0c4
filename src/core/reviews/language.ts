import { eld } from "eld/extrasmall";

/**
 * Language codes are ISO 639-1, or `und` when they cannot be told. The extra-small eld dataset is
 * used: it is the one that fits a Worker's memory and bundle limits comfortably, and its accuracy on
 * sentence-length text is close to the larger ones.
 */
export const UNDETERMINED = "und";

// Codes ISO 639-1 withdrew but that old pages and Java-era locales still print.
const RENAMED: Record<string, string> = { iw: "he", in: "id", ji: "yi" };

/** "en-US", "EN_gb", "zh-Hant" → "en", "en", "zh"; null for anything without a two-letter language. */
export function isoLanguage(tag: string | null | undefined): string | null {
  const primary = tag?.trim().toLowerCase().split(/[-_]/)[0];
  if (!primary || !/^[a-z]{2}$/.test(primary)) return null;
  return RENAMED[primary] ?? primary;
}

/**
 * Detects the language of a text; `und` for empty, very short or ambiguous text. When detection is
 * not reliable, `tieBreaker` (the page's interface language) may settle it, but only if it is one
 * of the languages the text could be in: it picks among candidates, never overrides the text.
 */
export function detectLanguage(text: string, tieBreaker: string | null = null): string {
  if (!text.trim()) return UNDETERMINED;
  const result = eld.detect(text);
  if (result.language && result.isReliable()) return result.language;
  if (tieBreaker && Object.hasOwn(result.getScores(), tieBreaker)) return tieBreaker;
  return UNDETERMINED;
}
