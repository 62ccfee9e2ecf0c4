/**
 * walmart.com's reviews page, `/reviews/product/{usItemId}?page=N&sort=submission-desc`, is a
 * Next.js page: its `<script id="__NEXT_DATA__">` holds `props.pageProps.initialData.data.reviews`
 * with the page's `customerReviews` (`reviewId`, `rating`, `reviewSubmissionTime` printed M/D/YYYY,
 * `reviewTitle`, `reviewText`, `userNickname`, `positiveFeedback`, `badges`), the product's counts
 * (`totalReviewCount` ratings, `reviewsWithTextCount` written reviews), `averageOverallRating` and
 * `ratingValueOneCount` … `ratingValueFiveCount`. Field names as scrapfly/scrapfly-scrapers
 * walmart-scraper shows them (README.md, "Evidence").
 */
import { z } from "zod";
import type { RawReview } from "../../core/reviews/raw-review";
import type { PageSummary } from "../../core/tasks/publisher-summary";
import { permanentError } from "../../scraping/errors";
import { htmlPass } from "../kit/html-pass";
import { countOf, readAnswer, type ParseContext, type WalkPage, type WalkPosition } from "../kit/json-walk";
import type { WorkBudget } from "../kit/work-budget";

export const WHAT = "Walmart reviews page";

/** The reviews page of a product, newest first. */
export function walmartReviewsUrl(itemId: string, page: number): string {
  return `https://www.walmart.com/reviews/product/${encodeURIComponent(itemId)}?page=${page}&sort=submission-desc`;
}

/**
 * The text of the page's first `__NEXT_DATA__` script (one HTMLRewriter pass, every element and
 * text chunk counted against `budget`), or null when the page has none.
 */
export async function nextDataText(html: string, budget: WorkBudget): Promise<string | null> {
  let text: string | null = null;
  let scripts = 0;
  const rewriter = new HTMLRewriter().on("*", { element: () => budget.spend() }).on("script#__NEXT_DATA__", {
    element() {
      scripts++;
    },
    text(chunk) {
      budget.spend();
      // Only the first such script: a page repeating the id cannot make the text grow twice.
      if (scripts === 1) text = (text ?? "") + chunk.text;
    },
  });
  await htmlPass(rewriter, html, budget);
  return text;
}

/** The page's `__NEXT_DATA__` as JSON; a page without it, or with text that is no JSON, is publisher_error. */
export async function pageData(html: string, budget: WorkBudget): Promise<unknown> {
  const text = await nextDataText(html, budget);
  if (text === null) throw permanentError("publisher_error", `${WHAT}: no __NEXT_DATA__ script`);
  try {
    return JSON.parse(text);
  } catch {
    throw permanentError("publisher_error", `${WHAT}: __NEXT_DATA__ is not JSON`);
  }
}

const count = z.number().int().nonnegative().nullish();

const ReviewsSchema = z.object({
  customerReviews: z.array(z.unknown()),
  totalReviewCount: count,
  reviewsWithTextCount: count,
  averageOverallRating: z.number().nullish(),
  ratingValueOneCount: count,
  ratingValueTwoCount: count,
  ratingValueThreeCount: count,
  ratingValueFourCount: count,
  ratingValueFiveCount: count,
});

const PageSchema = z.object({
  props: z.object({
    pageProps: z.object({
      initialData: z.object({ data: z.object({ reviews: ReviewsSchema }) }),
    }),
  }),
});

const text = z.string().max(100_000).nullish();

const ReviewSchema = z.object({
  reviewId: z.union([z.string().min(1).max(40), z.number().int()]),
  rating: z.number(),
  reviewSubmissionTime: z.string().max(40).nullish(),
  reviewTitle: text,
  reviewText: text,
  userNickname: z.string().max(200).nullish(),
  positiveFeedback: z.number().int().nonnegative().nullish(),
  badges: z
    .array(z.object({ id: z.string().max(64).nullish() }).nullable())
    .max(50)
    .nullish()
    .catch(null),
});

