/**
 * G2's review pages (`/products/<slug>/reviews?order=most_recent&page=N`) are server-rendered: each
 * review is a card carrying schema.org Review microdata (`itemprop="review"`, with `author` →
 * `name`/`url` metas, `datePublished`, a title in `itemprop="name"` and the answered questions in
 * `itemprop="reviewBody"`), a `stars-N` class on the half-star scale (N = 0..10) and its id as
 * `id="survey-response-<n>"`. The product's `aggregateRating` says how many reviews there are.
 * This file reads those cards with HTMLRewriter (the site's own markup, not rendered text).
 */
import { decodeHTML, decodeHTMLAttribute } from "entities";
import type { RawReview } from "../../core/reviews";
import { permanentError } from "../../scraping/errors";

export interface G2Card {
  id: string | null;
  author: string | null;
  authorUrl: string | null;
  date: string | null;
  stars: number | null;
  title: string;
  language: string | null;
  /** Question headings and their answers, in page order. */
  sections: { heading: string; body: string }[];
  reply: { text: string; date: string | null } | null;
}

export interface G2Page {
  cards: G2Card[];
  /** `aggregateRating` → `reviewCount`, or null when the page does not say. */
  reviewCount: number | null;
  /** The page links to a next (older) page. */
  hasNext: boolean;
}

const REVIEW = '[itemprop="review"]';
const squash = (text: string) => text.replace(/\s+/g, " ").trim();
/** The review cards, review count and next-page link of one reviews page. */
export async function readG2Page(html: string): Promise<G2Page> {
  const cards: G2Card[] = [];
  let card: G2Card | null = null;
  let section: { heading: string; body: string } | null = null;
  let reviewCount: number | null = null;
  let hasNext = false;
  // Text handlers get chunks, entities as written (decoded with `entities`); each field collects its
  // chunks until the element ends.
  let title = "";
  let replyText = "";
  let paragraph = "";

  await new HTMLRewriter()
    .on(REVIEW, {
      element(el) {
        card = {
          id: /^survey-response-(\d+)$/.exec(el.getAttribute("id") ?? "")?.[1] ?? null,
          author: null,
          authorUrl: null,
          date: null,
          stars: null,
          title: "",
          language: null,
          sections: [],
          reply: null,
        };
        title = "";
        section = null;
        const done = card;
        el.onEndTag(() => {
          done.title = squash(decodeHTML(title)).replace(/^"(.*)"$/, "$1");
          cards.push(done);
          card = null;
        });
      },
    })
    .on(`${REVIEW} [itemprop="author"] meta`, {
      element(el) {
        const prop = el.getAttribute("itemprop");
        const raw = el.getAttribute("content");
        const content = raw === null ? null : decodeHTMLAttribute(raw);
        // A vendor response may name its own author; the reviewer is the card's first one.
        if (!card || !content || card.reply) return;
        if (prop === "name") card.author = squash(content);
        if (prop === "url") card.authorUrl = content;
      },
    })
    .on(`${REVIEW} meta[itemprop="datePublished"]`, {
      element(el) {
        if (card && !card.reply) card.date = el.getAttribute("content");
      },
    })
    .on(`${REVIEW} meta[itemprop="inLanguage"]`, {
      element(el) {
        if (card) card.language = el.getAttribute("content");
      },
    })
    .on(`${REVIEW} [class*="stars-"]`, {
      element(el) {
        const n = /(?:^|\s)stars-(\d{1,2})(?:\s|$)/.exec(el.getAttribute("class") ?? "")?.[1];
        if (card && n !== undefined && card.stars === null) card.stars = Number(n);
      },
    })
    .on(`${REVIEW} div[itemprop="name"]`, {
      text(chunk) {
        title += chunk.text;
      },
    })
    .on(`${REVIEW} [itemprop="reviewBody"] h5`, {
      element() {
        section = { heading: "", body: "" };
        if (card) card.sections.push(section);
      },
      text(chunk) {
        if (section) section.heading += chunk.text;
      },
    })
    .on(`${REVIEW} [itemprop="reviewBody"] p`, {
      element(el) {
        paragraph = "";
        el.onEndTag(() => {
          const text = squash(decodeHTML(paragraph));
          if (!card || !text) return;
          // Answers before any question heading still belong to the review.
          if (!section) card.sections.push((section = { heading: "", body: "" }));
          section.body = section.body ? `${section.body}\n${text}` : text;
        });
      },
      text(chunk) {
        paragraph += chunk.text;
      },
    })
    .on(`${REVIEW} [itemprop="comment"]`, {
      element(el) {
        if (!card) return;
        const reply = { text: "", date: null as string | null };
        card.reply = reply;
        replyText = "";
        el.onEndTag(() => {
          reply.text = squash(decodeHTML(replyText));
        });
      },
    })
    .on(`${REVIEW} [itemprop="comment"] meta[itemprop="dateCreated"]`, {
      element(el) {
        if (card?.reply) card.reply.date = el.getAttribute("content");
      },
    })
    .on(`${REVIEW} [itemprop="comment"] [itemprop="text"]`, {
      text(chunk) {
        replyText += chunk.text;
      },
    })
    .on('[itemprop="aggregateRating"] meta[itemprop="reviewCount"]', {
      element(el) {
        const count = Number(el.getAttribute("content"));
        if (Number.isInteger(count) && count >= 0) reviewCount = count;
      },
    })
    .on('a[rel~="next"], link[rel~="next"]', {
      element() {
        hasNext = true;
      },
    })
    .transform(new Response(html))
    .text();

  for (const c of cards) for (const s of c.sections) s.heading = squash(decodeHTML(s.heading));
  return { cards, reviewCount, hasNext };
}

/**
 * The review's text as the API keeps it (the same layout as glassdoor.com's title, Pros, Cons):
 * the title, then each answered question as its heading line followed by the answer, separated by
 * blank lines. G2's questions name the product ("What do you like best about Acme CRM?"), kept as
 * the site writes them.
 */
export function cardText(card: G2Card): string {
  const parts = [card.title, ...card.sections.filter((s) => s.body).map((s) => (s.heading ? `${s.heading}\n${s.body}` : s.body))];
  return parts.filter(Boolean).join("\n\n");
}

/** One card as a RawReview; `slug` is the product's (review URLs are `/products/<slug>/reviews/<slug>-review-<id>`). */
export function cardReview(card: G2Card, index: number, slug: string): RawReview {
  if (!card.id) throw permanentError("publisher_error", `G2 page: review ${index} has no survey-response id`);
  if (card.stars === null || card.stars > 10) throw permanentError("publisher_error", `G2 page: review ${index} has no stars-N rating`);
  if (!card.date) throw permanentError("publisher_error", `G2 page: review ${index} has no datePublished`);
  const raw: RawReview = {
    id: card.id,
    // Half stars: stars-9 is 4.5 of 5; the 1..5 mapping rounds it (halves up).
    rating: { value: card.stars / 2, best: 5, worst: 1 },
    text: cardText(card),
    url: `https://www.g2.com/products/${slug}/reviews/${slug}-review-${card.id}`,
    date: card.date,
  };
  if (card.author) raw.author_name = card.author;
  if (card.authorUrl) raw.author_url = card.authorUrl;
  if (card.language) raw.language = card.language;
  if (card.reply?.text) {
    raw.reply_text = card.reply.text;
    if (card.reply.date) raw.reply_date = card.reply.date;
  }
  return raw;
}
