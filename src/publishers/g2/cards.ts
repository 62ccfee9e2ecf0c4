/**
 * G2's review pages (`/products/<slug>/reviews?order=most_recent&page=N`) and the HTML fragment an
 * app-shell page loads its cards from (`/products/<slug>/reviews_and_filters?…`, a Turbo frame; see
 * adapter.ts) are read alike. Three layouts are read, newest first:
 * - 2026-07: the cards are `section#reviews article`, with no microdata. The card's id is
 *   `<slug>-review-<n>` (its share button's `data-clipboard-text` holds the review URL too), the
 *   rating is text in `span.elv-star-wrapper__desc__rating` ("4.5/5"), the date the `content` of a
 *   `meta` (YYYY-MM-DD), the reviewer's name `div.elv-text-base.elv-font-bold`, the title
 *   `div.elv-text-lg.elv-font-bold`, and each answered question a `section` holding a heading `div`
 *   and its `p`. Ten reviews a page; the next page is the pagination's named "next" link
 *   (`a.pagination__named-link`), the product's count the list heading's "(115)" or
 *   `.elv-star-wrapper__desc__count`.
 * - 2025-08: `article` cards carrying schema.org microdata: `itemprop="reviewRating"` →
 *   `meta itemprop="ratingValue"` (0..5), `datePublished`, `author` → `name`, `name` (title),
 *   `reviewBody`.
 * - 2024: `itemprop="review"` cards with `id="survey-response-<n>"` and a `stars-N` class on the
 *   half-star scale (N = 0..10).
 * The product's `aggregateRating` → `reviewCount` microdata, where present, says how many reviews
 * there are. This file reads the cards with HTMLRewriter (the site's own markup, no regex over the
 * page); each element and text chunk it handles is counted in a WorkBudget.
 */
import { decodeHTML, decodeHTMLAttribute } from "entities";
import type { RawReview } from "../../core/reviews";
import { permanentError } from "../../scraping/errors";
import { htmlPass } from "../kit/html-pass";
import { WorkBudget } from "../kit/work-budget";

export interface G2Card {
  id: string | null;
  author: string | null;
  authorUrl: string | null;
  date: string | null;
  /** Stars out of 5 (halves allowed), or null when the card shows none. */
  rating: number | null;
  title: string;
  language: string | null;
  /** Question headings and their answers, in page order. */
  sections: { heading: string; body: string }[];
  reply: { text: string; date: string | null } | null;
}

export interface G2Page {
  cards: G2Card[];
  /** The product's review count (`aggregateRating` → `reviewCount`, or the header's count), or null. */
  reviewCount: number | null;
  /** The page links to a next (older) page. */
  hasNext: boolean;
}

/** Longest text read from one field (a title, a heading, a count, a rating); longer is cut. */
const FIELD_CHARS = 2_000;
/** Longest answer kept from one paragraph. */
const PARAGRAPH_CHARS = 50_000;
/** G2's attribution line at the end of each answer in the 2026 layout, not the reviewer's words. */
const ATTRIBUTION = "Review collected by and hosted on G2.com.";

const squash = (text: string) => text.replace(/\s+/g, " ").trim();
const add = (to: string, chunk: string, max: number) =>
  to.length >= max ? to : to + chunk.slice(0, max - to.length);

/** "4.5/5", "4.5 / 5", "4,5/5" → 4.5; anything else → null. Reads a short, already cut string. */
export function ratingText(text: string): number | null {
  const match = /^\s*(\d(?:[.,]\d)?)\s*\/\s*5\s*$/.exec(text.slice(0, 40));
  if (!match) return null;
  const value = Number(match[1].replace(",", "."));
  return value >= 0 && value <= 5 ? value : null;
}

/** A count as written ("1,234", "(1.234)", "1 234 reviews") → 1234, or null. */
function countText(text: string): number | null {
  const digits = /(\d[\d,.\s]{0,12})/.exec(text.slice(0, 80))?.[1]?.replace(/[,.\s]/g, "");
  const count = digits ? Number(digits) : NaN;
  return Number.isSafeInteger(count) ? count : null;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d\d:?\d\d)?)?$/;

