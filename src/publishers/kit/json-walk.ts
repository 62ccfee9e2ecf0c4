/**
 * The walk shared by publishers whose reviews come from a JSON API paged by number or by token
 * (App Store, Google Play, BBB, Trusted Shops, Feefo, REVIEWS.io). A module built on it is three
 * things: how a profile URL names the profile (`keyOf`), the request of one page (`request`) and a
 * pure parser of one answer (`parse`). The walk owns the cursor, the page limit, the loop checks
 * and the error wording. A publisher that is just "request this URL, read these fields" declares
 * itself with ./json-api.ts instead (docs/publishers.md, "Adding a publisher").
 */
import { parseAnswer } from "../../scraping/answer-schema";
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import type { PageSummary } from "../../core/tasks/publisher-summary";
import type { PageInspector, RequestOptions } from "../../scraping/client";
import { permanentError } from "../../scraping/errors";
import type { Adapter, AdapterPage, ScrapeContext } from "../types";
import { WorkBudget } from "./work-budget";

/** Where one page of the walk is: a page number, a continuation token, or both absent on page one. */
export interface WalkPosition {
  page: number;
  /** The publisher's continuation token for this page (null where the API pages by number). */
  token: string | null;
}

/** What the walk stores between pages (validated with `cursor` on read). */
export const JsonWalkCursorSchema = z.object({
  /** The profile's id at the publisher (app id, merchant id, `bbbId-businessId`). */
  key: z.string().min(1).max(400),
  /** The canonical profile URL: where a review without its own URL links to. */
  pageUrl: z.string().url(),
  page: z.number().int().min(0).max(100_000),
  token: z.string().max(4_000).nullable(),
  /** Pages read so far in this walk, to stop a publisher that never ends it. */
  pagesRead: z.number().int().min(0),
});
export type JsonWalkCursor = z.infer<typeof JsonWalkCursorSchema>;

/** One parsed answer. */
export interface WalkPage {
  reviews: RawReview[];
  /** The next (older) page, or null on the last one. */
  next: WalkPosition | null;
  publisherTotal?: number | null;
  /** The publisher's own average and histogram, where the answer shows them (AdapterPage.summary). */
  summary?: PageSummary | null;
  limitedView?: string | null;
  pageLanguage?: string | null;
}

export interface ParseContext {
  key: string;
  pageUrl: string;
  position: WalkPosition;
  /** Counts the parser's work on this answer; `spend()` once per review (or node) read. */
  budget: WorkBudget;
}

export interface JsonWalkSpec {
  /** The publisher's name in error messages ("Feefo reviews"). */
  what: string;
  /** The profile key of a canonical profile URL, or null when the URL names no profile. */
  keyOf(profileUrl: URL): string | null;
  /**
   * Opens the profile before the walk when the module needs to (an unknown id, a canonical URL, an
   * id behind a domain): returns the canonical page URL and key. Absent: the given URL is canonical.
   */
  open?(key: string, profileUrl: string, ctx: ScrapeContext): Promise<{ pageUrl: string; key: string }>;
  /** The first page's position (page 0 or 1 by the API's own counting). */
  firstPage: number;
  /** The request of one page: its URL and options (POST body, headers). */
  request(key: string, position: WalkPosition, pageUrl: string): { url: string; options?: RequestOptions };
  /** Reads one answer: pure, bounded, throws `publisher_error` naming what is missing. */
  parse(data: unknown, ctx: ParseContext): WalkPage;
  /** Pages a walk may read before it is cut off as not ending (the API's own limit where known). */
  maxPages: number;
  inspect?: PageInspector;
  /**
   * Fetches one page itself where a plain JSON request is not enough (two answers read together, an
   * envelope to unwrap); absent: `ctx.client.json(request(...))`.
   */
  fetch?(
    request: { url: string; options?: RequestOptions },
    key: string,
    ctx: ScrapeContext,
    position: WalkPosition,
  ): Promise<unknown>;
}

