import { eld } from "eld/extrasmall";

/**
 * Language codes are ISO 639-1, or `und` when they cannot be told. The extra-small eld dataset is
 * used: it is the one that fits a Worker's memory and bundle limits comfortably, and its accuracy on
 * sentence-length text is close to the larger ones.
 */
export const UNDETERMINED = "und";

// Codes ISO 639-1 withdrew but that old pages and Java-era locales still print.
const RENAMED: Record<string, string> = { iw: "he", in: "id", ji: "yi" };

/**
 * The 183 codes of ISO 639-1 (Library of Congress list, the two-letter column of ISO 639-2). A
 * publisher's own codes outside it (Booking's `xu` for an unknown language, `zz`, private-use tags)
 * say nothing about the review's language and count as absent.
 */
const ISO_639_1 = new Set(
  (
    "aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu " +
    "fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn " +
    "ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os " +
    "pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw " +
    "ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu"
  ).split(" "),
);

/**
 * "en-US", "EN_gb", "zh-Hant" → "en", "en", "zh"; null for anything without a two-letter language
 * from ISO 639-1 (withdrawn codes are mapped to their successors first).
 */
export function isoLanguage(tag: string | null | undefined): string | null {
  if (typeof tag !== "string") return null;
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  if (!primary || primary.length !== 2) return null;
  const code = RENAMED[primary] ?? primary;
  return ISO_639_1.has(code) ? code : null;
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
