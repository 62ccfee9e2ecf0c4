/**
 * Tripadvisor's review pages (`<Kind>_Review-g<geo>-d<id>-Reviews-or<offset>-<Name>.html`), read with
 * HTMLRewriter: ten review cards a page from `offset` on. Public scrapers of 2025–2026 read these
 * pages to go past the newest 20 that the review list query returns (it ignores its offset). The
 * card holds (selectors as those clients use them): `[data-test-target="HR_CC_CARD"]` (hotels) or
 * `[data-automation="reviewCard"]` (restaurants, attractions); the review's link
 * `/ShowUserReviews-g…-d…-r<review id>-…` in its title `[data-test-target="review-title"]`; the rating
 * as "N of 5 bubbles" (an `aria-label` or an svg `title`); the body `[data-test-target="review-body"]`;
 * the date `[data-test-target="review-date"]` ("Written November 3, 2026"); the reviewer's link
 * `/Profile/<name>`. Every element and text chunk handled is counted in a WorkBudget.
 */
import { decodeHTML } from "entities";
import type { RawReview } from "../../core/reviews";
import { permanentError } from "../../scraping/errors";
import { htmlPass } from "../kit/html-pass";
import { WorkBudget } from "../kit/work-budget";

export interface TripadvisorCard {
  id: string | null;
  rating: number | null;
  title: string;
  text: string;
  date: string | null;
  author: string | null;
  authorPath: string | null;
}

const CARD = '[data-test-target="HR_CC_CARD"], [data-automation="reviewCard"]';
/** Longest text kept from one field; a longer one is cut. */
const FIELD_CHARS = 2_000;
const BODY_CHARS = 50_000;
const add = (to: string, chunk: string, max: number) =>
  to.length >= max ? to : to + chunk.slice(0, max - to.length);
const squash = (text: string) =>
  text
    .replace(/[^\S\n]+/g, " ")
    .replace(/ ?\n ?/g, "\n")
    .trim();

/** "4.0 of 5 bubbles", "5 of 5 bubbles" → 4, 5; anything else → null. Reads a short, already cut string. */
export function bubbles(text: string): number | null {
  const match = /^\s*(\d(?:[.,]\d)?) of 5 bubbles/i.exec(text.slice(0, 60));
  const value = match ? Number(match[1].replace(",", ".")) : NaN;
  return value >= 1 && value <= 5 ? value : null;
}

/** The review id in a `/ShowUserReviews-g<geo>-d<location>-r<id>-…` link, or null. */
function reviewIdOf(href: string): string | null {
  return /^\/ShowUserReviews-g\d{1,12}-d\d{1,12}-r(\d{1,15})-/.exec(href.slice(0, 300))?.[1] ?? null;
}

/** The review cards of one `-or<offset>-` page, in page order. */
export async function readReviewCards(
  html: string,
  budget = new WorkBudget("Tripadvisor review page"),
): Promise<TripadvisorCard[]> {
  const cards: TripadvisorCard[] = [];
  let card: TripadvisorCard | null = null;
  let ratingTitle = "";
  let date = "";
  // The reviewer's link whose text is being read (the card's first /Profile/ link).
  let readingName = false;
  let name = "";
  const spend = () => budget.spend();
  const rewriter = new HTMLRewriter()
    .on(CARD, {
      element(el) {
        spend();
        if (card) return;
        const open: TripadvisorCard = {
          id: null,
          rating: null,
          title: "",
          text: "",
          date: null,
          author: null,
          authorPath: null,
        };
        card = open;
        el.onEndTag(() => {
          open.title = squash(decodeHTML(open.title));
          open.text = squash(decodeHTML(open.text));
          cards.push(open);
          card = null;
        });
      },
    })
    .on('a[href^="/ShowUserReviews-"]', {
      element(el) {
        spend();
        if (card && !card.id) card.id = reviewIdOf(el.getAttribute("href") ?? "");
      },
    })
    .on('a[href^="/Profile/"]', {
      element(el) {
        spend();
        if (!card || card.authorPath) return;
        const href = el.getAttribute("href")?.slice(0, 300) ?? "";
        if (!/^\/Profile\/[^/?#\s]{1,100}$/.test(href)) return;
        card.authorPath = href;
        const open = card;
        readingName = true;
        name = "";
        el.onEndTag(() => {
          readingName = false;
          const text = squash(decodeHTML(name));
          if (text) open.author = text;
        });
      },
      text(chunk) {
        spend();
        if (readingName) name = add(name, chunk.text, FIELD_CHARS);
      },
    })
    .on("[aria-label]", {
      element(el) {
        spend();
        if (card && card.rating === null) card.rating = bubbles(el.getAttribute("aria-label") ?? "");
      },
    })
    .on("svg title", {
      element(el) {
        spend();
        ratingTitle = "";
        const open = card;
        el.onEndTag(() => {
          if (open && open === card && open.rating === null) open.rating = bubbles(decodeHTML(ratingTitle));
        });
      },
      text(chunk) {
        spend();
        ratingTitle = add(ratingTitle, chunk.text, 60);
      },
    })
    .on('[data-test-target="review-title"]', {
      text(chunk) {
        spend();
        if (card) card.title = add(card.title, chunk.text, FIELD_CHARS);
      },
    })
    .on('[data-test-target="review-body"]', {
      text(chunk) {
        spend();
        if (card) card.text = add(card.text, chunk.text, BODY_CHARS);
      },
    })
    .on('[data-test-target="review-body"] br', {
      element() {
        spend();
        if (card) card.text = add(card.text, "\n", BODY_CHARS);
      },
    })
    .on('[data-test-target="review-date"]', {
      element(el) {
        spend();
        date = "";
        const open = card;
        el.onEndTag(() => {
          const text = squash(decodeHTML(date)).replace(/^Written\s+/i, "");
          if (open && !open.date && text) open.date = text;
        });
      },
      text(chunk) {
        spend();
        date = add(date, chunk.text, 80);
      },
    });
  await htmlPass(rewriter, html, budget);
  return cards;
}

/** One card as a RawReview; `origin` is the profile's site (links are made absolute on it). */
export function cardReview(
  card: TripadvisorCard,
  index: number,
  origin: string,
  profileUrl: string,
): RawReview {
  if (!card.id)
    throw permanentError(
      "publisher_error",
      `Tripadvisor review page: review ${index} has no ShowUserReviews link with its id`,
    );
  if (card.rating === null)
    throw permanentError(
      "publisher_error",
      `Tripadvisor review page: review ${index} has no "N of 5 bubbles" rating`,
    );
  const raw: RawReview = {
    id: card.id,
    rating: { value: card.rating, best: 5, worst: 1 },
    text: card.text,
    url: reviewUrl(profileUrl, card.id, origin),
  };
  if (card.author) raw.author_name = card.author;
  if (card.authorPath) raw.author_url = new URL(card.authorPath, origin).toString();
  if (card.date) raw.date = card.date;
  if (card.title) raw.title = card.title;
  return raw;
}

/** The review's own page on the profile's site, built from the location page's address. */
function reviewUrl(profileUrl: string, id: string, origin: string): string {
  const path = new URL(profileUrl).pathname;
  const match = /^\/\w+_Review-g(\d+)-d(\d+)-Reviews-(.*)$/.exec(path);
  return match
    ? new URL(`/ShowUserReviews-g${match[1]}-d${match[2]}-r${id}-${match[3]}`, origin).toString()
    : profileUrl;
}
