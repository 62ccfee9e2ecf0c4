import { decodeHTML, decodeHTMLAttribute } from "entities";
import type { ElementStream } from "./element-stream";
import { ITEM_LANGUAGE, type SchemaNode } from "./schema-node";

/**
 * Builds JSON-LD-shaped items from attribute-based markup (microdata, RDFa) during a streaming
 * HTMLRewriter pass. There is no DOM, so nesting is tracked with end-tag callbacks: a property or
 * item belongs to the innermost item open when its element starts, and a text property collects
 * every text chunk until its element ends (or the document does, for an element left unclosed).
 */
export interface ItemMarkup {
  /** Set when the element opens an item. */
  item?: { types: string[]; id?: string };
  /** Property names the element (or its new item) is the value of. */
  properties: string[];
}

export interface ItemSyntax {
  /** Item and property markup of an element; null when it carries none of the syntax's attributes. */
  read(element: Element): ItemMarkup | null;
}

// Elements that start a new line in the rendered text.
const LINE_BREAKING = new Set([
  "br",
  "p",
  "div",
  "li",
  "tr",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "blockquote",
]);
// Properties whose value is a link; for anything else a link's text is what the author meant.
const URL_PROPERTIES = new Set([
  "url",
  "sameAs",
  "image",
  "logo",
  "contentUrl",
  "thumbnailUrl",
  "embedUrl",
  "mainEntityOfPage",
]);
// Properties that hold an item's own text: a `lang` on their element (or between it and the item)
// tells the language of that text.
const TEXT_PROPERTIES = new Set(["reviewBody", "text", "description"]);

/** A whitespace-separated attribute value (itemprop, typeof, ...) as a list. */
export function attributeWords(element: Element, name: string): string[] {
  return (element.getAttribute(name) ?? "").split(/\s+/).filter(Boolean);
}

function attribute(element: Element, name: string): string | null {
  const value = element.getAttribute(name);
  return value === null ? null : decodeHTMLAttribute(value);
}

/** The value an element gives without looking at its text, per the microdata value rules. */
function attributeValue(element: Element, properties: string[]): string | null {
  const content = attribute(element, "content");
  if (content !== null) return content;
  const tag = element.tagName;
  if (tag === "meta") return "";
  if (tag === "time") return attribute(element, "datetime");
  if (tag === "data" || tag === "meter") return attribute(element, "value");
  const urlWanted = properties.some((p) => URL_PROPERTIES.has(p));
  if (tag === "link" || ((tag === "a" || tag === "area") && urlWanted)) return attribute(element, "href");
  if (["img", "audio", "video", "source", "iframe", "embed", "track"].includes(tag))
    return urlWanted ? attribute(element, "src") : (attribute(element, "alt") ?? "");
  if (tag === "object") return attribute(element, "data");
  return null;
}

interface OpenText {
  item: SchemaNode;
  properties: string[];
  parts: string[];
}

/** Appends in place: copying the list at every value made a page of many values quadratic. */
function addValue(node: SchemaNode, properties: string[], value: unknown): void {
  for (const property of properties) {
    const existing = node[property];
    if (Array.isArray(existing)) existing.push(value);
    else node[property] = [value];
  }
}

/**
 * A new item. Without a prototype, a property the page names `__proto__` (or `constructor`) is an
 * ordinary key like any other instead of replacing the object's prototype.
 */
function newNode(): SchemaNode {
  return Object.create(null) as SchemaNode;
}

/**
 * Items nest a few levels in real markup (business → review → author). The readers walk items
 * recursively, so items opened deeper than this are ignored rather than overflowing the stack.
 */
export const MAX_ITEM_DEPTH = 64;

/**
 * Text properties open at once (nested inside each other). Every text chunk is added to each of
 * them, so without a cap a page of unclosed `<span itemprop=...>` costs the square of its length.
 */
export const MAX_OPEN_TEXTS = 64;

export function collectItems(stream: ElementStream, syntax: ItemSyntax): () => SchemaNode[] {
  const roots: SchemaNode[] = [];
  const items: SchemaNode[] = [];
  const texts: OpenText[] = [];
  // `lang` attributes in effect, innermost last. The <html> element's is left out: it is the site's
  // interface language (docs/architecture.md, "Reviews"), which says nothing about who wrote a review.
  const langs: { lang: string }[] = [];
  // For each open item, how many `langs` were already open when it started (its own included).
  const langBase = new Map<SchemaNode, number>();
  /** The innermost `lang` opened inside `item`'s element, if any. */
  const langInside = (item: SchemaNode) => {
    const base = langBase.get(item) ?? langs.length;
    return langs.length > base ? langs[langs.length - 1].lang : undefined;
  };

  const remove = <T>(list: T[], entry: T) => {
    const at = list.lastIndexOf(entry);
    if (at >= 0) list.splice(at, 1);
  };
  const finish = (open: OpenText) => {
    remove(texts, open);
    addValue(open.item, open.properties, decodeHTML(open.parts.join("")).trim());
  };

  stream.onElement((element, onEnd) => {
    if (LINE_BREAKING.has(element.tagName) && texts.length && stream.spend(texts.length))
      for (const open of texts) open.parts.push("\n");
    const lang = element.tagName === "html" ? undefined : element.getAttribute("lang")?.trim();
    if (lang) {
      const entry = { lang };
      langs.push(entry);
      onEnd(() => remove(langs, entry));
    }
    const markup = syntax.read(element);
    if (!markup) return;
    const parent = items[items.length - 1];
    if (markup.item && items.length >= MAX_ITEM_DEPTH) return;
    if (markup.item) {
      const node = newNode();
      node["@type"] = markup.item.types;
      if (markup.item.id) node["@id"] = decodeHTMLAttribute(markup.item.id);
      if (lang) node[ITEM_LANGUAGE] = lang;
      // Langs opened from here on are inside this item; its own was counted as outside.
      langBase.set(node, langs.length);
      if (parent && markup.properties.length) addValue(parent, markup.properties, node);
      else roots.push(node);
      items.push(node);
      onEnd(() => {
        remove(items, node);
        langBase.delete(node);
      });
      return;
    }
    if (!parent || !markup.properties.length) return;
    if (parent[ITEM_LANGUAGE] === undefined && markup.properties.some((p) => TEXT_PROPERTIES.has(p))) {
      const inside = langInside(parent);
      if (inside) parent[ITEM_LANGUAGE] = inside;
    }
    const value = attributeValue(element, markup.properties);
    if (value !== null) {
      addValue(parent, markup.properties, value);
      return;
    }
    if (texts.length >= MAX_OPEN_TEXTS) return;
    const open: OpenText = { item: parent, properties: markup.properties, parts: [] };
    texts.push(open);
    onEnd(() => finish(open));
  });
  stream.onText((text) => {
    if (texts.length && stream.spend(texts.length)) for (const open of texts) open.parts.push(text);
  });
  stream.onDocumentEnd(() => [...texts].forEach(finish));
  return () => roots;
}
