import type { ElementStream } from "./element-stream";
import { collectItems } from "./item-tree";
import { localName, type SchemaNode } from "./schema-node";

const words = (value: string | null) => (value ?? "").split(/\s+/).filter(Boolean);

/**
 * Microdata items (`itemscope` / `itemtype` / `itemprop` / `itemid`). `itemref` is not followed:
 * review markup in the wild keeps a review's properties inside its element.
 */
export function collectMicrodata(stream: ElementStream): () => SchemaNode[] {
  return collectItems(stream, {
    read(element) {
      const properties = words(element.getAttribute("itemprop")).map(localName);
      if (!element.hasAttribute("itemscope")) return properties.length ? { properties } : null;
      return {
        item: { types: words(element.getAttribute("itemtype")).map((t) => t.replace(/^.*[/#]/, "")), id: element.getAttribute("itemid") ?? undefined },
        properties,
      };
    },
  });
}
