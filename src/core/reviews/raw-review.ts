import { z } from "zod";

const ratingNumber = z.union([z.number(), z.string()]);

/**
 * A review as a page or an adapter presents it, before normalization: every field optional and in
 * the publisher's own form (rating on its own scale, date as printed, text possibly machine
 * translated). Adapters for known publishers build these too, so the schema doubles as their contract.
 */
export const RawReviewSchema = z.object({
  /** The publisher's own id for the review, when it has one. */
  id: z.string().optional(),
  author_name: z.string().optional(),
  author_id: z.string().optional(),
  author_url: z.string().optional(),
  rating: z
    .object({
      value: ratingNumber,
      /** schema.org defaults: best 5, worst 1. */
      best: ratingNumber.optional(),
      worst: ratingNumber.optional(),
    })
    .optional(),
  text: z.string().optional(),
  /** URL of the review itself (absolute). */
  url: z.string().optional(),
  /** The date exactly as the publisher printed or declared it ("2024-03-03", "3 weeks ago"). */
  date: z.string().optional(),
  /** Language tag the publisher gives for this review ("en", "de-AT"). */
  language: z.string().optional(),
  /** The business owner's public reply, when there is one. */
  reply_text: z.string().optional(),
  /** The reply's date, as printed or declared (an ISO 8601 timestamp where the publisher gives one). */
  reply_date: z.string().optional(),
  /** The reviewer's country as an ISO 3166-1 code, alpha-2 or alpha-3, any letter case ("gb", "DEU"). */
  author_country: z.string().optional(),
  /**
   * The first day of the reviewer's stay or visit as a calendar date, "YYYY-MM-DD", or "YYYY-MM" where
   * the publisher gives only the month (a time after the date is ignored).
   */
  visit_date: z.string().optional(),
  /** How many reviews the reviewer has written on the publisher, where it shows the count. */
  author_review_count: z.number().optional(),
  /** How many photos the reviewer has posted on the publisher, where it shows the count. */
  author_photo_count: z.number().optional(),
  /** The review's own title, where the publisher gives one. */
  title: z.string().optional(),
  /** The reviewer's standing as the publisher shows it, e.g. "local_guide:7", "elite_2025". */
  author_badges: z.array(z.string()).optional(),
  /** URLs of the review's own images (never avatars). */
  photos: z.array(z.string()).optional(),
  /** Likes or helpful votes the review received. */
  likes: z.number().optional(),
  /** Ratings of aspects (service, food, value…), each on the review's own scale (`rating.best`/`worst`). */
  sub_ratings: z.record(z.string(), z.union([z.number(), z.string()])).optional(),
  /** The publisher's own translation of the text, and the language it translated into. */
  translated_text: z.string().optional(),
  translated_language: z.string().optional(),
});

export type RawReview = z.infer<typeof RawReviewSchema>;
export type RawRating = NonNullable<RawReview["rating"]>;
