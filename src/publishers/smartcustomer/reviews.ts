/**
 * SmartCustomer (formerly Sitejabber) review pages, `https://www.smartcustomer.com/reviews/<domain>`
 * and `?page=N`, 20 reviews a page, server-rendered. Read from the page's JSON-LD: the business node
 * (any `@type`, found by shape: a `name` with an `aggregateRating` or a `review`) with
 * `aggregateRating` {`ratingValue`, `reviewCount`} and `review` as schema.org `Review` nodes
 * (`reviewRating.ratingValue`, `headline`/`name`, `reviewBody`, `datePublished`, `author.name`,
 * `author.url`, `url`), or `Review` nodes at the top level. These are the schema.org names the 2026
 * Apify actors output (README.md "Evidence"); no public client shows the page itself, so where the
 * page carries them is assumed. A page without Review nodes is read from its review markup
 * (./cards.ts); a page with neither is `publisher_error` naming what is missing.
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import { collectJsonLd } from "../../scraping/extract/json-ld";
import { permanentError } from "../../scraping/errors";
import { htmlPass } from "../kit/html-pass";
import { collectReviewCards, type SmartCustomerCard } from "./cards";
import { countOf, nextByNumber, type ParseContext, type WalkPage, type WalkPosition } from "../kit/json-walk";
import type { WorkBudget } from "../kit/work-budget";

export const WHAT = "SmartCustomer reviews page";

/** Reviews a page shows (the actors: one request per 20 reviews). */
export const PAGE_SIZE = 20;

/** Page N of a business's reviews: the profile page itself, then `?page=N`. */
export function smartCustomerPageUrl(pageUrl: string, position: WalkPosition): string {
  if (position.page <= 1) return pageUrl;
  const url = new URL(pageUrl);
  url.searchParams.set("page", String(position.page));
  return url.toString();
}

/** What one review page holds: its JSON-LD items (arrays and `@graph` flattened) and its review cards. */
export interface SmartCustomerPage {
  items: unknown[];
  cards: SmartCustomerCard[];
}

/** Reads a review page in one budgeted HTMLRewriter pass: the JSON-LD and the review markup together. */
export async function readSmartCustomerPage(html: string, budget: WorkBudget): Promise<SmartCustomerPage> {
  const rewriter = new HTMLRewriter();
  const items = collectJsonLd(rewriter);
  const cards = collectReviewCards(rewriter, budget);
  rewriter.on("*", { element: () => budget.spend() });
  await htmlPass(rewriter, html, budget);
  return { items: items(), cards: cards() };
}

const ReviewSchema = z.object({
  "@id": z.string().max(2_000).nullish(),
  url: z.string().max(2_000).nullish(),
  headline: z.string().max(2_000).nullish(),
  name: z.string().max(2_000).nullish(),
  reviewBody: z.string().max(100_000).nullish(),
  description: z.string().max(100_000).nullish(),
  datePublished: z.string().min(4).max(40),
  author: z.object({ name: z.string().max(200).nullish(), url: z.string().max(2_000).nullish() }).nullish(),
  reviewRating: z.object({ ratingValue: z.union([z.number(), z.string().max(10)]) }),
});

const AggregateSchema = z.object({
  ratingValue: z.union([z.number(), z.string().max(10)]).nullish(),
  reviewCount: z.unknown().optional(),
  ratingCount: z.unknown().optional(),
});

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const typeIs = (node: Record<string, unknown>, type: string) =>
  node["@type"] === type || (Array.isArray(node["@type"]) && node["@type"].includes(type));

/** The business node: the first item with a name and an aggregateRating or reviews. */
function businessNode(items: unknown[], budget: WorkBudget): Record<string, unknown> | null {
  for (const item of items) {
    budget.spend();
    if (isObject(item) && typeof item.name === "string" && ("aggregateRating" in item || "review" in item))
      return item;
  }
  return null;
}

/** The Review nodes: the business's `review` (one level of nesting flattened), else top-level Reviews. */
function reviewNodes(items: unknown[], business: Record<string, unknown> | null, budget: WorkBudget) {
  const nodes: unknown[] = [];
  const own = business?.review;
  for (const entry of Array.isArray(own) ? own : own === undefined ? [] : [own]) {
    budget.spend();
    for (const node of Array.isArray(entry) ? entry : [entry]) {
      budget.spend();
      nodes.push(node);
    }
  }
  if (nodes.length) return nodes;
  for (const item of items) {
    budget.spend();
    if (isObject(item) && typeIs(item, "Review")) nodes.push(item);
  }
  return nodes;
}

/** The review's id: the permalink's fragment (`#review-…`), or its `@id`/`url` when it has none. */
function idOf(permalink: string | null): string | undefined {
  if (!permalink) return undefined;
  const hash = permalink.indexOf("#");
  return (hash >= 0 ? permalink.slice(hash + 1) : permalink).trim() || undefined;
}

