import { MAX_WALK_DEPTH, type WorkBudget } from "./work-budget";

/**
 * Nuxt 3 pages carry their state in `<script type="application/json" id="__NUXT_DATA__">` as a
 * devalue payload: one flat array whose first entry is the root, where every object's values and
 * every array's items are indices into that array, wrappers such as `["Reactive", i]` or
 * `["Date", "…"]` name a type, and negative numbers stand for undefined, null-like holes and
 * special numbers. This turns it back into a tree: each index is resolved once and shared, a cycle
 * becomes null, nesting past MAX_WALK_DEPTH is cut and every step is counted.
 */
const WRAPPERS = new Set(["Reactive", "ShallowReactive", "Ref", "ShallowRef", "EmptyRef", "EmptyShallowRef"]);

export function unflatten(payload: readonly unknown[], budget: WorkBudget): unknown {
  const done = new Map<number, unknown>();
  const resolving = new Set<number>();
  const at = (index: unknown, depth: number): unknown => {
    budget.spend();
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= payload.length)
      return null;
    if (done.has(index)) return done.get(index);
    if (resolving.has(index) || depth > MAX_WALK_DEPTH) return null;
    resolving.add(index);
    const value = read(payload[index], depth + 1);
    resolving.delete(index);
    done.set(index, value);
    return value;
  };
  const read = (value: unknown, depth: number): unknown => {
    if (Array.isArray(value)) {
      const [tag, ...rest] = value as unknown[];
      if (typeof tag === "string") {
        if (WRAPPERS.has(tag)) return at(rest[0], depth);
        if (tag === "Date") return typeof rest[0] === "string" ? rest[0] : null;
        // Other tagged values (Set, Map, RegExp, BigInt, plugin types) say nothing a review reader uses.
        return null;
      }
      return value.map((item) => at(item, depth));
    }
    if (typeof value === "object" && value !== null) {
      const copy = Object.create(null) as Record<string, unknown>;
      for (const [key, index] of Object.entries(value)) copy[key] = at(index, depth);
      return copy;
    }
    return value;
  };
  return at(0, 0);
}
