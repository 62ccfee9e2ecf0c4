import { unflatten } from "./devalue";
import { resolvedFlight } from "./flight";
import { jsonLiteralAt } from "./json-literal";
import type { WorkBudget } from "./work-budget";

/**
 * The data a page carries as JSON for its own scripts, found without knowing the site:
 * - `<script type="application/json">` blocks (Next.js `__NEXT_DATA__`, Nuxt 3's `__NUXT_DATA__`
 *   devalue payload, unflattened first, island data);
 * - inline scripts assigning a JSON literal to a variable or property (`window.__INITIAL_STATE__ = {…}`,
 *   `window["__APOLLO_STATE__"]={…}`, `var __PRELOADED_STATE__ = […]`, `__NUXT__={…}`), or a string
 *   literal through `JSON.parse("…")`;
 * - Next.js App Router flight payloads (`self.__next_f.push([1,"…"])`), joined and resolved.
 * JSON-LD is not among them (the structured-data reader owns it). Each document is parsed once; a
 * script that is JavaScript rather than JSON is skipped, never evaluated.
 */
export interface EmbeddedDocument {
  /** Where it was found, for logs and tests ("script#__NEXT_DATA__", "window.__INITIAL_STATE__", "rsc"). */
  source: string;
  value: unknown;
}

/** At most this many assignments are read from one script (real pages have a handful). */
const MAX_ASSIGNMENTS_PER_SCRIPT = 500;

interface Script {
  type: string;
  id: string | null;
  text: string;
}

/** The text of every inline `<script>` with its type and id (HTMLRewriter: one pass, linear). */
async function inlineScripts(html: string, budget: WorkBudget): Promise<Script[]> {
  const scripts: Script[] = [];
  let open: Script | null = null;
  const rewriter = new HTMLRewriter().on("script", {
    element(el) {
      budget.spend();
      open = el.hasAttribute("src")
        ? null
        : { type: (el.getAttribute("type") ?? "").trim().toLowerCase(), id: el.getAttribute("id"), text: "" };
      if (open) scripts.push(open);
    },
    text(chunk) {
      if (open) open.text += chunk.text;
      if (chunk.lastInTextNode) open = null;
    },
  });
  await rewriter
    .transform(new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }))
    .arrayBuffer();
  return scripts;
}

const isJsonType = (type: string) => /(^|[/+])json$/.test(type) && !type.includes("ld+json");
const isScriptType = (type: string) => type === "" || /(java|ecma)script|^module$/.test(type);

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The name assigned at `eq` (an `=` sign): the identifier path just before it (`window.__STATE__`,
 * `window["x"]`, `__NUXT__`), or null where the `=` is part of `==`, `=>`, `<=`, `!=` and the like.
 */
function assignedName(text: string, eq: number): string | null {
  const before = text[eq - 1];
  if (before === "=" || before === "!" || before === "<" || before === ">" || text[eq + 1] === "=")
    return null;
  const head = text.slice(Math.max(0, eq - 120), eq).trimEnd();
  const match =
    /((?:[A-Za-z_$][\w$]*)(?:\s*(?:\.\s*[A-Za-z_$][\w$]*|\[\s*["'][^"'\]]{1,80}["']\s*\]))*)$/.exec(head);
  return match ? match[1].replace(/\s+/g, "") : null;
}

/**
 * The JSON a `JSON.parse("…")` call at `at` parses: its string argument decoded, then parsed
 * (`value` undefined when it is not JSON), and where the string ends; null when the string is
 * not closed (nothing after it can be read).
 */
