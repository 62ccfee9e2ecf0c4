/**
 * A JSON-API module in one short declaration: request this URL, read these fields, page this way.
 * `jsonApi(spec)` builds the parser and the adapter on the shared walk (./json-walk.ts), which keeps
 * the cursor, the page limit and the loop checks. Paths are dot-separated keys into the answer; a
 * path ending in `?` may be absent or null. What the paths name is checked with zod, so a changed
 * answer is `publisher_error` naming where ("Feefo reviews: unexpected answer at summary: …").
 * A module whose answers need more (a cursor token, an embedded page state, replies) writes its own
 * `parse` on the walk instead.
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import type { PageInspector } from "../../scraping/client";
import { permanentError } from "../../scraping/errors";
import { definePublisher, type Adapter, type PublisherModule, type ScrapeContext } from "../types";
import { declareProfile, type DeclaredProfile, type ProfileSpec } from "./profile";
import {
  countOf,
  jsonWalkAdapter,
  nextByNumber,
  readAnswer,
  type JsonWalkCursor,
  type ParseContext,
  type WalkPage,
  type WalkPosition,
} from "./json-walk";

/** One request: a template (`{key}` and `{page}`, inserted URL-encoded) or a function. */
type Url = string | ((key: string, position: WalkPosition) => string);

/** Where one review's fields are, relative to the review; a field that is there with the wrong type skips it. */
export interface ReviewFields {
  /** The publisher's id of the review: a non-empty string or a whole number. Required. */
  id: string;
  /** The rating, a number or a numeric string within `scale` (default 1–5, kept as is). Required. */
  rating: string;
  /** Text parts, trimmed, the non-empty ones joined by a blank line (a title, then the body). */
  text: string | readonly string[];
  /** The date as printed (4 to 40 characters) or epoch milliseconds (made an ISO instant). Required. */
  date: string;
  /** Name parts, trimmed, joined by a space ("first_name", "last_name"). */
  author?: string | readonly string[];
  /** The review's own URL, where it is an http(s) one; else the profile page. */
  url?: string;
}

export interface JsonApiSpec {
  /** The publisher's name in error messages ("Feefo reviews"). */
  what: string;
  /**
   * The request of one page, or several read together as one page: name → URL (and the name its
   * errors use), each path then starting with that name.
   */
  request: Url | Readonly<Record<string, Url | { url: Url; what: string }>>;
  /** The list of reviews. */
  reviews: string;
  review: ReviewFields;
  /** The review count the publisher states; a list is tried in order (the first that is a count). */
  total?: string | readonly string[];
  /**
   * Paging by number: the answer's page count. Without it the answer is the profile's only page.
   * An empty page before the last stated one is `publisher_error`.
   */
  pages?: string;
  /** The first page's number (1 unless the API counts from 0). */
  firstPage?: number;
  /**
   * Pages a walk may read before it is cut off as not ending (the API's own limit where known;
   * default 2,000: 200,000 reviews at 100 a page, beyond any one profile).
   */
  maxPages?: number;
  /** The profile id the answer says it is about: another one than asked for is `publisher_error`. */
  sameKey?: string;
  /** The answer's language (`pageLanguage`, to break an unreliable detection). */
  language?: string;
  /** The reason to give when the stated total is more than the API shows (`limitedView`). */
  limitedView?: (shown: number, total: number) => string;
  /** Rating scale (default [1, 5]). */
  scale?: readonly [worst: number, best: number];
  /** Reads the profile's key from its URL (usually the module's `declareProfile(…).keyOf`). */
  keyOf: (url: URL) => string | null;
  /** Opens the profile before the walk (an id found by another request); see JsonWalkSpec. */
  open?: (key: string, profileUrl: string, ctx: ScrapeContext) => Promise<{ pageUrl: string; key: string }>;
  inspect?: PageInspector;
}

export interface JsonApi {
  adapter: Adapter<JsonWalkCursor>;
  /** The URL of one page (of its first request where there are several). */
  url: (key: string, position: WalkPosition) => string;
  /** Reads one page's answer (a record of answers by name where there are several). */
  parse: (data: unknown, ctx: ParseContext) => WalkPage;
}

const optional = (path: string) => path.endsWith("?");
const keysOf = (path: string) => path.replace(/\?$/, "").split(".");

function urlOf(how: Url, key: string, position: WalkPosition): string {
  if (typeof how === "function") return how(key, position);
  return how.replaceAll("{key}", encodeURIComponent(key)).replaceAll("{page}", String(position.page));
}

/** The value at a path of keys, or undefined where a step is missing or not an object. */
export function valueAt(value: unknown, keys: readonly string[]): unknown {
  let node = value;
  for (const key of keys)
    node =
      node !== null && typeof node === "object" && !Array.isArray(node)
        ? (node as Record<string, unknown>)[key]
        : undefined;
  return node;
}

