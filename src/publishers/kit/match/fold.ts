/**
 * Text as the business matcher compares it: lower case, accents and other marks gone, letters that
 * Unicode does not decompose spelled out ("ß" → "ss", "ø" → "o", "ı" → "i"), `&` read as "and",
 * apostrophes dropped ("Tom's" → "toms"), and split into words of letters and digits in any script.
 */

/** Letters NFKD leaves whole, and the spelling both sides of a comparison agree on. */
const SPELLED_OUT: Readonly<Record<string, string>> = {
  ß: "ss",
  ı: "i",
  ø: "o",
  æ: "ae",
  œ: "oe",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  // Greek's word-final sigma is the same letter as σ.
  ς: "σ",
};
const SPELLED_OUT_RE = new RegExp(`[${Object.keys(SPELLED_OUT).join("")}]`, "g");

/**
 * Accents and vowel signs that writers leave out: the combining diacritics of Latin, Greek and
 * Cyrillic, Hebrew points and Arabic harakat (hamza included). Other marks stay: a kana's voicing
 * mark or an Indic vowel sign changes the word.
 */
const OPTIONAL_MARKS = /[\u0300-\u036f\u0591-\u05c7\u064b-\u065f\u0670]+/g;

/**
 * The folded text, still with its separators. Lower-casing first turns "ẞ" into "ß" and "İ" into
 * "i" plus a mark; composing again at the end keeps kana and Hangul whole.
 */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .replace(SPELLED_OUT_RE, (letter) => SPELLED_OUT[letter])
    .normalize("NFKD")
    .replace(OPTIONAL_MARKS, "")
    .normalize("NFC")
    .replace(/&/g, " and ")
    .replace(/['’`ʼ]/g, "");
}

/** The folded words of a text: letters (with the marks that belong to them) and digits of any script. */
export function words(text: string | null | undefined): string[] {
  return fold(text ?? "")
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter(Boolean);
}
