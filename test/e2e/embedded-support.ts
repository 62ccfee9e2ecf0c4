import { expect } from "vitest";
import type { EmbeddedReview } from "../fixtures/embedded-sites";
import { md5Hash } from "./support";

/** The API review an embedded review must become; `pageUrl` is the page it was read from. */
export function expectedEmbedded(r: EmbeddedReview, pageUrl: string, authorId: string | null = null) {
  return {
    review_id: r.id,
    author_name: r.author,
    author_id: authorId,
    rating: r.rating,
    text: r.text,
    url: pageUrl,
    posted_at: Date.parse(r.date),
    review_hash: md5Hash(r.reply ? [r.text, r.author, r.reply.text] : [r.text, r.author]),
    language: "en",
    source_date: r.date,
    scraped_at: expect.any(Number),
    ...(r.reply ? { owner_reply: { text: r.reply.text, posted_at: Date.parse(r.reply.date) } } : {}),
  };
}
