/**
 * Bounded ways to read values out of a publisher's page text. Pages are up to several megabytes of
 * text the publisher controls; a regex such as `<tag[^>]*…` or `<script[^>]*>([\s\S]*?)</script>`
 * rescans the rest of the page at every unclosed opening, which a hostile page turns into hours of
 * CPU. Instead: HTMLRewriter (a streaming parser, linear in the page) for elements and script
 * texts, and `indexOf` plus short slices of fixed length for inline values.
 */

/** The text of every `<script>` matching `selector`, in document order (HTMLRewriter, one pass). */
export async function scriptTexts(html: string, selector: string): Promise<string[]> {
  const texts: string[] = [];
  let open = false;
  const rewriter = new HTMLRewriter().on(selector, {
    element() {
      texts.push("");
      open = true;
    },
    text(chunk) {
      if (open) texts[texts.length - 1] += chunk.text;
      if (chunk.lastInTextNode) open = false;
    },
  });
  await rewriter
    .transform(new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }))
    .arrayBuffer();
  return texts;
}

/** Attributes of every element matching `selector`, in document order (HTMLRewriter, one pass). */
export async function elementAttributes(
  html: string,
  selector: string,
  names: readonly string[],
): Promise<Record<string, string | null>[]> {
  const found: Record<string, string | null>[] = [];
  await new HTMLRewriter()
    .on(selector, {
      element(el) {
        found.push(Object.fromEntries(names.map((name) => [name, el.getAttribute(name)])));
      },
    })
    .transform(new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }))
    .arrayBuffer();
  return found;
}

/** At most this many occurrences of one marker are looked at: real pages carry a handful. */
export const MAX_MARKER_HITS = 50;

/**
 * The value written right after `marker` (`b_hotel_id: '123'`, `"gdToken":"…"`): optional spaces
 * and one `:` or `=`, then a quoted string or a bare run of characters allowed by `bare`, at most
 * `maxLength` characters. Looks at the first MAX_MARKER_HITS occurrences of the marker and returns
 * the first that carries a value; null when none does. Work: one `indexOf` scan plus a short slice
 * per occurrence.
 */
export function valueAfter(
  text: string,
  marker: string,
  { maxLength = 256, bare = /[\w.-]/ }: { maxLength?: number; bare?: RegExp } = {},
): string | null {
  let from = 0;
  for (let hit = 0; hit < MAX_MARKER_HITS; hit++) {
    const at = text.indexOf(marker, from);
    if (at < 0) return null;
    from = at + marker.length;
    const value = readValue(text.slice(from, from + maxLength + 32), maxLength, bare);
    if (value !== null) return value;
  }
  return null;
}

function readValue(slice: string, maxLength: number, bare: RegExp): string | null {
  let i = 0;
  while (i < slice.length && /\s/.test(slice[i])) i++;
  if (slice[i] === ":" || slice[i] === "=") i++;
  while (i < slice.length && /\s/.test(slice[i])) i++;
  const quote = slice[i];
  if (quote === '"' || quote === "'") {
    const end = slice.indexOf(quote, i + 1);
    if (end < 0 || end - i - 1 > maxLength) return null;
    const value = slice.slice(i + 1, end);
    // Ids and tokens carry no spaces or escapes: a value with them is a misread (an unclosed quote
    // that reached the next marker), not a value.
    return /^[^\s\\]+$/.test(value) ? value : null;
  }
  let end = i;
  while (end < slice.length && end - i < maxLength && bare.test(slice[end])) end++;
  return end > i ? slice.slice(i, end) : null;
}
