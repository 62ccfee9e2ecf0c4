import { MAX_WALK_DEPTH, type WorkBudget } from "./work-budget";

/**
 * Normalized client caches embedded in pages: Apollo (`__APOLLO_STATE__`, Next.js `apolloCache`)
 * stores every object once under a key such as `Review:123` and points to it with `{"__ref": "…"}`;
 * Relay stores (`__RELAY_STORE__`) do the same with `{"__ref": id}` and `{"__refs": [ids]}`. A reader
 * that does not know the site resolves the references before looking for records, under the same
 * bounds as the Glassdoor module's reader (src/publishers/glassdoor/apollo.ts): each entry is resolved
 * once and shared by every reference to it, a reference met again while it is being resolved (a
 * cycle) becomes null, every step is counted in the budget, and nesting past MAX_WALK_DEPTH is cut
 * (null) instead of recursing further. The work is linear in the cache, whatever the page holds.
 */

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The key a `{"__ref": key}` object points to, or null for any other value. */
function refKey(value: Obj): string | null {
  const ref = value.__ref;
  return typeof ref === "string" && Object.keys(value).length === 1 ? ref : null;
}

/**
 * True when `value` looks like a normalized cache: a `ROOT_QUERY` entry (Apollo), a
 * `client:root` entry (Relay), or most of its entries carrying a `__typename` or `__id`.
 */
export function isNormalizedCache(value: unknown): value is Obj {
  if (!isObj(value)) return false;
  if (Object.hasOwn(value, "ROOT_QUERY") || Object.hasOwn(value, "client:root")) return true;
  const entries = Object.values(value);
  if (entries.length < 2) return false;
  let typed = 0;
  for (const entry of entries.slice(0, 200))
    if (isObj(entry) && (typeof entry.__typename === "string" || typeof entry.__id === "string")) typed++;
  return typed >= Math.min(entries.length, 200) * 0.6;
}

/**
 * Every cache entry with its references resolved, as one object keyed like the cache. Entries
 * reached from several places are the same object (never copied twice), so a later walk that
 * remembers what it visited stays linear too.
 */
export function resolveCache(cache: Obj, budget: WorkBudget): Obj {
  const done = new Map<string, unknown>();
  const resolving = new Set<string>();
  const walk = (node: unknown, depth: number): unknown => {
    budget.spend();
    if (depth > MAX_WALK_DEPTH) return null;
    if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1));
    if (!isObj(node)) return node;
    const ref = refKey(node);
    if (ref !== null) return entry(ref, depth);
    const refs = node.__refs;
    if (Array.isArray(refs) && Object.keys(node).length === 1)
      return refs.map((key) => (typeof key === "string" ? entry(key, depth) : null));
    // A null-prototype copy: a `__proto__` key in the page stays a plain key, never a prototype.
    const copy = Object.create(null) as Obj;
    for (const [key, child] of Object.entries(node)) copy[key] = walk(child, depth + 1);
    return copy;
  };
  const entry = (key: string, depth: number): unknown => {
    if (done.has(key)) return done.get(key);
    if (resolving.has(key) || !Object.hasOwn(cache, key)) return null;
    resolving.add(key);
    const resolved = walk(cache[key], depth + 1);
    resolving.delete(key);
    done.set(key, resolved);
    return resolved;
  };
  const out = Object.create(null) as Obj;
  for (const key of Object.keys(cache)) out[key] = entry(key, 0);
  return out;
}
