/**
 * SmartCustomer's review markup, read where a page carries no schema.org Review in its JSON-LD.
 * Selectors as the newest named markup client reads Sitejabber's pages (lennarddaw/review-scraper
 * `src/scrapers/review_platforms/sitejabber.py` @62d7d513, 2026-01-13): a review is a `div.review`,
 * with `h3.review__title`, `div.review__body`, the rating as the filled stars in `div.review__rating`
 * (`i.star--filled` or `i.icon-star`), `time.review__date` with a `datetime`, and
 * `span.review__author-name`. One HTMLRewriter pass; every element and text chunk is counted.
 */
import { decodeHTML } from "entities";
import type { WorkBudget } from "../kit/work-budget";

export interface SmartCustomerCard {
  title: string;
  text: string;
  /** Filled stars counted in the card's rating element; 0 where none were found. */
  stars: number;
  date: string | null;
  author: string;
}

const FIELD_CHARS = 2_000;
const BODY_CHARS = 50_000;
const add = (to: string, chunk: string, max: number) =>
  to.length >= max ? to : to + chunk.slice(0, max - to.length);
const squash = (text: string) => decodeHTML(text).replace(/\s+/g, " ").trim();

/**
 * Collects the review cards during the page's HTMLRewriter pass and returns them, in page order, once
 * the pass is done (a card nested in a card is part of the outer one; an unclosed card is dropped).
 */
export function collectReviewCards(rewriter: HTMLRewriter, budget: WorkBudget): () => SmartCustomerCard[] {
  const cards: SmartCustomerCard[] = [];
  let card: SmartCustomerCard | null = null;
  const spend = () => budget.spend();
  const text = (field: "title" | "text" | "author", max: number) => ({
    element: spend,
    text(chunk: Text) {
      spend();
      if (card) card[field] = add(card[field], chunk.text, max);
    },
  });
  rewriter
    .on("div.review", {
      element(el) {
        spend();
        if (card) return;
        const open: SmartCustomerCard = { title: "", text: "", stars: 0, date: null, author: "" };
        card = open;
        el.onEndTag(() => {
          open.title = squash(open.title);
          open.text = squash(open.text);
          open.author = squash(open.author);
          cards.push(open);
          card = null;
        });
      },
    })
    .on("div.review h3.review__title", text("title", FIELD_CHARS))
    .on("div.review div.review__body", text("text", BODY_CHARS))
    .on("div.review span.review__author-name", text("author", FIELD_CHARS))
    .on("div.review div.review__rating i.star--filled, div.review div.review__rating i.icon-star", {
      element() {
        spend();
        if (card) card.stars++;
      },
    })
    .on("div.review time.review__date", {
      element(el) {
        spend();
        if (card && card.date === null) card.date = el.getAttribute("datetime")?.slice(0, 40).trim() || null;
      },
    });
  return () => cards;
}