/** "5/20/2023" (Walmart US prints month first) → "2023-05-20"; anything else is kept as printed. */
export function submissionDate(value: string): string {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value.trim());
  if (!match) return value.trim();
  const [, month, day, year] = match;
  return `${year}-${month.padStart(2, "0")}-${day.padStart(2, "0")}`;
}

function rawReview(item: unknown, pageUrl: string): RawReview | null {
  const parsed = ReviewSchema.safeParse(item);
  if (!parsed.success) return null;
  const r = parsed.data;
  if (!(r.rating >= 1 && r.rating <= 5)) return null;
  const title = r.reviewTitle?.trim();
  const author = r.userNickname?.trim();
  // Badge ids are CamelCase ("VerifiedPurchaser"); badges are snake case across modules (docs/api.md).
  const badges = (r.badges ?? [])
    .map((b) =>
      b?.id
        ?.trim()
        .replace(/(?<=[a-z0-9])(?=[A-Z])/g, "_")
        .toLowerCase(),
    )
    .filter((id): id is string => Boolean(id));
  return {
    id: String(r.reviewId),
    ...(author ? { author_name: author } : {}),
    rating: { value: r.rating, best: 5, worst: 1 },
    text: (r.reviewText ?? "").trim(),
    ...(title ? { title } : {}),
    url: pageUrl,
    ...(r.reviewSubmissionTime ? { date: submissionDate(r.reviewSubmissionTime) } : {}),
    ...(typeof r.positiveFeedback === "number" ? { likes: r.positiveFeedback } : {}),
    ...(badges.length ? { author_badges: badges } : {}),
  };
}

type Reviews = z.infer<typeof ReviewsSchema>;

/** The product's average and star histogram as the page states them. */
function summaryOf(reviews: Reviews): PageSummary {
  const { ratingValueOneCount: one, ratingValueTwoCount: two, ratingValueThreeCount: three } = reviews;
  const { ratingValueFourCount: four, ratingValueFiveCount: five } = reviews;
  const histogram = [one, two, three, four, five].every((n) => typeof n === "number")
    ? { "1": one!, "2": two!, "3": three!, "4": four!, "5": five! }
    : null;
  return { rating: reviews.averageOverallRating ?? null, ratingScale: "1-5", histogram };
}

/**
 * The next page while fewer reviews have been listed than the page counts. The walk carries the
 * count listed so far as its token, so the end does not depend on the page size; a page that lists
 * none before the count is reached is publisher_error, never a silent end.
 */
function nextPage(position: WalkPosition, listed: number, written: number): WalkPosition | null {
  const before = Number(position.token ?? "0");
  const after = (Number.isSafeInteger(before) && before >= 0 ? before : 0) + listed;
  if (after >= written) return null;
  if (listed === 0)
    throw permanentError(
      "publisher_error",
      `${WHAT}: page ${position.page} lists no reviews although ${after} of the ${written} written reviews were read`,
    );
  return { page: position.page + 1, token: String(after) };
}

/**
 * Reads one reviews page. The walk's length is the written reviews the page counts
 * (`reviewsWithTextCount`); ratings without text are never listed, so they count in the histogram
 * but not in the total the walk is measured against. A page without that count is publisher_error:
 * without it the walk could not tell its end from a changed page.
 */
export function parseWalmartPage(data: unknown, ctx: ParseContext): WalkPage {
  const reviews = readAnswer(PageSchema, data, WHAT).props.pageProps.initialData.data.reviews;
  const written = countOf(reviews.reviewsWithTextCount);
  if (written === null)
    throw permanentError(
      "publisher_error",
      `${WHAT}: unexpected answer at props.pageProps.initialData.data.reviews.reviewsWithTextCount: missing`,
    );
  const read: RawReview[] = [];
  for (const item of reviews.customerReviews) {
    ctx.budget.spend();
    const review = rawReview(item, ctx.pageUrl);
    if (review) read.push(review);
  }
  return {
    reviews: read,
    next: nextPage(ctx.position, reviews.customerReviews.length, written),
    ...(ctx.position.page === 1 ? { publisherTotal: written, summary: summaryOf(reviews) } : {}),
  };
}
