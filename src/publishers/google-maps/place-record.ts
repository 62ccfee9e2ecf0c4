import { permanentError } from "../../scraping/errors";
import { at, numberAt, stringAt } from "./nested";
import { FEATURE_ID } from "./place-ref";
import { jsonLiteralAt } from "../kit/json-literal";

/**
 * A place as Maps describes it: the same positional record sits in a place page's
 * `window.APP_INITIALIZATION_STATE` (as a `)]}'`-guarded JSON string whose element 6 is the record)
 * and in each result of a Maps search. By index: [2] address lines · [4][7] rating, [4][8] number
 * of reviews · [10] feature id · [11] name · [18] "name, address" · [78] place id ·
 * [183][1] address parts [_, street, _, city, postal code, state, country].
 */
export interface Place {
  featureId: string;
  name: string | null;
  placeId: string | null;
  /** The number of reviews the place shows; null where the record has none. */
  reviewCount: number | null;
  /** The average rating the place shows (1–5, one decimal); null where the record has none. */
  rating: number | null;
  street: string | null;
  postalCode: string | null;
  /** Every address text of the record, joined (for matching). */
  addressText: string;
}

/** The place a record describes, or null when it has no feature id (not a place). */
export function placeFromRecord(record: unknown): Place | null {
  const featureId = stringAt(record, 10);
  if (!featureId || !FEATURE_ID.test(featureId)) return null;
  const lines = at(record, 2);
  const parts = at(record, 183, 1);
  const texts = [
    ...(Array.isArray(lines) ? (lines as unknown[]) : []),
    stringAt(record, 18),
    ...(Array.isArray(parts) ? (parts as unknown[]) : []),
  ].filter((t): t is string => typeof t === "string" && t.trim() !== "");
  // A place without reviews has no rating block at [4] at all.
  const ratingBlock = at(record, 4);
  return {
    featureId: featureId.toLowerCase(),
    name: stringAt(record, 11) ?? null,
    placeId: stringAt(record, 78) ?? null,
    reviewCount: reviewCountOf(numberAt(record, 4, 8), ratingBlock),
    rating: numberAt(record, 4, 7) ?? null,
    street: stringAt(record, 183, 1, 1) ?? null,
    postalCode: stringAt(record, 183, 1, 4) ?? null,
    addressText: texts.join(", "),
  };
}

/** A whole count, 0 for a place without a rating block, null when the block has none we can read. */
function reviewCountOf(count: number | undefined, ratingBlock: unknown): number | null {
  if (count !== undefined) return Number.isInteger(count) && count >= 0 ? count : null;
  return ratingBlock === undefined || ratingBlock === null ? 0 : null;
}

const STATE_MARKER = "window.APP_INITIALIZATION_STATE=";
const XSSI = /^\s*\)\]\}'\s*/;

/** The place page's record itself, for what only the page carries (its inline reviews). */
export type PlacePage = { found: true; place: Place; record: unknown } | { found: false };

/**
 * The reviews a place page shows inline (signed out: at most five), at [175][9][0][0] of its record,
 * each entry shaped like a listugcposts entry (gosom/google-maps-scraper gmaps/entry.go reads them
 * there). An empty list when the record has none there.
 */
export function inlineReviewEntries(record: unknown): unknown[] {
  const entries = at(record, 175, 9, 0, 0);
  return Array.isArray(entries) ? entries : [];
}

/**
 * Reads a Maps page's `APP_INITIALIZATION_STATE`: the place it shows, or `found: false` for a Maps
 * page that shows none (an unknown cid or place id opens the bare map). A page without that state
 * is not a Maps page as this adapter knows it: publisher_error.
 */
export function parsePlacePage(html: string): PlacePage {
  const marker = html.indexOf(STATE_MARKER);
  const literal = marker < 0 ? null : jsonLiteralAt(html, marker + STATE_MARKER.length);
  let state: unknown;
  try {
    state = literal === null ? undefined : JSON.parse(literal);
  } catch {
    state = undefined;
  }
  if (!Array.isArray(state))
    throw permanentError("publisher_error", "Maps place page: no window.APP_INITIALIZATION_STATE array");
  // The place travels as a guarded JSON string at [3][k][6] (older pages: [3][k][5]).
  const slots = at(state, 3);
  for (const slot of Array.isArray(slots) ? slots : []) {
    for (const index of [6, 5]) {
      const blob = at(slot, index);
      if (typeof blob !== "string" || !XSSI.test(blob)) continue;
      let data: unknown;
      try {
        data = JSON.parse(blob.replace(XSSI, ""));
      } catch {
        throw permanentError(
          "publisher_error",
          "Maps place page: the place data in APP_INITIALIZATION_STATE[3] is not JSON",
        );
      }
      const record = at(data, 6);
      const place = placeFromRecord(record);
      if (place) return { found: true, place, record };
    }
  }
  return { found: false };
}
