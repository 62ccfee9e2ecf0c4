/**
 * JSON text for strings exactly as Go's encoding/json (Go 1.22 and later) marshals them, because
 * review hashes must match the ones existing clients computed with a Go service.
 *
 * Go escapes `<`, `>`, `&`, U+2028 and U+2029 as \u00XX / \u20XX (HTML-safe output), writes \b \f
 * \n \r \t as short escapes (\b and \f since Go 1.22), every other control character as \u00XX
 * with lower-case hex, and everything else, including non-ASCII, as raw UTF-8. A lone UTF-16
 * surrogate cannot reach Go as text; the UTF-8 encoder used for hashing turns it into U+FFFD, which
 * is what Go's decoder would have produced.
 */
const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

// Control characters are exactly what Go escapes, so the class names them on purpose.
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\<>&\u0000-\u001f\u2028\u2029]/g;

function escapeChar(ch: string): string {
  return SHORT_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

export function goJsonString(value: string): string {
  return `"${value.replace(NEEDS_ESCAPE, escapeChar)}"`;
}

/** `json.Marshal([]string{...})`: no spaces between elements. */
export function goJsonStringArray(values: readonly string[]): string {
  return `[${values.map(goJsonString).join(",")}]`;
}
