import type { RawReview } from "../../core/reviews";
import { permanentError } from "../../scraping/errors";
import { jsonLiteralAt } from "../json-literal";

/**
 * Glassdoor's review pages are rendered from an Apollo GraphQL cache embedded in the HTML: in
 * `<script id="__NEXT_DATA__">` at `props.pageProps.apolloCache`, or (older pages) as
 * `"apolloState":{…}};` in a script. The cache is normalized: objects are stored once under keys
 * such as `EmployerReviewRG:97772209` and referenced as `{"__ref": "…"}`; queries sit under
 * `ROOT_QUERY` with their arguments in the key (`employerReviewsRG({…})`).
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/** The Apollo cache of a page, or null when the page carries none. */
export function apolloCache(html: string): JsonObject | null {
  const nextData = /<script[^>]*id="__NEXT_DATA__"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (nextData) {
    try {
      const cache = (JSON.parse(nextData) as { props?: { pageProps?: { apolloCache?: unknown } } }).props?.pageProps?.apolloCache;
      if (isObject(cache)) return cache;
    } catch {
      // Not JSON: try the other form.
    }
  }
  const marker = html.indexOf('"apolloState":');
  if (marker < 0) return null;
  const literal = jsonLiteralAt(html, html.indexOf("{", marker));
  if (literal === null) return null;
  try {
    const cache: unknown = JSON.parse(literal);
    return isObject(cache) ? cache : null;
  } catch {
    return null;
  }
}

/** Follows `__ref` links (once per path, so a cycle cannot loop). */
export function resolveRefs(value: Json | undefined, cache: JsonObject, seen: ReadonlySet<string> = new Set()): Json | undefined {
  if (Array.isArray(value)) return value.map((item) => resolveRefs(item, cache, seen) ?? null);
  if (!isObject(value)) return value;
  const ref = value.__ref;
  if (typeof ref === "string") return seen.has(ref) ? null : resolveRefs(cache[ref], cache, new Set([...seen, ref]));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, cache, seen) ?? null]));
}

export interface ReviewsResult {
  reviews: JsonObject[];
  currentPage: number;
  numberOfPages: number;
  allReviewsCount: number | null;
}

/** The employer reviews query result of the page (`ROOT_QUERY.employerReviews…`). */
export function reviewsResult(cache: JsonObject): ReviewsResult {
  const root = cache.ROOT_QUERY;
  if (!isObject(root)) throw permanentError("publisher_error", "Glassdoor page: the Apollo cache has no ROOT_QUERY");
  const key = Object.keys(root).find((k) => k.startsWith("employerReviews") && isObject(root[k]));
  if (!key) throw permanentError("publisher_error", "Glassdoor page: ROOT_QUERY has no employerReviews result");
  return readResult(resolveRefs(root[key], cache) as JsonObject, "Glassdoor page", key.split("(")[0]);
}

/**
 * An `EmployerReviewsRG` result, from the page's cache or the JSON call: the reviews list and the
 * paging fields; publisher_error naming what is missing (`where` says which source, `name` which field).
 */
export function readResult(result: JsonObject, where: string, name: string): ReviewsResult {
  if (!Array.isArray(result.reviews)) throw permanentError("publisher_error", `${where}: ${name} has no reviews list`);
  const reviews = result.reviews.filter(isObject);
  if (reviews.length !== result.reviews.length) throw permanentError("publisher_error", `${where}: a review in the reviews list is not an object`);
  const currentPage = typeof result.currentPage === "number" ? result.currentPage : null;
  const numberOfPages = typeof result.numberOfPages === "number" ? result.numberOfPages : null;
  if (currentPage === null || numberOfPages === null) throw permanentError("publisher_error", `${where}: the reviews result has no currentPage/numberOfPages`);
  return { reviews, currentPage, numberOfPages, allReviewsCount: typeof result.allReviewsCount === "number" ? result.allReviewsCount : null };
}

/**
 * The page's anti-forgery token (`"gdToken":"…"` in its inline state), which Glassdoor's own
 * client sends as the `gd-csrf-token` header of its `/graph` calls; null when the page has none.
 */