/**
 * Builds the adapter of a JSON-walk module. The walk ends when `parse` returns no next position; a
 * next position that does not move (the same page number, the same token) or a walk past
 * `maxPages` is `publisher_error`, never an endless loop or a silent stop.
 */
export function jsonWalkAdapter(spec: JsonWalkSpec): Adapter<JsonWalkCursor> {
  return {
    cursor: JsonWalkCursorSchema,
    inspect: spec.inspect,

    async start(profileUrl, ctx) {
      const key = spec.keyOf(new URL(profileUrl));
      if (!key) throw permanentError("profile_not_found", `${spec.what}: the profile URL names no profile`);
      const opened = spec.open ? await spec.open(key, profileUrl, ctx) : { pageUrl: profileUrl, key };
      return {
        profileUrl: opened.pageUrl,
        cursor: { key: opened.key, pageUrl: opened.pageUrl, page: spec.firstPage, token: null, pagesRead: 0 },
      };
    },

    async page(cursor, ctx): Promise<AdapterPage<JsonWalkCursor>> {
      if (cursor.pagesRead >= spec.maxPages) {
        throw permanentError(
          "publisher_error",
          `${spec.what}: still more pages after ${spec.maxPages}; the walk does not end`,
        );
      }
      const position: WalkPosition = { page: cursor.page, token: cursor.token };
      const request = spec.request(cursor.key, position, cursor.pageUrl);
      const data = spec.fetch
        ? await spec.fetch(request, cursor.key, ctx, position)
        : (await ctx.client.json(request.url, request.options)).data;
      const budget = new WorkBudget(spec.what);
      const parsed = spec.parse(data, { key: cursor.key, pageUrl: cursor.pageUrl, position, budget });
      const next = parsed.next;
      if (next && next.page === position.page && next.token === position.token) {
        throw permanentError(
          "publisher_error",
          `${spec.what}: the next page is the page just read (page ${position.page})`,
        );
      }
      // A stored cursor that would not validate on read fails as `internal`; refuse it here instead.
      if (
        next &&
        !JsonWalkCursorSchema.safeParse({ ...cursor, page: next.page, token: next.token }).success
      ) {
        throw permanentError("publisher_error", `${spec.what}: the next page's position is out of range`);
      }
      return {
        pageUrl: cursor.pageUrl,
        profileUrl: cursor.pageUrl,
        reviews: parsed.reviews,
        next: next
          ? { ...cursor, page: next.page, token: next.token, pagesRead: cursor.pagesRead + 1 }
          : null,
        ...(parsed.publisherTotal !== undefined ? { publisherTotal: parsed.publisherTotal } : {}),
        ...(parsed.summary ? { summary: parsed.summary } : {}),
        ...(parsed.limitedView ? { limitedView: parsed.limitedView } : {}),
        ...(parsed.pageLanguage ? { pageLanguage: parsed.pageLanguage } : {}),
      };
    },
  };
}

/**
 * Parses a publisher answer with a zod schema; a mismatch is `publisher_error` naming the first
 * path that differs ("Feefo reviews: unexpected answer at reviews.0.service.rating: …").
 */
export function readAnswer<T>(schema: z.ZodType<T>, data: unknown, what: string): T {
  return parseAnswer(schema, data, what);
}

/**
 * The next page by number: the page after `page` while `page` is below `lastPage` (the API's page
 * count, in its own numbering) and the page had reviews. An empty page before the stated last one
 * is `publisher_error` (never a silent end with fewer reviews than the publisher states).
 */
export function nextByNumber(
  what: string,
  page: number,
  lastPage: number,
  count: number,
): WalkPosition | null {
  if (page >= lastPage) return null;
  if (count === 0)
    throw permanentError(
      "publisher_error",
      `${what}: page ${page} is empty although the answer counts pages up to ${lastPage}`,
    );
  return { page: page + 1, token: null };
}

/** A positive whole count from a publisher's number or numeric string, or null. */
export function countOf(value: unknown): number | null {
  const n = typeof value === "string" && /^\d{1,12}$/.test(value.trim()) ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : null;
}
