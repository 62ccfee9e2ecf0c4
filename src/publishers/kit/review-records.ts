import { decodeHTML } from "entities";
import type { RawReview } from "../../core/reviews";
import type { EmbeddedDocument } from "./embedded-json";
import { isNormalizedCache, resolveCache } from "./references";
import { MAX_WALK_DEPTH, type WorkBudget } from "./work-budget";

/**
 * Finds review records in JSON a page carries, without knowing the site (docs/generic-reader.md).
 *
 * A record is review-shaped when it has a rating (a field named for one, a number on a 5, 10 or 100
 * scale, or an object holding one), a date (a date-named field with a calendar date or an epoch
 * time) and a text or a title, and carries no mark of a catalogue entry (a price, a SKU, a count of
 * reviews or ratings, an average). An array is a candidate when most of its objects are
 * review-shaped and read through the same fields; candidates read through the same fields in
 * several documents (the page's state and the answers its scripts loaded) are one list. Lists are
 * scored by size, with more weight where records name an author and an id and where the array sits
 * under a review-named key, and the best is taken. A product list, a menu or a listing of businesses
 * has ratings but neither review text nor a review date, so it is never taken.
 */

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Field names compared without case, `_`, `-`, spaces or a namespace prefix: `created_at` =
 * `createdAt`, `im:rating` = `rating`.
 */
const norm = (key: string) =>
  key
    .toLowerCase()
    .replace(/^[a-z]{1,8}:/, "")
    .replace(/[_\-\s]/g, "");

/**
 * A value as feeds and APIs wrap it: `{"label": "5"}` (RSS turned into JSON), or an object of
 * variants (`{"full": …}`, `{"original": …, "translated": …}`, `{"utcDateTime": …}`): the first
 * variant present, the original before a translation.
 */
const VARIANTS = [
  "label",
  "original",
  "full",
  "text",
  "value",
  "plain",
  "raw",
  "body",
  "content",
  "html",
  "utcDateTime",
  "iso",
  "date",
  "dateTime",
  "timestamp",
  "time",
];
function leaf(value: unknown): unknown {
  if (!isObj(value)) return value;
  for (const key of VARIANTS) {
    const inner = value[key];
    if (typeof inner === "string" || typeof inner === "number") return inner;
  }
  return value;
}

const RATING_NAMES =
  /^(rating|ratingvalue|overallrating|ratingoverall|stars?|starrating|starcount|score|reviewscore|reviewrating|rate|userrating|customerrating|grade|note|bewertung|punteggio|puntuacion|bubbles?|bubblerating)$/;
const RATING_INNER = /^(value|ratingvalue|rating|score|stars?|overall|label)$/;
const BEST_NAMES = /^(bestrating|best|max|maxrating|maxvalue|maximum|scale|outof|ratingscale|maxscore)$/;
const WORST_NAMES = /^(worstrating|worst|min|minrating|minvalue|minimum)$/;
const TEXT_NAMES =
  /^(text|body|content|comment|comments|message|feedback|opinion|review|reviewtext|reviewbody|reviewcontent|reviewcomment|reviewcomments|description|plaintext|textcontent|commenttext|detail|details|textbody|bodytext|fulltext|originaltext|localizedtext)$/;
const TITLE_NAMES = /^(title|headline|summary|subject|heading|reviewtitle|reviewheadline|caption)$/;
const DATE_NAMES =
  /^(date|created|createdat|createdon|createddate|creationdate|datecreated|datepublished|published|publishedat|publisheddate|publishdate|publicationdate|firstpublishedat|submissiontime|submittedat|submitted|submissiondate|time|timestamp|reviewdate|reviewtime|reviewdatetime|reviewedat|postedat|posted|postdate|posteddate|writtenat|datetime|createtime|reviewcreatedat|reviewsubmittedat|localizeddate|updatedat|updated|modifiedat|lastmodified|datemodified)$/;
/** Dates that are not when the review was written: a stay, a visit, a reply, a birthday. */
const OTHER_DATES =
  /(visit|stay|travel|experience|checkin|checkout|birth|expir|respon|reply|answer|member|joined)/;