interface Node {
  leaf?: z.ZodType;
  children: Map<string, Node>;
}

/** The zod schema of what the paths name: objects along each path, the leaf's own type at its end. */
function schemaOf(leaves: readonly (readonly [readonly string[], z.ZodType])[]): z.ZodType {
  const root: Node = { children: new Map() };
  for (const [keys, leaf] of leaves) {
    let node = root;
    for (const key of keys) {
      const next = node.children.get(key) ?? { children: new Map() };
      node.children.set(key, next);
      node = next;
    }
    node.leaf = leaf;
  }
  const build = (node: Node): z.ZodType =>
    node.leaf ?? z.object(Object.fromEntries([...node.children].map(([key, child]) => [key, build(child)])));
  return build(root);
}

const text = (value: unknown): string | null | false =>
  value === undefined || value === null ? null : typeof value === "string" ? value.trim() : false;

/** Text parts joined, or false when one is there with the wrong type. */
function joined(item: unknown, paths: string | readonly string[] | undefined, by: string): string | false {
  const parts = (typeof paths === "string" ? [paths] : (paths ?? [])).map((path) =>
    text(valueAt(item, keysOf(path))),
  );
  return parts.includes(false) ? false : parts.filter(Boolean).join(by);
}

function ratingOf(value: unknown, [worst, best]: readonly [number, number]): number | null {
  const n = typeof value === "string" && /^\s*\d{1,3}(?:\.\d{1,6})?\s*$/.test(value) ? Number(value) : value;
  return typeof n === "number" && n >= worst && n <= best ? n : null;
}

/** A date as printed, an ISO instant of epoch milliseconds, undefined for an impossible instant, or false. */
function dateOf(value: unknown): string | undefined | false {
  if (typeof value === "string") return value.length >= 4 && value.length <= 40 ? value : false;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) return false;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The declared review fields, for an error that names them (`id=service.id, rating=…`). */
function fieldNames(fields: ReviewFields): string {
  return Object.entries(fields)
    .map(([name, path]) => `${name}=${Array.isArray(path) ? path.join("+") : String(path)}`)
    .join(", ");
}

/** One review as the fields declare it, or null to skip it (the rest of the page is still good). */
function readReview(
  item: unknown,
  fields: ReviewFields,
  scale: readonly [number, number],
  pageUrl: string,
): RawReview | null {
  const id = valueAt(item, keysOf(fields.id));
  const rating = ratingOf(valueAt(item, keysOf(fields.rating)), scale);
  const date = dateOf(valueAt(item, keysOf(fields.date)));
  const body = joined(item, fields.text, "\n\n");
  const author = joined(item, fields.author, " ");
  const url = fields.url ? text(valueAt(item, keysOf(fields.url))) : null;
  const idText = typeof id === "string" && id ? id : Number.isSafeInteger(id) ? String(id) : null;
  if (!idText || rating === null || date === false || body === false || author === false || url === false)
    return null;
  return {
    id: idText,
    ...(author ? { author_name: author } : {}),
    rating: { value: rating, best: scale[1], worst: scale[0] },
    text: body,
    url: url && /^https?:\/\//.test(url) ? url : pageUrl,
    ...(date ? { date } : {}),
  };
}

/** One request of a page: the answer's name (null for a page of one answer), its URL and error name. */
interface PageRequest {
  name: string | null;
  url: Url;
  what: string;
}

function requestsOf(spec: JsonApiSpec): PageRequest[] {
  if (typeof spec.request !== "object") return [{ name: null, url: spec.request, what: spec.what }];
  return Object.entries(spec.request).map(([name, r]) =>
    typeof r === "object" ? { name, url: r.url, what: r.what } : { name, url: r, what: spec.what },
  );
}

