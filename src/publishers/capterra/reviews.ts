/**
 * Capterra's review pages as 2026 clients read them: the server-rendered
 * `https://www.capterra.com/p/<id>/<Slug>/reviews/?page=N`, 25 reviews a page (scrapfly-scrapers
 * capterra-scraper/capterra.py @588f4b3, 2026-07-09; browser-use/browser-harness
 * domain-skills/capterra/scraping.md @fb1a51d, field-tested 2026-04-18). The page is a Next.js App
 * Router page: the cards are in its HTML, and the same reviews travel in its React Server
 * Components payload (`self.__next_f.push([1,"…"])`) as the product's `textReviews` beside its
 * `reviewSummary`, each with Capterra's `reviewId` (a real page of 2026-08-30, Jason-Gugins/Signals
 * tests/fixtures/marketplace/capterra_jira_reviews.html @8119b5e7). The module reads that payload:
 * it carries the review id, which the cards do not show, and every rated aspect as a number.
 *
 * The pages come in Capterra's default order, "most helpful" ("Showing most helpful reviews"); the
 * page offers "Most Recent" in a sort menu, but no public source shows how a request asks for it, so
 * the module asks for none and the walk is not newest first (`walksNewestFirst: false`).
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews";
import type { PageSummary } from "../../core/tasks/publisher-summary";
import { parseAnswer } from "../../scraping/answer-schema";
import { permanentError } from "../../scraping/errors";
import { embeddedDocuments } from "../kit/embedded-json";
import { MAX_WALK_DEPTH, WorkBudget } from "../kit/work-budget";

/** Reviews on one page ("Showing 1-25 of 15462 Reviews"). */
export const REVIEWS_PER_PAGE = 25;

/** Page N of a product's reviews; page 1 is the reviews page itself, as public clients ask for it. */
export function reviewsPageAt(reviewsPageUrl: string, page: number): string {
  return page > 1 ? `${reviewsPageUrl}?page=${page}` : reviewsPageUrl;
}

const text = z.string().max(100_000).nullish();
/** Capterra writes ratings as strings ("5.0", "0.0" for an aspect left unrated). */
const rating = z.union([z.string().max(20), z.number()]).nullish();

const ReviewSchema = z.object({
  reviewId: z.union([z.string().min(1).max(200), z.number().int()]),
  title: text,
  prosText: text,
  consText: text,
  generalComments: text,
  adviceToOthers: text,
  /** "August 13, 2026": the day only. */
  writtenOn: z.string().min(1).max(60),
  overallRating: z.union([z.string().max(20), z.number()]),
  easeOfUseRating: rating,
  customerSupportRating: rating,
  functionalityRating: rating,
  valueForMoneyRating: rating,
  // React may send a shared object as a reference string: read only where it is an object.
  reviewer: z.unknown(),
  vendorResponse: z.unknown(),
});
type CapterraReview = z.infer<typeof ReviewSchema>;

const SummarySchema = z.object({
  overallRating: rating,
  totalReviews: z.number().int().min(0).nullish(),
});

const ProductSchema = z.object({
  reviewSummary: SummarySchema.nullish(),
  textReviews: z.array(ReviewSchema),
});

