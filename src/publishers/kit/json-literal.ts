/**
 * The JSON object or array literal that starts at `start` in a page's text (its `{` or `[`),
 * brackets matched outside strings, or null when it is not closed. Pages embed their data in
 * script assignments (`window.X = {...};`) that no parser delimits for us.
 */
export function jsonLiteralAt(text: string, start: number): string | null {
  const open = text[start];
  if (start < 0 || (open !== "{" && open !== "[")) return null;
  const close = open === "{" ? "}" : "]";
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === open) depth++;
    else if (c === close && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}