const DATE_GROUPS = /^(dates?|timestamps?|times)$/;
const AUTHOR_OBJECTS =
  /^(author|user|reviewer|customer|consumer|member|writer|poster|guest|creator|createdby|submittedby|profile|owner|by|person|reviewerprofile|userprofile|traveler|traveller)$/;
const AUTHOR_FLAT =
  /^(authorname|author|username|usernickname|nickname|reviewername|reviewer|displayname|customername|consumername|membername|writername|guestname|postername|byline|name|screenname|publicname)$/;
const PERSON_NAMES =
  /^(name|displayname|fullname|nickname|username|screenname|publicname|firstname|handle|login)$/;
const ID_NAMES =
  /^(id|reviewid|uuid|guid|key|reviewuuid|reviewkey|legacyid|externalid|reviewidentifier|objectid)$/;
const URL_NAMES = /^(url|link|permalink|reviewurl|reviewlink|href|shareurl|canonicalurl)$/;
const LANGUAGE_NAMES =
  /^(language|lang|languagecode|locale|originallanguage|contentlanguage|languagetag|reviewlanguage|textlanguage)$/;
const REPLY_NAMES =
  /^(reply|replies|response|responses|ownerresponse|ownerreply|ownerresponses|businessresponse|businessreply|merchantreply|merchantresponse|companyreply|companyresponse|managementresponse|managerresponse|hostresponse|answer|developerreply|developerresponse|replyfrombusiness|responsefromowner|reviewreply|reviewresponse|sellerresponse|vendorresponse|employerresponse|employerresponses|officialanswer|officialresponse|ownercomment)$/;
/** Fields only a catalogue entry (a product, a business, a menu item) carries, never a review. */
const CATALOGUE_NAMES =
  /^((review|reviews|rating|ratings)(count|total)|num(ber)?(of)?(reviews|ratings)|total(reviews|ratings)|price|prices|pricerange|saleprice|listprice|sku|gtin|gtin13|mpn|offers|availability|instock|currency|aggregaterating|averagerating|avgrating|ratingaverage|averagescore|menuitems|addtocart)$/;
const REVIEW_KEYS = /(review|comment|feedback|testimonial|opinion|rating|bewertung|avis|recension|resena)/i;

const TOTAL_NAMES =
  /^(totalcount|total|totalreviews|reviewcount|reviewscount|numberofreviews|totalresults|totalelements|totalitems|nbhits|filteredreviewscount|totalreviewcount|count|totalsize|resultcount)$/;
const MORE_FLAGS = /^(hasnextpage|hasmore|moreavailable|hasmorereviews|hasnext|canloadmore|morereviews)$/;
const NEXT_CURSORS =
  /^(nextcursor|nextpage|nextpagetoken|next|nextpageurl|continuationtoken|nexttoken|nextoffset|nextlink)$/;
const PAGING_OBJECTS = /^(pageinfo|paging|pagination|meta|metadata|page|info|links|cursor|cursors)$/;

/** Longest string read as a field's value; a review text is cut by normalisation anyway. */
const MAX_FIELD = 60_000;
/** Records read from one array (a page shows tens; a larger list is read in part). */
const MAX_RECORDS = 2_000;
/** Share of an array's objects that must be review-shaped, and read the same way, to be a candidate. */
const SHAPED_SHARE = 0.6;

interface Read {
  review: RawReview;
  /** The fields read, as `rating|text|date`: records read the same way share a shape. */
  shape: string;
  hasAuthor: boolean;
  hasId: boolean;
}

interface Candidate {
  shape: string;
  reads: Read[];
  keyed: boolean;
  total: number | null;
  more: boolean;
  source: string;
}

export interface FoundReviews {
  reviews: RawReview[];
  /** The review count the data states next to the best list, where it does. */
  total: number | null;
  /** The data says more reviews follow (a next cursor, `hasNextPage`, `hasMore`). */
  more: boolean;
  /** The documents the reviews came from ("script#__NEXT_DATA__", an answer's URL). */
  sources: string[];
}

function text(given: unknown): string | undefined {
  const value = leaf(given);
  if (typeof value !== "string") return undefined;
  const t = value.length > MAX_FIELD ? value.slice(0, MAX_FIELD) : value;
  // Texts of JSON built for HTML often carry markup (`<br/>`, `&amp;`): read as a visitor sees them.
  const plain = /[&<]/.test(t)
    ? decodeHTML(t.replace(/<br\s*\/?>/gi, "\n").replace(/<\/?[a-z][^<>]*>/gi, ""))
    : t;
  const trimmed = plain.trim();
  return /\p{L}/u.test(trimmed) && !/^https?:\/\/\S+$/.test(trimmed) ? trimmed : undefined;
}

