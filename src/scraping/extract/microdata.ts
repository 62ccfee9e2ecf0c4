import type { ElementStream } from "./element-stream";
import { attributeWords, collectItems } from "./item-tree";
import { localName, type SchemaNode } from "./schema-node";

/**
 * Microdata items (`itemscope` / `itemtype` / `itemprop` / `itemid`). `itemref` is not followed:
 * review markup in the wild keeps a review's properties inside its element.
 */
export function collectMicrodata(stream: ElementStream): () => SchemaNode[] {
  return collectItems(stream, {
    read(element) {
      const properties = attributeWords(element, "itemprop").map(localName);
      if (!element.hasAttribute("itemscope")) return properties.length ? { properties } : null;
      return {
        item: {
          types: attributeWords(element, "itemtype").map((t) => t.replace(/^.*[/#]/, "")),
          id: element.getAttribute("itemid") ?? undefined,
        },
        properties,
      };
    },
  });
}
