import type { RawReview } from "../../core/reviews";
import type { ReviewSort } from "../../core/tasks/collection";
import { permanentError } from "../../scraping/errors";
import { WorkBudget } from "../kit/work-budget";
import { at, numberAt, pathText, stringAt } from "./nested";

/**
 * The review window of Google Search ("All Google reviews" on a business's panel), which signed-out
 * visitors can still page through to the end while every Google Maps route stops at five reviews
 * (HazelnutParadise/insyra issue 249, measured 2026-09-13; see ./README.md):
 *
 *   GET https://www.google.com/httpservice/web/PrivateLocalSearchUiDataService/GetLocalBoqProxy
 *       ?hl=en&reqpld=<JSON arguments>&msc=gwsrpc&opi=89978449
 *
 * `reqpld` is `[null, [<9 nulls>, args]]` where args[1] is the sort (1 relevance, 2 newest,
 * 3 highest, 4 lowest), args[9] the page size, args[11] `[<feature id>]`, args[19] the page token
 * ("" for the first page); args[16] and args[23] carry what the window itself sends. The answer is
 * JSON behind a `)]}'` line:
 *
 *   [_, [<10 fields>, [_, _, [<record>, …], _, _, _, <next page token>]]]   (block at [1][10])
 *
 * A record keeps, by index: [1] rating 1–5 · [2] [relative date, _, posted (ms since the epoch,
 * number or digits)] · [3] reviewer [name, avatar, contributions URL (…/contrib/<id>…), review
 * count, photo count] · [4] the owner's reply [_, relative date, text, …] or null · [5] review id ·
 * [26] language · [27] text as HTML (`<br>` line breaks, entities).
 */

export const WINDOW_URL =
  "https://www.google.com/httpservice/web/PrivateLocalSearchUiDataService/GetLocalBoqProxy";

/**
 * Reviews per window request: the most the window serves. It answers a request for 100 with 60
 * (lab note E13, measured 2026-09-03; the reviews-finder README, mid-2026: "up to 60 reviews per
 * request", first and continuation pages alike), so asking 60 costs a 5,000-review place about 84
 * requests instead of 500 at the window's own 10, far below the ~230 quick requests after which one
 * 2026 client saw 429.
 */
export const WINDOW_PAGE_SIZE = 60;

/** Sort 2: newest first, so an incremental run can stop at the first review it already has. */
export const WINDOW_SORT_NEWEST = 2;

/**
 * The other orders both review routes take (the window's args[1], listugcposts' `!13m1!1e<n>`):
 * 1 most relevant (the page's default), 3 highest, 4 lowest rating (insyra and YasogaN's notes).
 */
export const GOOGLE_SORTS = { relevant: "1", highest: "3", lowest: "4" } as const;

/** The sort code for the task's order; newest first unless it asks for another. */
export function googleSortCode(sort: ReviewSort | undefined): number {
  return sort && sort !== "newest" ? Number(GOOGLE_SORTS[sort]) : WINDOW_SORT_NEWEST;
}

/** The page id the window sends with its requests (`opi`), as public clients send it. */
const WINDOW_OPI = "89978449";

/** The window's request for one page of a place's reviews, newest first unless `sort` says otherwise. */
export function windowUrl(featureId: string, token: string, sort = WINDOW_SORT_NEWEST): string {
  const args: unknown[] = Array.from({ length: 24 }, () => null);
  args[1] = sort;
  args[9] = WINDOW_PAGE_SIZE;
  args[11] = [featureId];
  args[16] = [1, 1, null, [[3], [4], [5], [6], [7]]];
  args[19] = token;
  args[23] = 0;
  const request: unknown[] = Array.from({ length: 10 }, () => null);
  request[9] = args;
  const params = new URLSearchParams({
    hl: "en",
    reqpld: JSON.stringify([null, request]),
    msc: "gwsrpc",
    opi: WINDOW_OPI,
  });
  return `${WINDOW_URL}?${params.toString()}`;
}

export interface WindowPage {
  reviews: RawReview[];
  /** Records in the answer, kept or not. */
  records: number;
  /** The next page's token; null on the last page. */
  nextToken: string | null;
}

/** Longest reviewer link read for its contributor id; real ones are under 100 characters. */
const MAX_CONTRIB_URL = 2_048;
const CONTRIB = "/contrib/";

/** The contributor id in a reviewer's link (`https://www.google.com/maps/contrib/<digits>…`). */
export function contributorId(url: string | undefined): string | undefined {
  if (!url || url.length > MAX_CONTRIB_URL) return undefined;
  const start = url.indexOf(CONTRIB);
  if (start < 0) return undefined;
  let end = start + CONTRIB.length;
  while (
    end < url.length &&
    end - start - CONTRIB.length < 40 &&
    url.charCodeAt(end) >= 48 &&
    url.charCodeAt(end) <= 57
  )
    end++;
  const id = url.slice(start + CONTRIB.length, end);
  return id ? id : undefined;
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  "#39": "'",
};
/** Longest entity read ("&#x10FFFF;"); a longer run after "&" is text. */
const MAX_ENTITY = 10;