/** A number or a short numeric string. */
function numeric(given: unknown): number | null {
  const value = leaf(given);
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && /^\s*-?\d{1,3}(?:[.,]\d{1,2})?\s*$/.test(value))
    return Number(value.trim().replace(",", "."));
  return null;
}

/**
 * A single review's rating: 0–100 with at most one decimal (an average such as 4.37 is a
 * catalogue's, not a review's); on a 5-point scale only whole or half points.
 */
function ratingNumber(value: unknown): number | null {
  const n = numeric(value);
  if (n === null || n < 0 || n > 100) return null;
  if (Math.round(n * 10) !== n * 10) return null;
  if (n <= 5 && Math.round(n * 2) !== n * 2) return null;
  return n;
}

/** A rating's own field: a known name, or one ending in "rating" or "score" that is no aggregate. */
const isRatingName = (n: string) =>
  RATING_NAMES.test(n) ||
  (/(rating|score)$/.test(n) &&
    !/(avg|average|mean|aggregate|total|count|overall.*avg|max|min|best|worst)/.test(n));

function ratingOf(
  record: Obj,
  keys: string[],
): { key: string; value: number; best?: number; worst?: number } | null {
  for (const key of keys) {
    if (!isRatingName(norm(key))) continue;
    const given = record[key];
    if (isObj(given)) {
      let value: number | null = null;
      let best: number | undefined;
      let worst: number | undefined;
      for (const [inner, v] of Object.entries(given)) {
        const n = norm(inner);
        if (value === null && RATING_INNER.test(n)) value = ratingNumber(v);
        else if (BEST_NAMES.test(n)) best = numeric(v) ?? undefined;
        else if (WORST_NAMES.test(n)) worst = numeric(v) ?? undefined;
      }
      if (value !== null) return { key, value, best, worst };
      continue;
    }
    const value = ratingNumber(given);
    if (value !== null) return { key, value };
  }
  return null;
}

const NOW_PLUS_DAY = () => Date.now() + 86_400_000;
const EARLIEST = Date.UTC(1995, 0, 1);

/** A date as the pipeline reads it: ISO text kept as written, epoch seconds or milliseconds as ISO. */
function dateValue(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) {
    const ms = value > 1e11 ? value : value * 1000;
    return ms >= EARLIEST && ms <= NOW_PLUS_DAY() ? new Date(ms).toISOString() : undefined;
  }
  if (typeof value !== "string" || value.length > 64) return undefined;
  const t = value.trim();
  if (/^\d{10}(\d{3})?$/.test(t)) return dateValue(Number(t));
  // A calendar date with a four-digit year somewhere (ISO, "March 3, 2024", "03/03/2024").
  if (!/\b(19|20)\d\d\b/.test(t)) return undefined;
  const parsed = Date.parse(t);
  if (!Number.isNaN(parsed) && (parsed < EARLIEST || parsed > NOW_PLUS_DAY())) return undefined;
  return t;
}

function dateOf(record: Obj, keys: string[], depth = 0): { key: string; value: string } | null {
  let fallback: { key: string; value: string } | null = null;
  for (const key of keys) {
    const n = norm(key);
    const given = record[key];
    if (depth === 0 && DATE_GROUPS.test(n) && isObj(given)) {
      const inner = dateOf(given, Object.keys(given), 1);
      if (inner) return { key: `${key}.${inner.key}`, value: inner.value };
      continue;
    }
    const named =
      DATE_NAMES.test(n) ||
      (/(date|time|at|on)$/.test(n) && /(creat|publish|post|submit|writ|review)/.test(n));
    if (!named || OTHER_DATES.test(n)) continue;
    const value = dateValue(leaf(given));
    if (value === undefined) continue;
    if (/(updat|modif)/.test(n)) fallback ??= { key, value };
    else return { key, value };
  }
  return fallback;
}

