/**
 * Field builders and an error-tree formatter that reproduce Django REST Framework's validation
 * messages and nesting, which the hosted API's clients already parse.
 */
import { z } from "@hono/zod-openapi";

/** A field-error tree shaped like the request body; leaves are lists of messages. */
export type ErrorDetails = { [field: string]: string[] | string | ErrorDetails };

/** Python's name for a JSON value's type, as DRF prints it in messages. */
export function pyType(value: unknown): string {
  if (value === null) return "NoneType";
  if (Array.isArray(value)) return "list";
  switch (typeof value) {
    case "string":
      return "str";
    case "boolean":
      return "bool";
    case "number":
      return Number.isInteger(value) ? "int" : "float";
    case "object":
      return "dict";
    default:
      return typeof value;
  }
}

/** The value as a refused choice names it: strings as sent, scalars the way Python prints them. */
function choiceText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return String(value);
  // Nested values are named by type only: echoing them could be deep enough to exhaust the stack.
  return pyType(value);
}

export const MSG = {
  required: "This field is required.",
  blank: "This field may not be blank.",
  null: "This field may not be null.",
  string: "Not a valid string.",
  boolean: "Must be a valid boolean.",
  integer: "A valid integer is required.",
  url: "Enter a valid URL.",
  country: "Enter a valid 3-letter country code.",
  domain: "Enter a valid domain name.",
  list: (v: unknown) => `Expected a list of items but got type "${pyType(v)}".`,
  dict: (v: unknown) => `Expected a dictionary of items but got type "${pyType(v)}".`,
  maxLength: (n: number) => `Ensure this field has no more than ${n} characters.`,
  maxItems: (n: number) => `Ensure this field has no more than ${n} elements.`,
  min: (n: number) => `Ensure this value is greater than or equal to ${n}.`,
  max: (n: number) => `Ensure this value is less than or equal to ${n}.`,
  choice: (v: unknown) => `"${choiceText(v)}" is not a valid choice.`,
  emptyDict: "This dictionary may not be empty.",
  emptyList: "This list may not be empty.",
  rootNotObject: (v: unknown) => `Invalid data. Expected a dictionary, but got ${pyType(v)}.`,
} as const;

/** Error map shared by every field: missing, null, then the type-specific text. */
function typeError(typeMessage: (input: unknown) => string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined ? MSG.required : issue.input === null ? MSG.null : typeMessage(issue.input);
}

export interface StringOptions {
  max?: number;
  allowBlank?: boolean;
}

/** Lone UTF-16 surrogates (possible through JSON \u escapes) are not text and cannot be stored or encoded. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Strings as DRF's CharField reads them, minus its number coercion: surrounding whitespace is
 * trimmed before the length and blank checks, and a failed blank check stops any later refinement
 * so a field never carries two messages for one mistake.
 */
export function drfString(options: StringOptions = {}) {
  let schema = z
    .string({ error: typeError(() => MSG.string) })
    .refine((s) => !LONE_SURROGATE.test(s), { message: MSG.string, abort: true })
    .trim();
  if (options.max !== undefined) schema = schema.max(options.max, MSG.maxLength(options.max));
  if (!options.allowBlank) schema = schema.min(1, { message: MSG.blank, abort: true });
  return schema;
}

const TRUE_VALUES = new Set<unknown>([
  "t",
  "T",
  "y",
  "Y",
  "yes",
  "Yes",
  "YES",
  "true",
  "True",
  "TRUE",
  "on",
  "On",
  "ON",
  "1",
  1,
  true,
]);
const FALSE_VALUES = new Set<unknown>([
  "f",
  "F",
  "n",
  "N",
  "no",
  "No",
  "NO",
  "false",
  "False",
  "FALSE",
  "off",
  "Off",
  "OFF",
  "0",
  0,
  false,
]);

/** Booleans as DRF reads them: JSON true/false plus the usual textual and 0/1 spellings. */
export function drfBoolean() {
  return z.preprocess(
    (v) => (TRUE_VALUES.has(v) ? true : FALSE_VALUES.has(v) ? false : v),
    z.boolean({ error: typeError(() => MSG.boolean) }),
  );
}