export function pageToken(html: string): string | null {
  return /"gdToken"\s*:\s*"([^"\\]{1,1024})"/.exec(html)?.[1] ?? null;
}

// Glassdoor tags languages with ISO 639-2 codes ("eng"); the API speaks ISO 639-1.
const LANGUAGES: Record<string, string> = {
  eng: "en",
  deu: "de",
  ger: "de",
  fra: "fr",
  fre: "fr",
  spa: "es",
  ita: "it",
  nld: "nl",
  dut: "nl",
  por: "pt",
  pol: "pl",
  swe: "sv",
  dan: "da",
  nor: "no",
  fin: "fi",
  tur: "tr",
  rus: "ru",
  jpn: "ja",
  zho: "zh",
  chi: "zh",
  kor: "ko",
  ces: "cs",
  cze: "cs",
};

const text = (value: Json | undefined): string | undefined => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);

/** A field's original (untranslated) text where Glassdoor translated it, else the field itself. */
const original = (review: JsonObject, field: string) => text(review[`${field}Original`]) ?? text(review[field]);

/** A date-time without a zone, as Glassdoor writes it, read as UTC. */
function utc(value: Json | undefined): string | undefined {
  const t = text(value);
  if (!t) return undefined;
  return /[zZ]|[+-]\d\d:?\d\d$/.test(t) ? t : `${t}Z`;
}

/**
 * The review's text as the API keeps it: the title, then "Pros", "Cons" and (when given) "Advice to
 * Management", each under its own heading line, separated by blank lines.
 */
export function reviewText(review: JsonObject): string {
  const parts = [original(review, "summary")];
  for (const [field, heading] of [
    ["pros", "Pros"],
    ["cons", "Cons"],
    ["advice", "Advice to Management"],
  ] as const) {
    const body = original(review, field);
    if (body) parts.push(`${heading}:\n${body}`);
  }
  return parts.filter(Boolean).join("\n\n");
}

/** One cached review as a RawReview. */
export function rawReview(review: JsonObject, index: number, where = "Glassdoor page"): RawReview {
  const id = review.reviewId;
  if (typeof id !== "number" && typeof id !== "string") throw permanentError("publisher_error", `${where}: review ${index} has no reviewId`);
  if (typeof review.ratingOverall !== "number") throw permanentError("publisher_error", `${where}: review ${index} has no ratingOverall`);
  const date = utc(review.reviewDateTime);
  if (!date) throw permanentError("publisher_error", `${where}: review ${index} has no reviewDateTime`);
  const employerName = (isObject(review.employer) ? (text(review.employer.shortName) ?? text(review.employer.name)) : undefined) ?? "Employer";
  const jobTitle = isObject(review.jobTitle) ? text(review.jobTitle.text) : undefined;
  const languageTag = text(review.originalLanguageId) ?? text(review.languageId);
  const raw: RawReview = {
    id: String(id),
    // Reviews are anonymous; Glassdoor shows the reviewer's job title, or "Anonymous Employee".
    author_name: jobTitle ?? "Anonymous Employee",
    rating: { value: review.ratingOverall, best: 5, worst: 1 },
    text: reviewText(review),
    url: `https://www.glassdoor.com/Reviews/Employee-Review-${slug(employerName)}-RVW${id}.htm`,
    date,
  };
  const language = languageTag ? (LANGUAGES[languageTag.toLowerCase()] ?? languageTag) : undefined;
  if (language) raw.language = language;
  const response = Array.isArray(review.employerResponses) ? review.employerResponses.find(isObject) : undefined;
  const responseText = response ? (text(response.responseOriginal) ?? text(response.response)) : undefined;
  if (response && responseText) {
    raw.reply_text = responseText;
    const dateKey = Object.keys(response).find((k) => k.startsWith("responseDateTime"));
    const replyDate = dateKey ? utc(response[dateKey]) : undefined;
    if (replyDate) raw.reply_date = replyDate;
  }
  return raw;
}

/** "eBay inc." → "eBay-inc": the name part of Glassdoor's review URLs. */
export function slug(name: string): string {
  return name.replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "") || "Employer";
}