/** One character reference's text, or null when `name` (between "&" and ";") is none. */
function entity(name: string): string | null {
  if (Object.hasOwn(NAMED_ENTITIES, name)) return NAMED_ENTITIES[name];
  if (name.length < 2 || name[0] !== "#") return null;
  const hex = name[1] === "x" || name[1] === "X";
  const digits = hex ? name.slice(2) : name.slice(1);
  if (!digits || !(hex ? /^[0-9a-f]+$/i : /^[0-9]+$/).test(digits)) return null;
  const code = parseInt(digits, hex ? 16 : 10);
  return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
    ? String.fromCodePoint(code)
    : null;
}

/**
 * A window text as written: `<br>` becomes a line break, then character references are decoded
 * (`&lt;br&gt;` stays the literal text "<br>"). One pass over the text, no pattern over all of it.
 */
export function windowText(html: string): string {
  const lines = html.split("<br>").join("\n");
  let out = "";
  let from = 0;
  for (let amp = lines.indexOf("&"); amp >= 0; amp = lines.indexOf("&", amp + 1)) {
    const semi = lines.indexOf(";", amp + 1);
    if (semi < 0) break;
    if (semi - amp - 1 > MAX_ENTITY) continue;
    const decoded = entity(lines.slice(amp + 1, semi));
    if (decoded === null) continue;
    out += lines.slice(from, amp) + decoded;
    from = semi + 1;
    amp = semi;
  }
  return out + lines.slice(from);
}

/** Posted time in ms since the epoch: a number or a string of digits (as insyra reads it). */
function millisAt(record: unknown, ...path: number[]): number | undefined {
  const value = at(record, ...path);
  const ms =
    typeof value === "number"
      ? value
      : typeof value === "string" && value.length <= 16 && /^\d+$/.test(value)
        ? Number(value)
        : NaN;
  // Within ±10,000 years of 1970 (toISOString's range) and past 2000-01-01 (Google Maps is younger).
  return Number.isSafeInteger(ms) && ms >= 946_684_800_000 && ms <= 8_640_000_000_000_000 ? ms : undefined;
}

/** A count the reviewer's line shows: a whole number from 0 up, else left out. */
function countAt(record: unknown, ...path: number[]): number | undefined {
  const value = numberAt(record, ...path);
  return value !== undefined && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function missing(what: string, index: number, path: number[]): never {
  throw permanentError(
    "publisher_error",
    `GetLocalBoqProxy: record ${index} has no ${what} at ${pathText(path)}`,
  );
}

/** One window record as a raw review. */
export function reviewFromRecord(record: unknown, index: number): RawReview {
  if (!Array.isArray(record))
    throw permanentError(
      "publisher_error",
      `GetLocalBoqProxy: record ${index} at ${pathText([1, 10, 2, index])} is not a list`,
    );
  const id = stringAt(record, 5) ?? missing("review id", index, [5]);
  const rating = numberAt(record, 1);
  if (rating === undefined || !Number.isInteger(rating) || rating < 1 || rating > 5)
    missing("rating 1–5", index, [1]);
  const posted = millisAt(record, 2, 2) ?? missing("posting time", index, [2, 2]);
  const authorUrl = stringAt(record, 3, 2);
  const text = stringAt(record, 27);
  const replyText = stringAt(record, 4, 2);
  const raw: RawReview = {
    id,
    author_name: stringAt(record, 3, 0) ?? missing("reviewer name", index, [3, 0]),
    author_id: contributorId(authorUrl),
    author_url: authorUrl,
    rating: { value: rating, best: 5, worst: 1 },
    text: text === undefined ? "" : windowText(text),
    date: new Date(posted).toISOString(),
    language: stringAt(record, 26),
    author_review_count: countAt(record, 3, 3),
    author_photo_count: countAt(record, 3, 4),
  };
  if (replyText) {
    raw.reply_text = windowText(replyText);
    // The window prints the reply's date only relative to now ("a week ago").
    raw.reply_date = stringAt(record, 4, 1);
  }
  for (const key of Object.keys(raw) as (keyof RawReview)[]) if (raw[key] === undefined) delete raw[key];
  return raw;
}

/** Most records one answer may hold: the window sends at most 60; far more is not its answer. */
const MAX_RECORDS = 1_000;

/** Reads one window answer (already without its `)]}'` line). */
export function parseWindowPage(data: unknown): WindowPage {
  const block = at(data, 1, 10);
  if (!Array.isArray(block))
    throw permanentError("publisher_error", "GetLocalBoqProxy: the answer has no review block at [1][10]");
  const list = block[2] as unknown[] | null | undefined; // checked on the next line
  if (list !== undefined && list !== null && !Array.isArray(list))
    throw permanentError("publisher_error", "GetLocalBoqProxy: the records at [1][10][2] are not a list");
  const token = block[6] as string | null | undefined; // checked on the next line
  if (token !== undefined && token !== null && typeof token !== "string")
    throw permanentError(
      "publisher_error",
      "GetLocalBoqProxy: the next page token at [1][10][6] is not a string",
    );
  const records: unknown[] = list ?? [];
  const budget = new WorkBudget("GetLocalBoqProxy answer", MAX_RECORDS);
  const reviews: RawReview[] = [];
  records.forEach((record, index) => {
    budget.spend();
    reviews.push(reviewFromRecord(record, index));
  });
  return { reviews, records: records.length, nextToken: token ? token : null };
}