/** Builds a JSON-API module's parser and adapter from its declaration (see JsonApiSpec). */
export function jsonApi(spec: JsonApiSpec): JsonApi {
  const firstPage = spec.firstPage ?? 1;
  const scale = spec.scale ?? [1, 5];
  const requests = requestsOf(spec);
  const totals = typeof spec.total === "string" ? [spec.total] : (spec.total ?? []);
  const leaves: [string, z.ZodType][] = [
    [spec.reviews, optional(spec.reviews) ? z.array(z.unknown()).nullish() : z.array(z.unknown())],
    ...totals.map((path): [string, z.ZodType] => [
      path,
      optional(path) ? z.unknown().optional() : z.unknown(),
    ]),
  ];
  if (spec.pages) leaves.push([spec.pages, z.unknown()]);
  if (spec.sameKey) leaves.push([spec.sameKey, z.string()]);
  if (spec.language) leaves.push([spec.language, z.string().nullish()]);
  // One schema per answer, over the paths under its name.
  const answers = requests.map(({ name, what }) => {
    const own = leaves
      .map(([path, leaf]) => [keysOf(path), leaf] as const)
      .filter(([keys]) => name === null || keys[0] === name)
      .map(([keys, leaf]) => [name === null ? keys : keys.slice(1), leaf] as const);
    return { name, what, schema: schemaOf(own) };
  });

  function count(data: unknown, path: string): number | null {
    const value = countOf(valueAt(data, keysOf(path)));
    if (value === null && !optional(path))
      throw permanentError("publisher_error", `${spec.what}: ${keysOf(path).join(".")} is not a count`);
    return value;
  }

  function parse(data: unknown, ctx: ParseContext): WalkPage {
    for (const { name, what, schema } of answers)
      readAnswer(schema, name === null ? data : valueAt(data, [name]), what);
    const about = spec.sameKey ? valueAt(data, keysOf(spec.sameKey)) : ctx.key;
    if (about !== ctx.key)
      throw permanentError(
        "publisher_error",
        `${spec.what}: asked for ${ctx.key}, the answer is about ${String(about)}`,
      );
    const items = (valueAt(data, keysOf(spec.reviews)) ?? []) as unknown[];
    const reviews: RawReview[] = [];
    for (const item of items) {
      ctx.budget.spend();
      const review = readReview(item, spec.review, scale, ctx.pageUrl);
      if (review) reviews.push(review);
    }
    // Every review of a page skipped means the answer's fields moved, not that each review is odd:
    // fail loudly rather than walk on and complete with nothing.
    if (items.length && !reviews.length)
      throw permanentError(
        "publisher_error",
        `${spec.what}: none of the ${items.length} reviews has the declared fields (${fieldNames(spec.review)})`,
      );
    const total = totals.reduce<number | null>((found, path) => found ?? count(data, path), null);
    const pages = spec.pages ? count(data, spec.pages) : null;
    const shown = items.length;
    return {
      reviews,
      next: pages === null ? null : nextByNumber(spec.what, ctx.position.page, firstPage + pages - 1, shown),
      ...(totals.length ? { publisherTotal: total } : {}),
      ...(spec.limitedView
        ? { limitedView: total !== null && total > shown ? spec.limitedView(shown, total) : null }
        : {}),
      ...(spec.language
        ? { pageLanguage: (valueAt(data, keysOf(spec.language)) as string | null) ?? null }
        : {}),
    };
  }

  const url = (key: string, position: WalkPosition) => urlOf(requests[0].url, key, position);
  const adapter = jsonWalkAdapter({
    what: spec.what,
    keyOf: spec.keyOf,
    open: spec.open,
    firstPage,
    maxPages: spec.maxPages ?? 2_000,
    inspect: spec.inspect,
    request: (key, position) => ({ url: url(key, position) }),
    parse,
    // Several requests make one page: each answer under its name.
    fetch:
      requests[0].name === null
        ? undefined
        : async (_first, key, ctx, position) => {
            const data: Record<string, unknown> = {};
            for (const { name, url } of requests)
              data[name!] = (await ctx.client.json(urlOf(url, key, position))).data;
            return data;
          },
  });
  return { adapter, parse, url };
}

/** A JSON-API publisher's whole declaration: the module's data, its profile rules and its API. */
export interface JsonApiPublisherSpec extends Omit<PublisherModule, "profile" | "adapter" | "loginRequired"> {
  /** Login cookies required at submit (default: no). */
  loginRequired?: boolean;
  /** profile_key rules; their `hosts` default to the module's domains (a profile on any of them). */
  profile: ProfileSpec;
  /**
   * The API (see JsonApiSpec). The walk's key comes from the profile's URL patterns; `keyOf` here
   * reads it from any other URL a profile may resolve to (one the module builds itself).
   */
  api: Omit<JsonApiSpec, "keyOf"> & Partial<Pick<JsonApiSpec, "keyOf">>;
}

/** A module for a publisher that is one JSON API: declared in one file (docs/publishers.md). */
export function jsonApiPublisher(
  spec: JsonApiPublisherSpec,
): PublisherModule & { profile: DeclaredProfile; api: JsonApi } {
  const profile = declareProfile({ hosts: spec.domains, ...spec.profile });
  const other = spec.api.keyOf;
  const api = jsonApi({ ...spec.api, keyOf: (url) => profile.keyOf(url) ?? other?.(url) ?? null });
  const module = definePublisher({
    ...spec,
    loginRequired: spec.loginRequired ?? false,
    profile,
    adapter: api.adapter,
  });
  return { ...module, profile, api };
}