/** A rating as a number, or null where it is none (`"0.0"`: the reviewer left the aspect unrated). */
function ratingValue(value: string | number | null | undefined): number | null {
  const n = typeof value === "number" ? value : Number((value ?? "").trim());
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** Capterra's own reviews carry `Capterra___<n>`; `<n>` is the id its review JSON endpoint gave. */
const OWN_PREFIX = "Capterra___";

export function reviewIdOf(reviewId: string | number): string {
  const id = String(reviewId);
  return id.startsWith(OWN_PREFIX) && id.length > OWN_PREFIX.length ? id.slice(OWN_PREFIX.length) : id;
}

/**
 * The review's text as the API keeps it (the layout of glassdoor.com's): the title, then "Pros",
 * "Cons", "Overall" (Capterra's general comments) and "Advice to others", each under its heading
 * line, separated by blank lines; sections the reviewer left empty are left out.
 */
export function reviewText(review: CapterraReview): string {
  const parts = [review.title?.trim()];
  for (const [body, heading] of [
    [review.prosText, "Pros"],
    [review.consText, "Cons"],
    [review.generalComments, "Overall"],
    [review.adviceToOthers, "Advice to others"],
  ] as const) {
    const trimmed = body?.trim();
    if (trimmed) parts.push(`${heading}:\n${trimmed}`);
  }
  return parts.filter(Boolean).join("\n\n");
}

/** The rated aspects a card shows ("Ease of Use", "Customer Service", "Features", "Value for Money"). */
const ASPECTS = [
  ["easeOfUseRating", "ease_of_use"],
  ["customerSupportRating", "customer_service"],
  ["functionalityRating", "features"],
  ["valueForMoneyRating", "value_for_money"],
] as const;

const field = (value: unknown, key: string): unknown =>
  value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
const textField = (value: unknown, key: string): string | undefined => {
  const found = field(value, key);
  return typeof found === "string" && found.trim() ? found.trim() : undefined;
};

export function rawReview(review: CapterraReview, reviewsPageUrl: string, index: number): RawReview {
  const overall = ratingValue(review.overallRating);
  if (overall === null || overall > 5)
    throw permanentError("publisher_error", `Capterra page: review ${index} has no overallRating 1–5`);
  const aspects = ASPECTS.flatMap(([key, name]) => {
    const value = ratingValue(review[key]);
    return value !== null && value <= 5 ? [[name, value] as const] : [];
  });
  const author = textField(review.reviewer, "fullName");
  const reply = textField(review.vendorResponse, "text");
  const replyDate = textField(review.vendorResponse, "writtenOn") ?? textField(review.vendorResponse, "date");
  const title = review.title?.trim();
  return {
    id: reviewIdOf(review.reviewId),
    ...(author ? { author_name: author } : {}),
    rating: { value: overall, best: 5, worst: 1 },
    text: reviewText(review),
    url: reviewsPageUrl,
    date: review.writtenOn.trim(),
    ...(title ? { title } : {}),
    ...(aspects.length ? { sub_ratings: Object.fromEntries(aspects) } : {}),
    ...(reply ? { reply_text: reply, ...(replyDate ? { reply_date: replyDate } : {}) } : {}),
  };
}

export interface ReviewsPage {
  reviews: RawReview[];
  /** `reviewSummary.totalReviews`: how many reviews the product has, where the page says. */
  total: number | null;
  /** The product's average (`reviewSummary.overallRating`, 1–5), where the page says. */
  summary: PageSummary | null;
}

const WHERE = "Capterra page";

/** The product object of the payload: the one holding both `reviewSummary` and `textReviews`. */
function productObject(roots: readonly unknown[], budget: WorkBudget): unknown {
  let found: unknown = null;
  const visit = (node: unknown, depth: number): void => {
    budget.spend();
    if (found !== null || depth > MAX_WALK_DEPTH || node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    const object = node as Record<string, unknown>;
    if ("textReviews" in object && "reviewSummary" in object) {
      found = object;
      return;
    }
    for (const child of Object.values(object)) visit(child, depth + 1);
  };
  for (const root of roots) visit(root, 0);
  return found;
}

/**
 * Reads one reviews page. A page without a payload holding the product's `reviewSummary` and
 * `textReviews`, or a review without its id, rating or date, is `publisher_error` naming it.
 */
export async function parseReviewsPage(
  html: string,
  reviewsPageUrl: string,
  budget = new WorkBudget("Capterra reviews page"),
): Promise<ReviewsPage> {
  const roots = html.includes("__next_f")
    ? (await embeddedDocuments(html, budget)).filter((d) => d.source === "rsc").map((d) => d.value)
    : [];
  const product = productObject(roots, budget);
  if (product === null)
    throw permanentError(
      "publisher_error",
      `${WHERE}: no RSC payload (self.__next_f) with the product's reviewSummary and textReviews`,
    );
  const { reviewSummary, textReviews } = parseAnswer(ProductSchema, product, WHERE);
  const average = ratingValue(reviewSummary?.overallRating);
  return {
    reviews: textReviews.map((review, index) => {
      budget.spend();
      return rawReview(review, reviewsPageUrl, index);
    }),
    total: reviewSummary?.totalReviews ?? null,
    summary: average !== null && average <= 5 ? { rating: average, ratingScale: "1-5" } : null,
  };
}