function textOf(record: Obj, keys: string[], names: RegExp): { key: string; value: string } | null {
  let best: { key: string; value: string } | null = null;
  for (const key of keys) {
    if (!names.test(norm(key))) continue;
    const given = record[key];
    // Translatable texts: `{"text": "…"}`, `{"original": "…"}`, `{"full": "…"}` (see leaf).
    const value = text(given);
    if (value && (!best || value.length > best.value.length)) best = { key, value };
  }
  return best;
}

function personName(person: Obj): string | undefined {
  let first: string | undefined;
  let last: string | undefined;
  for (const [key, value] of Object.entries(person)) {
    const n = norm(key);
    if (n === "firstname" || n === "givenname") first = text(value);
    else if (n === "lastname" || n === "familyname") last = text(value);
  }
  for (const [key, value] of Object.entries(person)) {
    if (PERSON_NAMES.test(norm(key)) && norm(key) !== "firstname") {
      const name = text(value);
      if (name) return name;
    }
  }
  return [first, last].filter(Boolean).join(" ") || undefined;
}

function authorOf(
  record: Obj,
  keys: string[],
  baseUrl: string,
): Pick<RawReview, "author_name" | "author_id" | "author_url"> {
  for (const key of keys) {
    const given = record[key];
    if (!AUTHOR_OBJECTS.test(norm(key)) || !isObj(given)) continue;
    const name = personName(given);
    if (!name) continue;
    const id = idOf(given, Object.keys(given));
    const url = urlOf(given, baseUrl);
    return { author_name: name, ...(id ? { author_id: id } : {}), ...(url ? { author_url: url } : {}) };
  }
  for (const key of keys) {
    if (!AUTHOR_FLAT.test(norm(key))) continue;
    const name = text(record[key]);
    if (name && name.length <= 200) return { author_name: name };
  }
  return {};
}

function idOf(record: Obj, keys: string[]): string | undefined {
  for (const key of keys) {
    if (!ID_NAMES.test(norm(key))) continue;
    const value = record[key];
    if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
    if (typeof value === "string" && value.trim() && value.length <= 256) return value.trim();
  }
  return undefined;
}

function urlOf(record: Obj, baseUrl: string): string | undefined {
  for (const [key, value] of Object.entries(record)) {
    if (!URL_NAMES.test(norm(key)) || typeof value !== "string" || value.length > 2048) continue;
    const url = URL.parse(value.trim(), baseUrl);
    if (url && (url.protocol === "https:" || url.protocol === "http:")) return url.toString();
  }
  return undefined;
}

function languageOf(record: Obj, keys: string[]): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (
      LANGUAGE_NAMES.test(norm(key)) &&
      typeof value === "string" &&
      /^[a-z]{2,3}(?:[-_][a-z0-9]{2,8})?$/i.test(value.trim())
    )
      return value.trim().replace("_", "-");
  }
  return undefined;
}

/** The owner's reply: a reply-named field holding a text, or an object (or list of them) with one. */
function replyOf(record: Obj, keys: string[]): Pick<RawReview, "reply_text" | "reply_date"> {
  for (const key of keys) {
    if (!REPLY_NAMES.test(norm(key))) continue;
    let given = record[key];
    if (Array.isArray(given)) given = given.find((item) => isObj(item) || typeof item === "string");
    if (typeof given === "string") {
      const reply = text(given);
      if (reply) return { reply_text: reply };
      continue;
    }
    if (!isObj(given)) continue;
    const inner = Object.keys(given);
    const reply = textOf(given, inner, TEXT_NAMES) ?? textOf(given, inner, /^(response|reply|answer)$/);
    if (!reply) continue;
    const date = dateOf(given, inner);
    return { reply_text: reply.value, ...(date ? { reply_date: date.value } : {}) };
  }
  return {};
}

/** A GraphQL edge (`{"cursor": …, "node": {…}}`) stands for its node. */
function unwrap(item: unknown): unknown {
  if (!isObj(item) || !isObj(item.node)) return item;
  return Object.keys(item).every((k) => k === "node" || k === "cursor" || k === "__typename")
    ? item.node
    : item;
}

