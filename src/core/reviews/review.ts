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
