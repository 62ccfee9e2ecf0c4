import type { ElementStream } from "./element-stream";
import { attributeWords, collectItems } from "./item-tree";
import { localName, type SchemaNode } from "./schema-node";

/**
 * RDFa Lite items (`typeof` / `property` / `resource`), with schema.org terms written bare under
 * `vocab="https://schema.org/"`, as `schema:term`, or as full IRIs. Terms of other vocabularies
 * keep their prefix and so never match a schema.org property.
 */
export function collectRdfa(stream: ElementStream): () => SchemaNode[] {
  return collectItems(stream, {
    read(element) {
      const properties = attributeWords(element, "property").map(localName);
      if (!element.hasAttribute("typeof")) return properties.length ? { properties } : null;
      const id = element.getAttribute("resource") ?? element.getAttribute("about") ?? undefined;
      return { item: { types: attributeWords(element, "typeof").map(localName), id }, properties };
    },
  });
}
