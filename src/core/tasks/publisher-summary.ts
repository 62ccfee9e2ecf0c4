/**
 * The publisher's own totals for a profile, as its pages show them (issue 36, point 2): the average
 * rating on the publisher's scale, the review count and the star histogram. Pure: modules report
 * what a page shows (`AdapterPage.summary`), the walk stores it on the task, and retrieve and the
 * task.completed webhook show it as `publisher_summary`.
 */

import { z } from "@hono/zod-openapi";

/** The parts of `publisher_summary` a module can fill (GET /publishers lists each module's). */
export const SUMMARY_FIELDS = ["rating", "review_count", "histogram"] as const;
export type SummaryField = (typeof SUMMARY_FIELDS)[number];

/** Stars 1–5 → how many reviews the publisher counts with that rating. */
export type Histogram = Record<"1" | "2" | "3" | "4" | "5", number>;

export interface PublisherSummary {
  /** The average the publisher displays, on its own scale (`rating_scale`); null where it shows none. */
  rating: number | null;
  /** The scale of `rating` as "<worst>-<best>" ("1-5", "1-10"); null without a rating. */
  rating_scale: string | null;
  /** The review count the publisher states (coverage's publisher_total). */
  review_count: number | null;
  /** Reviews per star on the 1–5 scale the reviews use; null where the publisher shows none. */
  histogram: Histogram | null;
}

/** What a module reads from a page: the rating and its scale, and the histogram where shown. */
export interface PageSummary {
  rating?: number | null;
  /** The rating's scale, "<worst>-<best>". */
  ratingScale?: string;
  histogram?: Partial<Record<"1" | "2" | "3" | "4" | "5", number>> | null;
}

/** What the walk stores on the task: the checked rating, scale and histogram (the count is stored apart). */
export type StoredSummary = Pick<PublisherSummary, "rating" | "rating_scale" | "histogram">;

const SCALE = /^(0|1)-(5|10|100)$/;
const STARS = ["1", "2", "3", "4", "5"] as const;

const count = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;

/**
 * A page's summary as the task stores it, or null when it holds nothing usable. Page content is
 * hostile input: a rating outside its scale, an unknown scale or a histogram with a value that is
 * no count is dropped (the rest is kept), never a failure.
 */
export function checkedSummary(page: PageSummary | null | undefined): StoredSummary | null {
  if (!page) return null;
  const scale = typeof page.ratingScale === "string" && SCALE.exec(page.ratingScale);
  const rating =
    scale && typeof page.rating === "number" && Number.isFinite(page.rating)
      ? page.rating >= Number(scale[1]) && page.rating <= Number(scale[2])
        ? Math.round(page.rating * 100) / 100
        : null
      : null;
  const histogram =
    page.histogram && STARS.every((star) => count(page.histogram?.[star]))
      ? (Object.fromEntries(STARS.map((star) => [star, page.histogram![star]])) as Histogram)
      : null;
  if (rating === null && histogram === null) return null;
  return { rating, rating_scale: rating === null ? null : page.ratingScale!, histogram };
}

/**
 * The summary a completed task shows: the stored rating and histogram with the publisher's stated
 * count; null when the publisher showed none of them.
 */
export function publisherSummary(
  stored: StoredSummary | null,
  publisherTotal: number | null,
): PublisherSummary | null {
  const reviewCount = count(publisherTotal) ? publisherTotal : null;
  if (!stored && reviewCount === null) return null;
  return {
    rating: stored?.rating ?? null,
    rating_scale: stored?.rating_scale ?? null,
    review_count: reviewCount,
    histogram: stored?.histogram ?? null,
  };
}

/** The API's shape of it (retrieve's business and the task.completed webhook); documentation only. */
const HistogramSchema = z
  .object({
    1: z.number().int(),
    2: z.number().int(),
    3: z.number().int(),
    4: z.number().int(),
    5: z.number().int(),
  })
  .openapi("RatingHistogram", {
    description: "Reviews per star (1–5, the scale the reviews use), as the publisher counts them.",
    example: { 1: 12, 2: 8, 3: 25, 4: 90, 5: 310 },
  });

export const PublisherSummarySchema = z
  .object({
    rating: z.number().nullable().openapi({
      description:
        "The average rating the publisher displays, on its own scale (`rating_scale`); null where it shows none.",
      example: 4.4,
    }),
    rating_scale: z.string().nullable().openapi({
      description: 'The scale of `rating`, "<worst>-<best>": "1-5", "1-10", "0-10".',
      example: "1-5",
    }),
    review_count: z.number().int().nullable().openapi({
      description: "The review count the publisher states (the same as coverage.publisher_total).",
      example: 445,
    }),
    histogram: HistogramSchema.nullable().openapi({
      description: "Reviews per star as the publisher counts them; null where it shows no breakdown.",
    }),
  })
  .openapi("PublisherSummary", {
    description:
      "The publisher's own totals for the profile, as its pages show them (an addition). Which parts each publisher's module reads: `publisher_summary` in GET /publishers.",
  });
