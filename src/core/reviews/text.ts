/**
 * Whitespace cleanup for scraped text. Review text keeps its line breaks (reviewers use paragraphs)
 * but loses layout noise: indentation, runs of spaces, more than one blank line in a row.
 * Names are single-line.
 */
const LINE_BREAKS = /\r\n?|[\u2028\u2029]/g;
const INLINE_SPACE = /[^\S\n]+/g;

export function cleanText(value: string | undefined): string {
  if (!value) return "";
  return value
    .replace(LINE_BREAKS, "\n")
    .split("\n")
    .map((line) => line.replace(INLINE_SPACE, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

export function cleanName(value: string | undefined): string {
  return value ? value.replace(/\s+/g, " ").trim() : "";
}

/**
 * At most `max` UTF-16 units of page text, cut at a character boundary. Scraped fields are hostile
 * input: each is bounded before any regex or parser sees it (see MAX_* in normalize.ts).
 */
export function clip(value: string | undefined, max: number): string | undefined {
  if (value === undefined || value.length <= max) return value;
  const last = value.charCodeAt(max - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? max - 1 : max; // never half a surrogate pair
  return value.slice(0, end);
}
