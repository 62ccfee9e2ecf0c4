/**
 * The one shape all three syntaxes are read into: JSON-LD's. Microdata and RDFa items become
 * `{ "@type": [...], "@id"?: ..., property: [values] }`, so a single reader finds reviews in all.
 */
export type SchemaNode = { [property: string]: unknown };

/**
 * The key under which an item records the `lang` attribute of its own element, or else of the
 * element holding its text: the author's per-item language. JSON-LD's `@language` keyword names the
 * language of a string in the same way, and no schema.org property is spelled with an `@`.
 */
export const ITEM_LANGUAGE = "@language";

const SCHEMA_ORG = /^(?:schema:|https?:\/\/schema\.org\/)/i;

export function isNode(value: unknown): value is SchemaNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** "schema:Review", "http://schema.org/Review", "Review" → "Review". */
export function localName(term: string): string {
  return term.trim().replace(SCHEMA_ORG, "");
}

export function typesOf(node: SchemaNode): string[] {
  return valuesOf(node, "@type")
    .filter((t): t is string => typeof t === "string")
    .map(localName);
}

export function hasType(node: SchemaNode, types: ReadonlySet<string>): boolean {
  return typesOf(node).some((t) => types.has(t));
}

export function valuesOf(node: SchemaNode, property: string): unknown[] {
  const value =
    node[property] ??
    node[`schema:${property}`] ??
    node[`http://schema.org/${property}`] ??
    node[`https://schema.org/${property}`];
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** A literal as text: strings and numbers as they are, JSON-LD value objects by their @value. */
export function literal(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (isNode(value) && "@value" in value) return literal(value["@value"]);
  return undefined;
}

/** The first non-empty literal among the properties, in the order given. */
export function firstLiteral(node: SchemaNode, ...properties: string[]): string | undefined {
  for (const property of properties) {
    for (const value of valuesOf(node, property)) {
      const text = literal(value);
      if (text !== undefined && text.trim()) return text;
    }
  }
  return undefined;
}

/** A node's own identifier, unless it is a blank node ("_:b0"), which means nothing outside the page. */
export function nodeId(node: SchemaNode): string | undefined {
  const id = literal(node["@id"]);
  return id && !id.startsWith("_:") ? id : undefined;
}