/** The review number of an id or URL: `survey-response-<n>`, `<slug>-review-<n>` (at its end). */
function reviewNumber(value: string | null): string | null {
  if (!value) return null;
  const tail = value.slice(-200);
  return (
    /(?:^|-)survey-response-(\d{1,15})$/.exec(tail)?.[1] ??
    /-review-(\d{1,15})\/?(?:[?#].*)?$/.exec(tail)?.[1] ??
    null
  );
}

const CARD = '[itemprop="review"], article';

/** The review cards, review count and next-page link of one reviews page. */
export async function readG2Page(html: string, budget = new WorkBudget("G2 reviews page")): Promise<G2Page> {
  const cards: G2Card[] = [];
  let card: G2Card | null = null;
  // Whether the open card is a review at all: 2026 pages hold other articles (ads, comparisons).
  let cardIsReview = false;
  let section: { heading: string; body: string } | null = null;
  let reviewCount: number | null = null;
  let headerCount: number | null = null;
  let hasNext = false;
  // Text handlers get chunks, entities as written (decoded with `entities`); each field collects its
  // chunks until the element ends, cut at a fixed length.
  let title = "";
  let ratingChunk = "";
  let nameChunk = "";
  let replyText = "";
  let paragraph = "";
  let inBody = 0;
  let inSection = 0;
  let inReply = false;

  const spend = () => budget.spend();
  const rewriter = new HTMLRewriter()
    .on(CARD, {
      element(el) {
        spend();
        // One card at a time: a card's inner article or microdata item is part of it.
        if (card) return;
        const id = reviewNumber(el.getAttribute("id"));
        card = {
          id,
          author: null,
          authorUrl: null,
          date: null,
          rating: null,
          title: "",
          language: null,
          sections: [],
          reply: null,
        };
        cardIsReview = el.getAttribute("itemprop") === "review" || id !== null;
        title = "";
        section = null;
        inBody = 0;
        inSection = 0;
        inReply = false;
        const done = card;
        el.onEndTag(() => {
          done.title = squash(decodeHTML(title)).replace(/^"(.*)"$/, "$1");
          if (cardIsReview || done.rating !== null) cards.push(done);
          card = null;
        });
      },
    })
    .on("[data-clipboard-text]", {
      element(el) {
        spend();
        if (card && !card.id)
          card.id = reviewNumber(el.getAttribute("data-clipboard-text")?.slice(0, FIELD_CHARS) ?? null);
      },
    })
    .on('a[href*="-review-"]', {
      element(el) {
        spend();
        if (card && !card.id) card.id = reviewNumber(el.getAttribute("href")?.slice(0, FIELD_CHARS) ?? null);
      },
    })
    .on('[itemprop="author"] meta', {
      element(el) {
        spend();
        const prop = el.getAttribute("itemprop");
        const raw = el.getAttribute("content");
        const content = raw === null ? null : decodeHTMLAttribute(raw.slice(0, FIELD_CHARS));
        // A vendor response may name its own author; the reviewer is the card's first one.
        if (!card || !content || card.reply) return;
        if (prop === "name" && !card.author) card.author = squash(content);
        if (prop === "url" && !card.authorUrl) card.authorUrl = content;
      },
    })
    .on("div.elv-text-base.elv-font-bold", {
      element(el) {
        spend();
        // Question headings share these classes; the reviewer's name is the one outside the answers.
        if (!card || card.author || inReply || inSection > 0) return;
        nameChunk = "";
        const open = card;
        el.onEndTag(() => {
          const name = squash(decodeHTML(nameChunk));
          if (name && !open.author) open.author = name;
        });
      },
      text(chunk) {
        spend();
        nameChunk = add(nameChunk, chunk.text, FIELD_CHARS);
      },
    })
    .on("meta[content]", {
      element(el) {
        spend();
        if (!card || card.reply || inReply) return;
        const prop = el.getAttribute("itemprop");
        const content = el.getAttribute("content")?.slice(0, 64) ?? "";
        if (prop === "datePublished") card.date = content;
        else if (prop === "inLanguage") card.language = content;
        else if (prop === "ratingValue" && card.rating === null) {
          const value = Number(content);
          if (content && value >= 0 && value <= 5) card.rating = value;
        } else if (!prop && !card.date && ISO_DAY.test(content)) card.date = content;
      },
    })
    .on('[class*="stars-"]', {
      element(el) {
        spend();
        const n = /(?:^|\s)stars-(\d{1,2})(?:\s|$)/.exec(
          el.getAttribute("class")?.slice(0, FIELD_CHARS) ?? "",
        )?.[1];
        if (card && n !== undefined && card.rating === null && Number(n) <= 10) card.rating = Number(n) / 2;
      },
    })
    .on(".elv-star-wrapper__desc__rating", {
      element(el) {
        spend();
        ratingChunk = "";
        const open = card;
        el.onEndTag(() => {
          const value = ratingText(decodeHTML(ratingChunk));
          if (open && open === card && open.rating === null && value !== null) open.rating = value;
        });
      },
      text(chunk) {
        spend();
        ratingChunk = add(ratingChunk, chunk.text, 64);
      },
    })
    .on(".elv-star-wrapper__desc__count", {
      text(chunk) {
        spend();
        if (card) return;
        const count = countText(chunk.text);
        if (count !== null && headerCount === null) headerCount = count;
      },
    })
    .on('div[itemprop="name"], div.elv-text-lg.elv-font-bold', {
      text(chunk) {
        spend();
        if (card && !inReply) title = add(title, chunk.text, FIELD_CHARS);
      },
    })
    .on('[itemprop="reviewBody"]', {
      element(el) {
        spend();
        if (!card) return;
        inBody++;
        el.onEndTag(() => {
          inBody--;
        });
      },
    })
    .on("section", {
      element(el) {
        spend();
        if (!card) return;
        inSection++;
        section = null;
        el.onEndTag(() => {
          inSection--;
          section = null;
        });
      },
    })
    .on('[itemprop="reviewBody"] h5, section > div', {
      element() {
        spend();
        if (!card || inReply || (inBody === 0 && inSection === 0)) return;
        section = { heading: "", body: "" };
        card.sections.push(section);
      },
      text(chunk) {
        spend();
        if (section && !section.body) section.heading = add(section.heading, chunk.text, FIELD_CHARS);
      },
    })
    .on("p", {
      element(el) {
        spend();
        if (!card || inReply || (inBody === 0 && inSection === 0)) return;
        paragraph = "";
        const open = card;
        el.onEndTag(() => {
          const text = squash(decodeHTML(paragraph).replace(ATTRIBUTION, ""));
          if (!text) return;
          // Answers before any question heading still belong to the review.
          if (!section) open.sections.push((section = { heading: "", body: "" }));
          section.body = section.body ? `${section.body}\n${text}` : text;
        });
      },
      text(chunk) {
        spend();
        paragraph = add(paragraph, chunk.text, PARAGRAPH_CHARS);
      },
    })
    .on('[itemprop="comment"]', {
      element(el) {
        spend();
        if (!card) return;
        const reply = { text: "", date: null as string | null };
        card.reply = reply;
        inReply = true;
        replyText = "";
        el.onEndTag(() => {
          reply.text = squash(decodeHTML(replyText));
          inReply = false;
        });
      },
    })
    .on('[itemprop="comment"] meta[itemprop="dateCreated"]', {
      element(el) {
        spend();
        if (card?.reply) card.reply.date = el.getAttribute("content")?.slice(0, 64) ?? null;
      },
    })
    .on('[itemprop="comment"] [itemprop="text"]', {
      text(chunk) {
        spend();
        replyText = add(replyText, chunk.text, PARAGRAPH_CHARS);
      },
    })
    .on('[itemprop="aggregateRating"] meta[itemprop="reviewCount"]', {
      element(el) {
        spend();
        const count = Number(el.getAttribute("content")?.slice(0, 20));
        if (Number.isSafeInteger(count) && count >= 0) reviewCount = count;
      },
    })
    .on("a.pagination__named-link", {
      element(el) {
        spend();
        // 2026 pages: "Next ›" is a named pagination link whose event options say `"value":"next"`.
        const options = decodeHTMLAttribute(el.getAttribute("data-event-options")?.slice(0, 200) ?? "");
        if (/"value"\s*:\s*"next"/.test(options)) hasNext = true;
      },
    })
    .on("h3 > span", {
      text(chunk) {
        spend();
        // 2026 pages head the list with "<Product> Reviews (115)".
        if (card || headerCount !== null) return;
        const count = /^\s*\((\d[\d,.]{0,12})\)\s*$/.test(chunk.text.slice(0, 40))
          ? countText(chunk.text)
          : null;
        if (count !== null) headerCount = count;
      },
    })
    .on('a[rel~="next"], link[rel~="next"]', {
      element() {
        spend();
        hasNext = true;
      },
    });
  await htmlPass(rewriter, html, budget);

  for (const c of cards) for (const s of c.sections) s.heading = squash(decodeHTML(s.heading));
  return { cards, reviewCount: reviewCount ?? headerCount, hasNext };
}

/**
 * The review's text as the API keeps it (the same layout as glassdoor.com's title, Pros, Cons):
 * the title, then each answered question as its heading line followed by the answer, separated by
 * blank lines. G2's questions name the product ("What do you like best about Acme CRM?"), kept as
 * the site writes them.
 */
export function cardText(card: G2Card): string {
  const parts = [
    card.title,
    ...card.sections.filter((s) => s.body).map((s) => (s.heading ? `${s.heading}\n${s.body}` : s.body)),
  ];
  return parts.filter(Boolean).join("\n\n");
}

/** One card as a RawReview; `slug` is the product's (review URLs are `/products/<slug>/reviews/<slug>-review-<id>`). */
export function cardReview(card: G2Card, index: number, slug: string): RawReview {
  if (!card.id)
    throw permanentError(
      "publisher_error",
      `G2 page: review ${index} has no review id (survey-response-N or <slug>-review-N)`,
    );
  if (card.rating === null)
    throw permanentError(
      "publisher_error",
      `G2 page: review ${index} has no rating (elv-star-wrapper__desc__rating, ratingValue or stars-N)`,
    );
  if (!card.date)
    throw permanentError(
      "publisher_error",
      `G2 page: review ${index} has no date (datePublished or a dated meta)`,
    );
  const raw: RawReview = {
    id: card.id,
    // Half stars: 4.5 of 5; the 1..5 mapping rounds it (halves up).
    rating: { value: card.rating, best: 5, worst: 1 },
    text: cardText(card),
    url: `https://www.g2.com/products/${slug}/reviews/${slug}-review-${card.id}`,
    date: card.date,
  };
  if (card.author) raw.author_name = card.author;
  if (card.authorUrl) raw.author_url = card.authorUrl;
  if (card.language) raw.language = card.language;
  // Also a field of its own (issue 36); the text keeps it first, so review_hash is unchanged.
  if (card.title) raw.title = card.title;
  if (card.reply?.text) {
    raw.reply_text = card.reply.text;
    if (card.reply.date) raw.reply_date = card.reply.date;
  }
  return raw;
}
