import { sha256 } from "@noble/hashes/sha2.js";
import { toHex } from "../crypto/encoding";
import { goJsonStringArray } from "./go-json";

export const DERIVED_ID_PREFIX = "gen_";

export interface IdentifyingFields {
  publisherKey: string;
  author_name: string;
  text: string;
  /** Milliseconds; only for absolute dates, since a relative one ("3 weeks ago") drifts between scrapes. */
  absolutePostedAt: number | null;
}

/**
 * A review id for publishers that give none: `gen_` + the first 128 bits (hex) of SHA-256 over
 * [publisher, author name, posted day (YYYY-MM-DD, UTC) or "", text]. The same review scraped again
 * gets the same id, so deduplication by review_id works across pages and tasks.
 */
export function derivedReviewId({
  publisherKey,
  author_name,
  text,
  absolutePostedAt,
}: IdentifyingFields): string {
  const day = absolutePostedAt === null ? "" : new Date(absolutePostedAt).toISOString().slice(0, 10);
  const digest = sha256(new TextEncoder().encode(goJsonStringArray([publisherKey, author_name, day, text])));
  return DERIVED_ID_PREFIX + toHex(digest).slice(0, 32);
}