function rawReview(node: unknown, pageUrl: string): RawReview | null {
  const parsed = ReviewSchema.safeParse(node);
  if (!parsed.success) return null;
  const review = parsed.data;
  const rating = Number(review.reviewRating.ratingValue);
  if (!(rating >= 1 && rating <= 5)) return null;
  const permalink = [review.url, review["@id"]].find((u) => u && /^https?:\/\//.test(u)) ?? null;
  const id = idOf(permalink ?? review["@id"] ?? null);
  const title = (review.headline ?? review.name)?.trim();
  const body = (review.reviewBody ?? review.description ?? "").trim();
  const name = review.author?.name?.trim();
  const authorUrl = review.author?.url?.trim();
  return {
    ...(id ? { id } : {}),
    ...(name ? { author_name: name } : {}),
    ...(authorUrl && /^https?:\/\//.test(authorUrl) ? { author_url: authorUrl } : {}),
    rating: { value: rating, best: 5, worst: 1 },
    ...(title ? { title } : {}),
    text: [title, body].filter(Boolean).join("\n\n"),
    url: permalink ?? pageUrl,
    date: review.datePublished.trim(),
  };
}

const ASSUMED = "reviewRating.ratingValue (1–5), datePublished";
const ASSUMED_MARKUP = "filled stars in div.review__rating, time.review__date[datetime]";

/** A review card as a raw review, or null without 1–5 stars or a date. */
function cardReview(card: SmartCustomerCard, pageUrl: string): RawReview | null {
  if (card.stars < 1 || card.stars > 5 || !card.date) return null;
  return {
    ...(card.author ? { author_name: card.author } : {}),
    rating: { value: card.stars, best: 5, worst: 1 },
    ...(card.title ? { title: card.title } : {}),
    text: [card.title, card.text].filter(Boolean).join("\n\n"),
    url: pageUrl,
    date: card.date,
  };
}

/** The reviews of a page: its JSON-LD Review nodes, else its review cards; every one skipped is loud. */
function pageReviews(page: SmartCustomerPage, nodes: unknown[], ctx: ParseContext): RawReview[] {
  if (nodes.length) {
    const reviews = nodes.flatMap((node) => rawReview(node, ctx.pageUrl) ?? []);
    if (!reviews.length)
      throw permanentError(
        "publisher_error",
        `${WHAT}: none of the ${nodes.length} Review nodes has the assumed fields (${ASSUMED})`,
      );
    return reviews;
  }
  const reviews = page.cards.flatMap((card) => cardReview(card, ctx.pageUrl) ?? []);
  if (page.cards.length && !reviews.length)
    throw permanentError(
      "publisher_error",
      `${WHAT}: none of the ${page.cards.length} div.review cards has the assumed fields (${ASSUMED_MARKUP})`,
    );
  return reviews;
}

const isPage = (data: unknown): data is SmartCustomerPage =>
  isObject(data) && Array.isArray(data.items) && Array.isArray(data.cards);

/**
 * One page: the schema.org Reviews of its JSON-LD, or, where it has none, its review markup. The
 * stated `reviewCount` sets the page count (20 a page); without it a full page means another. A page
 * stating reviews but carrying neither, or whose reviews all lack the assumed fields, is
 * `publisher_error` naming them: never a silent completion with fewer reviews.
 */
export function parseSmartCustomerPage(data: unknown, ctx: ParseContext): WalkPage {
  if (!isPage(data)) throw permanentError("publisher_error", `${WHAT}: the page was not read`);
  const business = businessNode(data.items, ctx.budget);
  const nodes = reviewNodes(data.items, business, ctx.budget);
  const shown = nodes.length || data.cards.length;
  if (!business && !shown)
    throw permanentError(
      "publisher_error",
      `${WHAT}: no JSON-LD business node with aggregateRating, no schema.org Review and no div.review card`,
    );
  const aggregate = AggregateSchema.safeParse(business?.aggregateRating);
  const total = aggregate.success
    ? (countOf(aggregate.data.reviewCount) ?? countOf(aggregate.data.ratingCount))
    : null;
  if (total && !shown)
    throw permanentError(
      "publisher_error",
      `${WHAT}: the JSON-LD states ${total} reviews but page ${ctx.position.page} carries no schema.org Review and no div.review card`,
    );
  const reviews = pageReviews(data, nodes, ctx);
  const lastPage = total === null ? null : Math.max(1, Math.ceil(total / PAGE_SIZE));
  const next =
    lastPage !== null
      ? nextByNumber(WHAT, ctx.position.page, lastPage, shown)
      : shown >= PAGE_SIZE
        ? { page: ctx.position.page + 1, token: null }
        : null;
  const rating = aggregate.success ? Number(aggregate.data.ratingValue) : NaN;
  return {
    reviews,
    next,
    publisherTotal: total,
    summary: Number.isFinite(rating) && rating > 0 ? { rating, ratingScale: "1-5" } : null,
  };
}
