import { md5 } from "@noble/hashes/legacy.js";
import { toHex } from "../crypto/encoding";
import { goJsonStringArray } from "./go-json";

export interface HashedFields {
  text: string;
  author_name: string;
  /** The owner's reply; it joins the hash when non-empty. */
  reply_text?: string;
  review_id: string;
}

/** The array that is serialized and hashed (docs/architecture.md, "Product decisions", Reviews). */
export function reviewHashInput({ text, author_name, reply_text, review_id }: HashedFields): string[] {
  if (!text && !author_name) return [review_id];
  return reply_text ? [text, author_name, reply_text] : [text, author_name];
}

/**
 * Lower-case hex MD5 of the Go-style JSON of {@link reviewHashInput}. MD5 is no security choice:
 * it is the hash clients already store in `last_review_hashes`.
 */
export function reviewHash(fields: HashedFields): string {
  return toHex(md5(new TextEncoder().encode(goJsonStringArray(reviewHashInput(fields)))));
}