function readRecord(record: Obj, baseUrl: string, budget: WorkBudget, outer?: Obj): Read | null {
  const keys = Object.keys(record);
  budget.spend(keys.length);
  if (keys.some((key) => CATALOGUE_NAMES.test(norm(key)))) return null;
  const rating = ratingOf(record, keys);
  if (!rating) return null;
  const date = dateOf(record, keys);
  if (!date) return null;
  const body = textOf(record, keys, TEXT_NAMES);
  const title = textOf(record, keys, TITLE_NAMES);
  if (!body && !title) return null;
  let author = authorOf(record, keys, baseUrl);
  // A review wrapped with its author beside it (`{"customer": {…}, "service": {review}}`).
  if (!author.author_name && outer) author = authorOf(outer, Object.keys(outer), baseUrl);
  const id = idOf(record, keys);
  const url = urlOf(record, baseUrl) ?? (outer ? urlOf(outer, baseUrl) : undefined);
  const language = languageOf(record, keys);
  const review: RawReview = {
    ...(id ? { id } : {}),
    ...author,
    rating: {
      value: rating.value,
      ...(rating.best !== undefined ? { best: rating.best } : {}),
      ...(rating.worst !== undefined ? { worst: rating.worst } : {}),
    },
    text: (body ?? title)!.value,
    ...(url ? { url } : {}),
    date: date.value,
    ...(language ? { language } : {}),
    ...replyOf(record, keys),
  };
  return {
    review,
    shape: `${rating.key}|${(body ?? title)!.key}|${date.key}`,
    hasAuthor: Boolean(author.author_name),
    hasId: Boolean(id),
  };
}

/**
 * A record, or the review one of its object fields holds: some lists wrap each review with what it
 * is about (`{"merchant": …, "customer": …, "service": {rating, title, review, created_at}}`).
 */
function readItem(item: Obj, baseUrl: string, budget: WorkBudget): Read | null {
  const direct = readRecord(item, baseUrl, budget);
  if (direct) return direct;
  for (const [key, child] of Object.entries(item)) {
    if (!isObj(child)) continue;
    const inner = readRecord(child, baseUrl, budget, item);
    if (inner) return { ...inner, shape: `${key}.${inner.shape}` };
  }
  return null;
}

/**
 * One scale for a list: the one its records state, else the smallest of 5, 10 and 100 that holds
 * every rating in it (a list with a 7 is on ten points, its 4 too).
 */
function withScale(reads: Read[]): void {
  if (reads.some((r) => r.review.rating?.best !== undefined)) return;
  const top = Math.max(...reads.map((r) => Number(r.review.rating!.value)));
  const low = Math.min(...reads.map((r) => Number(r.review.rating!.value)));
  const best = top <= 5 ? 5 : top <= 10 ? 10 : 100;
  const worst = best === 100 || low === 0 ? 0 : 1;
  for (const r of reads) r.review.rating = { value: r.review.rating!.value, best, worst };
}

/** A count stated next to the list, and whether a next cursor or flag says more follow. */
function pagingAround(parents: Obj[], length: number): { total: number | null; more: boolean } {
  let total: number | null = null;
  let more = false;
  const look = (obj: Obj, nested: boolean) => {
    for (const [key, value] of Object.entries(obj)) {
      const n = norm(key);
      if (!nested && PAGING_OBJECTS.test(n) && isObj(value)) look(value, true);
      else if (TOTAL_NAMES.test(n) && total === null) {
        const count = numeric(value);
        if (count !== null && Number.isSafeInteger(count) && count >= length) total = count;
      } else if (MORE_FLAGS.test(n) && value === true) more = true;
      else if (
        NEXT_CURSORS.test(n) &&
        (typeof value === "string" ? value.trim() !== "" : typeof value === "number")
      )
        more = true;
    }
  };
  for (const parent of parents) look(parent, false);
  return { total, more };
}

function candidate(
  array: unknown[],
  key: string,
  parents: Obj[],
  source: string,
  baseUrl: string,
  budget: WorkBudget,
): Candidate | null {
  const records = array.slice(0, MAX_RECORDS).map(unwrap).filter(isObj);
  if (records.length === 0) return null;
  const byShape = new Map<string, Read[]>();
  for (const record of records) {
    const read = readItem(record, baseUrl, budget);
    if (read) byShape.set(read.shape, [...(byShape.get(read.shape) ?? []), read]);
  }
  let reads: Read[] = [];
  for (const group of byShape.values()) if (group.length > reads.length) reads = group;
  if (reads.length === 0 || reads.length < records.length * SHAPED_SHARE) return null;
  withScale(reads);
  return {
    shape: reads[0].shape,
    reads,
    keyed: REVIEW_KEYS.test(key),
    source,
    ...pagingAround(parents, reads.length),
  };
}

