import type { RawReview } from "../../core/reviews";
import { permanentError } from "../../scraping/errors";
import { MAX_MARKER_HITS, scriptTexts, valueAfter } from "../kit/html-scan";
import { jsonLiteralAt } from "../kit/json-literal";
import { MAX_WALK_DEPTH, WorkBudget } from "../kit/work-budget";

/**
 * Glassdoor's review pages are rendered from an Apollo GraphQL cache embedded in the HTML: in
 * `<script id="__NEXT_DATA__">` at `props.pageProps.apolloCache`, or (older pages) as
 * `"apolloState":{…}};` in a script. The cache is normalized: objects are stored once under keys
 * such as `EmployerReviewRG:97772209` and referenced as `{"__ref": "…"}`; queries sit under
 * `ROOT_QUERY` with their arguments in the key (`employerReviewsRG({…})`).
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The Apollo cache of a page, or null when the page carries none. */
export async function apolloCache(html: string): Promise<JsonObject | null> {
  // HTMLRewriter, not a regex over the page: a page of unclosed `<script` openings costs one pass.
  const [nextData] = await scriptTexts(html, 'script[id="__NEXT_DATA__"]');
  if (nextData) {
    try {
      const cache = (JSON.parse(nextData) as { props?: { pageProps?: { apolloCache?: unknown } } }).props
        ?.pageProps?.apolloCache;
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

/**
 * Follows `__ref` links. Each cache entry is resolved once and shared by every reference to it
 * (a cache whose nodes each point twice to the next would otherwise cost 2^depth), a reference
 * met again while it is being resolved (a cycle) becomes null, and the walk counts its steps in
 * `budget` and fails with `publisher_error` deeper than MAX_WALK_DEPTH: the work is linear in the
 * cache's size whatever the page holds.
 */
export function resolveRefs(
  value: Json | undefined,
  cache: JsonObject,
  budget = new WorkBudget("Glassdoor Apollo cache"),
): Json | undefined {
  const done = new Map<string, Json>();
  const resolving = new Set<string>();
  const walk = (node: Json | undefined, depth: number): Json | undefined => {
    budget.spend();
    if (depth > MAX_WALK_DEPTH)
      throw permanentError(
        "publisher_error",
        `Glassdoor page: the Apollo cache nests deeper than ${MAX_WALK_DEPTH} levels`,
      );
    if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1) ?? null);
    if (!isObject(node)) return node;
    const ref = node.__ref;
    if (typeof ref === "string") {
      const known = done.get(ref);
      if (known !== undefined) return known;
      if (resolving.has(ref) || !Object.hasOwn(cache, ref)) return null;
      resolving.add(ref);
      const resolved = walk(cache[ref], depth + 1) ?? null;
      resolving.delete(ref);
      done.set(ref, resolved);
      return resolved;
    }
    // A null-prototype copy: a `__proto__` key in the page stays a plain key, never a prototype.
    const copy: JsonObject = Object.create(null) as JsonObject;
    for (const [k, v] of Object.entries(node)) copy[k] = walk(v, depth + 1) ?? null;
    return copy;
  };
  return walk(value, 0);
}

export interface ReviewsResult {
  reviews: JsonObject[];
  currentPage: number;
  numberOfPages: number;
  allReviewsCount: number | null;
}

/** The employer reviews query result of the page (`ROOT_QUERY.employerReviews…`). */
export function reviewsResult(cache: JsonObject, budget?: WorkBudget): ReviewsResult {
  const root = Object.hasOwn(cache, "ROOT_QUERY") ? cache.ROOT_QUERY : undefined;
  if (!isObject(root))
    throw permanentError("publisher_error", "Glassdoor page: the Apollo cache has no ROOT_QUERY");
  const key = Object.keys(root).find((k) => k.startsWith("employerReviews") && isObject(root[k]));
  if (!key)
    throw permanentError("publisher_error", "Glassdoor page: ROOT_QUERY has no employerReviews result");
  const result = resolveRefs(root[key], cache, budget);
  if (!isObject(result))
    throw permanentError("publisher_error", `Glassdoor page: ${key.split("(")[0]} is not an object`);
  return readResult(result, "Glassdoor page", key.split("(")[0]);
}

/**
 * An `EmployerReviewsRG` result, from the page's cache or the JSON call: the reviews list and the
 * paging fields; publisher_error naming what is missing (`where` says which source, `name` which field).
 * The JSON call of 2026 clients may leave out `numberOfPages` (a public client notes that the API
 * dropped it and counts pages from `filteredReviewsCount`), so the page count falls back to the
 * review counts divided by `pageSize` when given; `currentPage` falls back to `page` likewise.
 */
export function readResult(
  result: JsonObject,
  where: string,
  name: string,
  asked?: { page: number; pageSize: number },
): ReviewsResult {
  if (!Array.isArray(result.reviews))
    throw permanentError("publisher_error", `${where}: ${name} has no reviews list`);
  const reviews = result.reviews.filter(isObject);
  if (reviews.length !== result.reviews.length)
    throw permanentError("publisher_error", `${where}: a review in the reviews list is not an object`);
  const count = (value: Json | undefined) =>
    typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : null;
  const allReviewsCount = count(result.allReviewsCount);
  const filtered = count(result.filteredReviewsCount) ?? allReviewsCount;
  const currentPage = count(result.currentPage) ?? asked?.page ?? null;
  const numberOfPages =
    count(result.numberOfPages) ??
    (asked && filtered !== null ? Math.max(1, Math.ceil(filtered / asked.pageSize)) : null);
  if (currentPage === null || numberOfPages === null)
    throw permanentError(
      "publisher_error",
      `${where}: the reviews result has no currentPage/numberOfPages (nor a review count to page by)`,
    );
  return { reviews, currentPage, numberOfPages, allReviewsCount };
}

/**
 * The page's anti-forgery token (`"gdToken":"…"` in its inline state), which Glassdoor's own
 * client sends as the `gd-csrf-token` header of its JSON calls; null when the page has none.
 */
export function pageToken(html: string): string | null {
  return valueAfter(html, '"gdToken"', { maxLength: 1024, bare: /$^/ });
}

/**
 * The employer's `profileId` (sent as `dynamicProfileId` by current clients of the reviews JSON
 * call), read as public clients do from the page's inline `"employer":{"id":<id>,…,"profileId":<n>…}`
 * object: the first such object of this employer, each read from a slice of bounded length.
 */
export function employerProfileId(html: string, employerId: number): number | null {
  let from = 0;
  for (let hit = 0; hit < MAX_MARKER_HITS; hit++) {
    const at = html.indexOf('"employer":{', from);
    if (at < 0) return null;
    from = at + 12;
    const literal = jsonLiteralAt(html.slice(at + 11, at + 11 + EMPLOYER_SLICE), 0);
    if (!literal) continue;
    try {
      const employer: unknown = JSON.parse(literal);
      if (isObject(employer) && Number(employer.id) === employerId) {
        const profileId = Number(employer.profileId);
        if (Number.isSafeInteger(profileId) && profileId > 0) return profileId;
      }
    } catch {
      // Not JSON (a script's own object literal): look at the next one.
    }
  }
  return null;
}

/** Longest inline employer object read (real ones are a few hundred characters). */
const EMPLOYER_SLICE = 20_000;

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

const text = (value: Json | undefined): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;

/** A field's original (untranslated) text where Glassdoor translated it, else the field itself. */
const original = (review: JsonObject, field: string) =>
  text(review[`${field}Original`]) ?? text(review[field]);

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

/**
 * The aspects a reviewer rates besides the overall score, by Glassdoor's field and the name the API
 * gives them (`sub_ratings`). Each is 1–5, 0 or absent where the reviewer left it out (the real
 * answers of scrapfly's glassdoor-scraper results/reviews.json, 2026-01: numbers such as 5 or 5.0).
 */
const SUB_RATINGS = [
  ["ratingWorkLifeBalance", "work_life_balance"],
  ["ratingCultureAndValues", "culture_and_values"],
  ["ratingDiversityAndInclusion", "diversity_and_inclusion"],
  ["ratingSeniorLeadership", "senior_leadership"],
  ["ratingCareerOpportunities", "career_opportunities"],
  ["ratingCompensationAndBenefits", "compensation_and_benefits"],
] as const;

/** The review's rated aspects on Glassdoor's 1–5 scale; those left unrated (0, null) are left out. */
function subRatings(review: JsonObject): Record<string, number> | undefined {
  const rated = SUB_RATINGS.flatMap(([field, name]) => {
    const value = review[field];
    return typeof value === "number" && value >= 1 && value <= 5 ? [[name, value] as const] : [];
  });
  return rated.length ? Object.fromEntries(rated) : undefined;
}

/** One cached review as a RawReview. */
export function rawReview(review: JsonObject, index: number, where = "Glassdoor page"): RawReview {
  const id = review.reviewId;
  if (typeof id !== "number" && typeof id !== "string")
    throw permanentError("publisher_error", `${where}: review ${index} has no reviewId`);
  if (typeof review.ratingOverall !== "number")
    throw permanentError("publisher_error", `${where}: review ${index} has no ratingOverall`);
  const date = utc(review.reviewDateTime);
  if (!date) throw permanentError("publisher_error", `${where}: review ${index} has no reviewDateTime`);
  const employerName =
    (isObject(review.employer)
      ? (text(review.employer.shortName) ?? text(review.employer.name))
      : undefined) ?? "Employer";
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
  // The title also opens `text` (and so review_hash, unchanged); issue 36 gives it its own field.
  const title = original(review, "summary");
  if (title) raw.title = title;
  const aspects = subRatings(review);
  if (aspects) raw.sub_ratings = aspects;
  const response = Array.isArray(review.employerResponses)
    ? review.employerResponses.find(isObject)
    : undefined;
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
