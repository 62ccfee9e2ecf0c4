import { decodeHTML } from "entities";
import { isNode, type SchemaNode } from "./schema-node";

/**
 * Collects `<script type="application/ld+json">` blocks during the page's HTMLRewriter pass and
 * returns their top-level items (arrays and `@graph` lists flattened). Blocks that are not JSON
 * even after the usual repairs are skipped: one broken widget must not hide the rest of the page.
 */
export function collectJsonLd(rewriter: HTMLRewriter): () => SchemaNode[] {
  const blocks: string[] = [];
  let open = false;
  rewriter.on("script", {
    element(el) {
      open = (el.getAttribute("type") ?? "").trim().toLowerCase().startsWith("application/ld+json");
      if (open) blocks.push("");
    },
    text(chunk) {
      if (open) blocks[blocks.length - 1] += chunk.text;
      if (chunk.lastInTextNode) open = false;
    },
  });
  return () => blocks.flatMap((block) => topLevelItems(parseBlock(block)));
}

/**
 * Real JSON-LD nests a handful of levels (business → review → author → address). Everything that
 * reads a block walks it recursively, so a block nested deeper than this (200,000 levels once
 * overflowed the stack and failed the whole page, retry after retry) is skipped like broken JSON.
 */
export const MAX_JSON_LD_DEPTH = 64;

/** The deepest nesting of arrays and objects in JSON text, counted without parsing (strings skipped). */
function nestingDepth(json: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const ch = json.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (ch === 0x7d || ch === 0x5d) depth--;
  }
  return deepest;
}

function parseBlock(block: string): unknown {
  // Some CMSs wrap the JSON in comment or CDATA markers to hide it from old parsers.
  const json = block
    .trim()
    .replace(/^(?:<!--|(?:\/\/\s*)?<!\[CDATA\[)/, "")
    .replace(/(?:-->|(?:\/\/\s*)?\]\]>)$/, "");
  if (nestingDepth(json) > MAX_JSON_LD_DEPTH) return null;
  try {
    return JSON.parse(json);
  } catch {
    try {
      return JSON.parse(escapeControlCharactersInStrings(json));
    } catch {
      return null;
    }
  }
}

/**
 * Hand-written JSON-LD often has raw line breaks inside strings (a pasted review body), which
 * JSON forbids. Escaping control characters inside string literals, and only there, repairs it.
 */
function escapeControlCharactersInStrings(json: string): string {
  let out = "";
  let inString = false;
  let escaped = false;
  for (const ch of json) {
    if (inString && !escaped && ch < " ") {
      out += `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
      continue;
    }
    if (ch === '"' && !escaped) inString = !inString;
    escaped = inString && ch === "\\" && !escaped;
    out += ch;
  }
  return out;
}

function topLevelItems(value: unknown): SchemaNode[] {
  if (Array.isArray(value)) return value.flatMap(topLevelItems);
  if (!isNode(value)) return [];
  const graph = value["@graph"];
  const items = graph === undefined ? [value] : topLevelItems(graph);
  return items.map((item) => cleanStrings(item) as SchemaNode);
}

/**
 * JSON-LD strings are often HTML-escaped or carry markup (`&#8217;`, `<br />`), because CMSs
 * build them from the HTML they show. Read them as the text a visitor sees.
 */
function cleanStrings(value: unknown): unknown {
  if (typeof value === "string") {
    if (!/[&<]/.test(value)) return value;
    // `[^<>]*`, not `[^>]*`: the latter rescans to the end of the string from every unclosed "<a",
    // which is quadratic on page-controlled text.
    return decodeHTML(value.replace(/<br\s*\/?>/gi, "\n").replace(/<\/?[a-z][^<>]*>/gi, ""));
  }
  if (Array.isArray(value)) return value.map(cleanStrings);
  if (isNode(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cleanStrings(v)]));
  return value;
}
