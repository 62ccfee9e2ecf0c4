import { z } from "@hono/zod-openapi";

/**
 * A review as the API returns it and as normalization produces it. It lives in the domain so that
 * domain code does not import the HTTP layer; src/http/schemas/retrieve.ts re-exports it for the
 * OpenAPI document (the `.openapi()` metadata is documentation only).
 */
export const ReviewSchema = z
  .object({
    review_id: z.string(),
    author_name: z.string(),
    author_id: z.string().nullable(),
    rating: z.number().int().min(1).max(5),
    text: z.string(),
    url: z.string(),
    posted_at: z.number().int().openapi({ description: "Milliseconds since the epoch, UTC." }),
    review_hash: z
      .string()
      .openapi({ description: "Lower-case hex MD5 of the Go-style JSON [text, author_name]." }),
    language: z.string().openapi({ description: "ISO 639-1 code, or und." }),
    source_date: z.string().optional().openapi({ description: "The date as the publisher printed it." }),
    scraped_at: z.number().int().optional().openapi({ description: "Milliseconds since the epoch." }),
    author_country: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional()
      .openapi({
        description: "The reviewer's country, ISO 3166-1 alpha-3 (upper case), where the publisher gives it.",
        example: "GBR",
      }),
    visited_at: z.number().int().optional().openapi({
      description:
        "Milliseconds since the epoch: UTC midnight of the first day of the reviewer's stay or visit (a hotel's check-in date), where the publisher gives it; the first day of the month where it gives only the month.",
    }),
    author_review_count: z.number().int().nonnegative().optional().openapi({
      description:
        "How many reviews the reviewer has written on the publisher, where it shows the count (Google). Not part of review_hash.",
    }),
    author_photo_count: z.number().int().nonnegative().optional().openapi({
      description:
        "How many photos the reviewer has posted on the publisher, where it shows the count (Google). Not part of review_hash.",
    }),
    title: z.string().optional().openapi({
      description: "The review's own title, where the publisher gives one. Not part of review_hash.",
    }),
    author_badges: z.array(z.string()).optional().openapi({
      description:
        'The reviewer\'s standing as the publisher shows it, e.g. "local_guide:7" or "elite_2025", where it does. Not part of review_hash.',
    }),
    photos: z.array(z.string()).optional().openapi({
      description:
        "URLs of the review's own images (never avatars), where it has some. Not part of review_hash.",
    }),
    likes: z.number().int().nonnegative().optional().openapi({
      description:
        "Likes or helpful votes the review received, where the publisher counts them. Not part of review_hash.",
    }),
    sub_ratings: z
      .record(z.string(), z.number().int().min(1).max(5))
      .optional()
      .openapi({
        description:
          "Ratings of aspects (service, food, value, cleanliness…), each mapped onto 1–5 like `rating`, where the publisher gives them. Not part of review_hash.",
        example: { service: 5, value: 4 },
      }),
    translated_text: z.string().optional().openapi({
      description:
        "The publisher's own translation of `text` (never one of ours), where it gives one; `text` stays what the reviewer wrote. Not part of review_hash.",
    }),
    translated_language: z.string().optional().openapi({
      description: "ISO 639-1 code of the language `translated_text` is in; present with it.",
    }),
    owner_reply: z
      .object({
        text: z.string(),
        posted_at: z.number().int().nullable().openapi({
          description: "Milliseconds since the epoch, UTC; null when the publisher gives no date.",
        }),
      })
      .optional()
      .openapi({
        description: "The business owner's public reply, where there is one (it is part of review_hash).",
      }),
  })
  .openapi("Review");

export type Review = z.infer<typeof ReviewSchema>;