function jsonParseCall(text: string, at: number): { value: unknown; end: number } | null {
  const open = at + "JSON.parse(".length;
  let i = open;
  while (i < text.length && /\s/.test(text[i])) i++;
  const quote = text[i];
  if (quote !== '"' && quote !== "'") return { value: undefined, end: i };
  let end = i + 1;
  while (end < text.length && text[end] !== quote) end += text[end] === "\\" ? 2 : 1;
  if (end >= text.length) return null;
  // A JavaScript string literal: single-quoted ones are turned into JSON strings before decoding.
  const body = text.slice(i + 1, end);
  const asJson = quote === '"' ? body : body.replace(/\\(["'])/g, "$1").replace(/"/g, '\\"');
  const decoded = parse(`"${asJson}"`);
  return { value: typeof decoded === "string" ? parse(decoded) : undefined, end: end + 1 };
}

/** JSON literals assigned in one inline script, each with the name it was assigned to. */
function assignments(text: string, budget: WorkBudget): EmbeddedDocument[] {
  const found: EmbeddedDocument[] = [];
  let from = 0;
  for (let hit = 0; hit < MAX_ASSIGNMENTS_PER_SCRIPT; hit++) {
    const eq = text.indexOf("=", from);
    if (eq < 0) break;
    from = eq + 1;
    budget.spend();
    const name = assignedName(text, eq);
    if (!name) continue;
    let start = eq + 1;
    while (start < text.length && /\s/.test(text[start])) start++;
    if (text.startsWith("JSON.parse(", start)) {
      const call = jsonParseCall(text, start);
      if (call === null) break;
      from = call.end;
      if (call.value !== undefined) found.push({ source: name, value: call.value });
      continue;
    }
    if (text[start] !== "{" && text[start] !== "[") continue;
    const literal = jsonLiteralAt(text, start);
    // An unclosed literal runs to the end of the script: nothing after it can be read either.
    if (literal === null) break;
    from = start + literal.length;
    const value = parse(literal);
    if (value !== undefined) found.push({ source: name, value });
  }
  return found;
}

/** The string chunks of `self.__next_f.push([1,"…"])` calls in one script, in order. */
function flightChunks(text: string, budget: WorkBudget): string[] {
  const chunks: string[] = [];
  let from = 0;
  for (;;) {
    const at = text.indexOf("__next_f.push(", from);
    if (at < 0) break;
    budget.spend();
    const start = at + "__next_f.push(".length;
    const literal = text[start] === "[" ? jsonLiteralAt(text, start) : null;
    if (literal === null) break;
    from = start + literal.length;
    const value = parse(literal);
    if (Array.isArray(value) && value[0] === 1 && typeof value[1] === "string") chunks.push(value[1]);
  }
  return chunks;
}

/** Every JSON document the page embeds for its scripts (see EmbeddedDocument), in page order. */
export async function embeddedDocuments(html: string, budget: WorkBudget): Promise<EmbeddedDocument[]> {
  const documents: EmbeddedDocument[] = [];
  const flight: string[] = [];
  for (const script of await inlineScripts(html, budget)) {
    if (isJsonType(script.type)) {
      let value = parse(script.text.trim());
      // Nuxt 3's state is a devalue payload (a flat array of index-linked values): unflattened first.
      if (script.id === "__NUXT_DATA__" && Array.isArray(value)) value = unflatten(value, budget);
      if (value !== undefined)
        documents.push({ source: script.id ? `script#${script.id}` : "script[type=json]", value });
    } else if (isScriptType(script.type)) {
      if (script.text.includes("__next_f.push(")) flight.push(...flightChunks(script.text, budget));
      else documents.push(...assignments(script.text, budget));
    }
  }
  if (flight.length) {
    for (const value of resolvedFlight(flight.join(""), budget)) documents.push({ source: "rsc", value });
  }
  return documents;
}

/**
 * A JSON answer's body as a document (an XHR or fetch answer the rendered page loaded): an XSSI
 * guard line such as `)]}'` is removed first; anything that is not JSON is null.
 */
export function answerDocument(url: string, text: string): EmbeddedDocument | null {
  const value = parse(text.replace(/^\s*\)\]\}'[^\n]*\n?/, ""));
  return value === undefined || value === null || typeof value !== "object" ? null : { source: url, value };
}
