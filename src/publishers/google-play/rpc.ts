/**
 * Google Play's reviews RPC: `POST https://play.google.com/_/PlayStoreUi/data/batchexecute?hl=&gl=`
 * with the form field `f.req` calling `oCPfdb` (sort 2 = newest first, a page size, and the
 * continuation token of the page before). The answer is `)]}'` then an envelope whose first entry
 * `["wrb.fr", "oCPfdb", "<payload as JSON text>", …]` carries `[reviews, [null, token], …]`.
 * Positions inside a review follow JoMingyu/google-play-scraper (see README.md).
 */
import type { RawReview } from "../../core/reviews";
import { permanentError } from "../../scraping/errors";
import type { ParseContext, WalkPage, WalkPosition } from "../kit/json-walk";
import { MAX_WALK_DEPTH } from "../kit/work-budget";

export const WHAT = "Google Play reviews";
export const RPC_ID = "oCPfdb";
/** Reviews per call (a public pipeline asks for 200; the RPC accepts thousands). */
export const PAGE_SIZE = 200;
/** Sort order 2: newest first. */
const SORT_NEWEST = 2;

/** `<package>/<hl>/<gl>`: the app and the language and country its reviews are read in. */
export interface PlayKey {
  appId: string;
  hl: string;
  gl: string;
}

export const formatPlayKey = (key: PlayKey) => `${key.appId}/${key.hl}/${key.gl}`;
export function parsePlayKey(key: string): PlayKey {
  const [appId = "", hl = "en", gl = "us"] = key.split("/");
  return { appId, hl, gl };
}

export function batchexecuteUrl(key: PlayKey): string {
  const url = new URL("https://play.google.com/_/PlayStoreUi/data/batchexecute");
  url.searchParams.set("hl", key.hl);
  url.searchParams.set("gl", key.gl);
  return url.toString();
}

/** The `f.req` form value of one page: the RPC's arguments as JSON text inside the batch envelope. */
export function reviewsRequestBody(key: PlayKey, position: WalkPosition): string {
  const paging = position.token ? [PAGE_SIZE, null, position.token] : [PAGE_SIZE];
  const filters = [null, null, null, null, null, null, null, null, null];
  const args = [null, [2, SORT_NEWEST, paging, null, filters], [key.appId, 7]];
  return JSON.stringify([[[RPC_ID, JSON.stringify(args), null, "generic"]]]);
}

/**
 * The value at `path` inside nested arrays, or undefined. Iterative and bounded by the path, so a
 * hostile payload cannot make it recurse or loop.
 */
export function at(value: unknown, ...path: number[]): unknown {
  if (path.length > MAX_WALK_DEPTH) return undefined;
  let node = value;
  for (const index of path) {
    if (!Array.isArray(node) || index >= node.length) return undefined;
    node = node[index];
  }
  return node;
}

const str = (value: unknown): string | null => (typeof value === "string" ? value : null);

function epochIso(seconds: unknown): string | null {
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds <= 0) return null;
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The payload inside the envelope, or `publisher_error` naming what is missing. */
export function payloadOf(envelope: unknown): unknown {
  if (!Array.isArray(envelope))
    throw permanentError("publisher_error", `${WHAT}: the answer is not a batch envelope`);
  const entry: unknown = envelope.find((item) => at(item, 0) === "wrb.fr" && at(item, 1) === RPC_ID);
  if (!entry) throw permanentError("publisher_error", `${WHAT}: no ${RPC_ID} entry in the answer`);
  const text = str(at(entry, 2));
  if (text === null) {
    const code = at(entry, 5, 0);
    throw permanentError(
      "publisher_error",
      `${WHAT}: ${RPC_ID} answered without data${typeof code === "number" ? ` (error ${code})` : ""}`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw permanentError("publisher_error", `${WHAT}: the ${RPC_ID} data is not JSON`);
  }
}

function readReview(item: unknown, pageUrl: string): RawReview | null {
  const id = str(at(item, 0));
  const rating = at(item, 2);
  const date = epochIso(at(item, 5, 0));
  if (!id || typeof rating !== "number" || !Number.isInteger(rating) || rating < 1 || rating > 5 || !date)
    return null;
  const author = str(at(item, 1, 0))?.trim();
  const reply = str(at(item, 7, 1))?.trim();
  const replyDate = epochIso(at(item, 7, 2, 0));
  return {
    id,
    ...(author ? { author_name: author } : {}),
    rating: { value: rating, best: 5, worst: 1 },
    text: str(at(item, 4))?.trim() ?? "",
    url: pageUrl,
    date,
    ...(reply ? { reply_text: reply, ...(replyDate ? { reply_date: replyDate } : {}) } : {}),
  };
}

/**
 * One answer. A review without id, rating 1–5 or date is skipped; the continuation token is
 * `payload[1][1]` (what JoMingyu's `[-2][-1]` reaches); no token ends the walk. A page without
 * reviews that still hands out a token is `publisher_error` (the walk would not move).
 */
export function parseReviewsAnswer(envelope: unknown, ctx: ParseContext): WalkPage {
  const payload = payloadOf(envelope);
  const items = at(payload, 0);
  const list = Array.isArray(items) ? items : [];
  const reviews: RawReview[] = [];
  for (const item of list) {
    ctx.budget.spend();
    const review = readReview(item, ctx.pageUrl);
    if (review) reviews.push(review);
  }
  const token = str(at(payload, 1, 1));
  if (token && list.length === 0)
    throw permanentError("publisher_error", `${WHAT}: a page without reviews hands out a continuation token`);
  return {
    reviews,
    next: token ? { page: ctx.position.page + 1, token } : null,
    pageLanguage: parsePlayKey(ctx.key).hl,
  };
}