/** Every candidate list in a document, each array looked at once. */
function candidatesIn(document: EmbeddedDocument, baseUrl: string, budget: WorkBudget): Candidate[] {
  const found: Candidate[] = [];
  const seen = new Set<object>();
  const walk = (value: unknown, key: string, parents: Obj[], depth: number): void => {
    if (typeof value !== "object" || value === null || depth > MAX_WALK_DEPTH || seen.has(value)) return;
    seen.add(value);
    budget.spend();
    if (Array.isArray(value)) {
      const found1 = candidate(value, key, parents, document.source, baseUrl, budget);
      if (found1) found.push(found1);
      for (const item of value) walk(item, key, parents, depth + 1);
      return;
    }
    let obj = value as Obj;
    if (isNormalizedCache(obj)) {
      obj = resolveCache(obj, budget);
      seen.add(obj);
      // A cache's entries of one type (`Review:1`, `Review:2`, …) are a list of their own too: a page
      // may keep its reviews only as entries that its query result points to by a key we do not read.
      for (const [typename, entries] of byTypename(obj)) {
        const c = candidate(entries, typename, [], document.source, baseUrl, budget);
        if (c) found.push(c);
      }
    }
    const chain = [obj, ...parents.slice(0, 1)];
    for (const [childKey, child] of Object.entries(obj)) walk(child, childKey, chain, depth + 1);
  };
  walk(document.value, "", [], 0);
  return found;
}

/** A resolved cache's entries grouped by `__typename`. */
function byTypename(cache: Obj): Map<string, Obj[]> {
  const groups = new Map<string, Obj[]>();
  for (const entry of Object.values(cache)) {
    if (!isObj(entry) || typeof entry.__typename !== "string") continue;
    const group = groups.get(entry.__typename);
    if (group) group.push(entry);
    else groups.set(entry.__typename, [entry]);
  }
  return groups;
}

function score(group: Candidate[], reviews: number): number {
  const reads = group.flatMap((c) => c.reads);
  const share = (f: (r: Read) => boolean) => reads.filter(f).length / reads.length;
  let weight = 1;
  if (share((r) => r.hasAuthor) >= 0.5) weight += 0.5;
  if (share((r) => r.hasId) >= 0.5) weight += 0.5;
  if (group.some((c) => c.keyed)) weight += 0.5;
  return reviews * weight;
}

/** The identity of a review across lists: its id, else its date, author and text. */
const identity = (r: RawReview) => r.id ?? `${r.date}|${r.author_name ?? ""}|${r.text ?? ""}`;

/**
 * The reviews of the best list among all documents (see the module comment), with the count and
 * the "more follow" signal stated next to it; null when no document holds a review-shaped list.
 */
export function findReviewRecords(
  documents: readonly EmbeddedDocument[],
  baseUrl: string,
  budget: WorkBudget,
): FoundReviews | null {
  const groups = new Map<string, Candidate[]>();
  for (const document of documents)
    for (const c of candidatesIn(document, baseUrl, budget))
      groups.set(c.shape, [...(groups.get(c.shape) ?? []), c]);
  let best: { found: FoundReviews; score: number } | null = null;
  for (const group of groups.values()) {
    const seen = new Set<string>();
    const reviews: RawReview[] = [];
    for (const read of group.flatMap((c) => c.reads)) {
      const id = identity(read.review);
      if (seen.has(id)) continue;
      seen.add(id);
      reviews.push(read.review);
    }
    const s = score(group, reviews.length);
    if (best && s <= best.score) continue;
    const totals = group.map((c) => c.total).filter((t): t is number => t !== null);
    best = {
      score: s,
      found: {
        reviews,
        total: totals.length ? Math.max(...totals) : null,
        // Answers loaded one after another page on: the last one says whether more follow.
        more: group[group.length - 1].more && !(totals.length && reviews.length >= Math.max(...totals)),
        sources: [...new Set(group.map((c) => c.source))],
      },
    };
  }
  return best?.found ?? null;
}