/** Integers as DRF reads them: JSON integers, integral floats and integer strings. */
export function drfInteger(bounds: { min?: number; max?: number } = {}) {
  // Integers past 2^53 cannot be told apart from their neighbours, so they are not valid integers
  // either; aborting there keeps the bound checks from adding a second message.
  let inner = z.number({ error: typeError(() => MSG.integer) }).int({ message: MSG.integer, abort: true });
  if (bounds.min !== undefined) inner = inner.min(bounds.min, MSG.min(bounds.min));
  if (bounds.max !== undefined) inner = inner.max(bounds.max, MSG.max(bounds.max));
  return z.preprocess((v) => {
    if (typeof v === "string" && /^\s*-?\d+(\.0*)?\s*$/.test(v)) return Number.parseInt(v, 10);
    if (typeof v === "number" && !Number.isFinite(v)) return Number.NaN;
    return v;
  }, inner);
}

/** One of fixed string values, as DRF's ChoiceField reads it: anything else is `"x" is not a valid choice.` */
export function drfChoice<const T extends readonly [string, ...string[]]>(values: T) {
  return z
    .unknown()
    .transform((value, ctx): T[number] => {
      if (value === undefined) ctx.addIssue({ code: "custom", message: MSG.required });
      else if (value === null) ctx.addIssue({ code: "custom", message: MSG.null });
      else if (typeof value !== "string" || !values.includes(value))
        ctx.addIssue({ code: "custom", message: MSG.choice(value) });
      else return value;
      return z.NEVER;
    })
    .openapi({ type: "string", enum: [...values] });
}

export function drfList<T extends z.ZodType>(item: T, options: { max?: number; allowEmpty?: boolean } = {}) {
  let schema = z.array(item, { error: typeError(MSG.list) });
  if (options.max !== undefined) schema = schema.max(options.max, MSG.maxItems(options.max));
  if (options.allowEmpty === false) schema = schema.min(1, MSG.emptyList);
  return schema;
}

export function drfObject<T extends z.ZodRawShape>(shape: T) {
  return z.object(shape, { error: typeError(MSG.dict) });
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A JSON object with arbitrary keys, validated entry by entry by the caller. The object is passed
 * on as parsed (not copied key by key), so a key such as "__proto__" stays an ordinary entry.
 */
export function drfDict() {
  return z.custom<Record<string, unknown>>(isPlainObject, { error: typeError(MSG.dict) });
}

/**
 * The WHATWG parser repairs text such as "https:///x", "https:host" or "http:\\host" into a URL;
 * a client's URL must already be well-formed: scheme, "//", a host, and no whitespace.
 */
const URL_SHAPE = /^https?:\/\/[^/\\?#@\s]/i;

export function isHttpUrl(value: string, maxLength = 2048): URL | null {
  if (value.length > maxLength || !URL_SHAPE.test(value) || /\s/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!url.hostname || url.username || url.password) return null;
  return url;
}

/**
 * Converts zod issues into a DRF error tree; `root` issues become non_field_errors. Nodes have no
 * prototype because client-chosen keys (publisher domains) become keys of the tree: "__proto__" or
 * "constructor" must be plain entries, not inherited members.
 */
export function toErrorTree(issues: readonly z.core.$ZodIssue[]): ErrorDetails {
  const tree = Object.create(null) as ErrorDetails;
  for (const issue of issues) {
    const path = issue.path.map(String);
    if (path.length === 0) path.push("non_field_errors");
    let node: ErrorDetails = tree;
    let blocked = false;
    for (const key of path.slice(0, -1)) {
      const next = node[key];
      if (Array.isArray(next) || typeof next === "string") {
        blocked = true; // the parent already failed as a whole; its own message says enough
        break;
      }
      node = next ?? (node[key] = Object.create(null) as ErrorDetails);
    }
    if (blocked) continue;
    const leafKey = path[path.length - 1];
    const leaf = node[leafKey];
    if (leaf !== undefined && !Array.isArray(leaf)) continue;
    const messages = leaf ?? (node[leafKey] = []);
    if (!messages.includes(issue.message)) messages.push(issue.message);
  }
  return tree;
}
