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
