import { z } from "@hono/zod-openapi";
import { PUBLISHER_SUPPORT } from "../../../publishers/registry";
import { PUBLISHER_KINDS } from "../../../publishers/types";
import { HEALTH_STATUSES } from "../../../core/health/status";
import { COLLECTION_OPTIONS, REVIEW_SORTS } from "../../../core/tasks/collection";
import { OPTIONAL_REVIEW_FIELDS } from "../../../core/reviews/optional-fields";
import { SUMMARY_FIELDS } from "../../../core/tasks/publisher-summary";

export const HealthSchema = z
  .object({
    status: z.enum(HEALTH_STATUSES).openapi({
      description:
        "failing: the last three canary runs failed, or at least half of at least ten tasks finished in 24 h failed with blocked, publisher_error or profile_not_found; degraded: the last canary run failed, or at least a fifth of at least ten such tasks failed so; operational: tasks or canaries finished in 24 h and neither of those; unknown: nothing finished in 24 h.",
    }),
    success_rate_24h: z.number().nullable().openapi({
      description:
        "Completed ÷ finished tasks in the last 24 hours (clients' and canaries'); null without tasks.",
    }),
    tasks_24h: z
      .number()
      .int()
      .openapi({ description: "Tasks of this publisher that finished in the last 24 hours." }),
    last_success_at: z.number().int().nullable().openapi({
      description: "When a task of this publisher last completed (ms since the epoch; 30 days kept).",
    }),
    last_failure_reason: z
      .string()
      .nullable()
      .openapi({ description: "The reason of the most recent failure in the last 24 hours." }),
  })
  .openapi("PublisherHealth");

export const PublisherSchema = z
  .object({
    domain: z.string().openapi({
      description:
        "The canonical publisher key (lower-case, no `www.`), as submit's `data.publishers` takes it.",
    }),
    aliases: z.array(z.string()).openapi({
      description:
        "Other publisher keys for the same publisher (country sites, former names); each is served the same way.",
    }),
    display_name: z.string(),
    kind: z.enum(PUBLISHER_KINDS).openapi({
      description:
        "What the publisher reviews: maps, local listings, travel, hospitality (restaurants, delivery), social, consumer (businesses and shops), employers, software and apps, health, home services, automotive, real estate, retail products, legal, business services, education.",
    }),
    module: z.string().openapi({
      description:
        'The module that scrapes it: a dedicated module\'s name, or `generic` (schema.org review markup on the profile page, older pages through `rel="next"`).',
    }),
    dedicated: z.boolean().openapi({
      description: "True when a module written for this publisher scrapes it; false for the generic module.",
    }),
    login_required: z
      .boolean()
      .openapi({ description: "The publisher shows its reviews only to a signed-in visitor." }),
    cookies_required: z.boolean().openapi({
      description:
        "Submit requires `persona.additional_cookies.login` for it (today exactly where a login is required).",
    }),
    lookup: z.boolean().openapi({
      description:
        "The service can find the profile from the business's name and address, so `profile_key` may be empty.",
    }),
    rating_scale: z.string().openapi({
      description: "The publisher's own rating scale and, for dedicated modules, how it maps onto 1–5.",
    }),
    sorts: z.array(z.enum(REVIEW_SORTS)).openapi({
      description:
        "The orders submit's `sort` accepts for it: always `newest`, plus those the module can ask the publisher for (`relevant`, `highest`, `lowest`). Any other is refused with 400.",
      example: ["newest", "relevant", "highest", "lowest"],
    }),
    publisher_summary: z.array(z.enum(SUMMARY_FIELDS)).openapi({
      description:
        "The parts of a completed task's `business.publisher_summary` the module reads from the publisher's pages (`rating`, `review_count`, `histogram`); the others are null there.",
      example: ["rating", "review_count", "histogram"],
    }),
    collection_options: z.array(z.enum(COLLECTION_OPTIONS)).openapi({
      description:
        "The collection options submit takes for it besides `sort` (whose values are `sorts`): `since` (only reviews posted at or after it; a newest-first walk stops at the first older one) and `max_reviews` (at most that many, the first the walk meets). Every publisher takes both: the service applies them to any module's newest-first pages.",
      example: ["since", "max_reviews"],
    }),
    review_fields: z.array(z.enum(OPTIONAL_REVIEW_FIELDS)).openapi({
      description:
        'The optional review fields its module fills where the publisher gives them (`title`, `likes`, `author_review_count`, `author_photo_count`, `author_badges`, `photos`, `sub_ratings`, `translated_text` with `translated_language`). A field listed here can still be absent on a review the publisher shows without it; a field not listed is never present. Each claim is checked against a fixture of the publisher\'s answers (docs/publishers.md, "Coverage").',
      example: ["likes", "author_review_count", "photos"],
    }),
    support: z.enum(PUBLISHER_SUPPORT).openapi({
      description:
        "How far the service vouches for it: `dedicated` (a module written for this publisher), `structured-data` (evidence that its review pages carry schema.org review markup the generic module reads), `embedded-data` (evidence that its pages carry review records in their own JSON, such as `__NEXT_DATA__`, of a shape the generic module reads) or `unverified` (listed and tried with the generic module; nobody has checked that it yields reviews).",
    }),
    evidence_date: z.string().optional().openapi({
      description:
        "Dedicated modules only: the date (YYYY-MM-DD or YYYY-MM) of the newest real capture or public client the module was checked against.",
    }),
    note: z.string().optional().openapi({
      description: "A known obstacle, where one is known: a sign-in or bot wall in front of the reviews.",
    }),
    health: HealthSchema.openapi({
      description: "Whether scraping this publisher works today (docs/health.md).",
    }),
  })
  .openapi("Publisher");

export const PublishersResponseSchema = z
  .object({
    count: z.number().int().openapi({ description: "How many publishers are listed." }),
    publishers: z.array(PublisherSchema).openapi({ description: "Sorted by domain." }),
  })
  .openapi("PublishersResponse", {
    example: {
      count: 2,
      publishers: [
        {
          domain: "amazon.com",
          aliases: ["amazon.co.uk", "amazon.de"],
          display_name: "Amazon",
          kind: "retail",
          module: "generic",
          dedicated: false,
          login_required: true,
          cookies_required: true,
          lookup: false,
          rating_scale: "1–5 stars",
          sorts: ["newest"],
          publisher_summary: [],
          collection_options: ["since", "max_reviews"],
          review_fields: [],
          support: "unverified",
          note: "Review pages (/product-reviews/<ASIN>) need a signed-in session since 2024-11: submit login cookies.",
          health: {
            status: "unknown",
            success_rate_24h: null,
            tasks_24h: 0,
            last_success_at: null,
            last_failure_reason: null,
          },
        },
        {
          domain: "trustpilot.com",
          aliases: [],
          display_name: "Trustpilot",
          kind: "consumer",
          module: "trustpilot",
          dedicated: true,
          login_required: false,
          cookies_required: false,
          lookup: true,
          rating_scale: "1–5 stars",
          sorts: ["newest", "relevant"],
          publisher_summary: ["rating", "review_count", "histogram"],
          collection_options: ["since", "max_reviews"],
          review_fields: ["title", "likes"],
          support: "dedicated",
          evidence_date: "2026-05",
          health: {
            status: "operational",
            success_rate_24h: 0.97,
            tasks_24h: 212,
            last_success_at: 1795317243264,
            last_failure_reason: "timeout",
          },
        },
      ],
    },
  });

export type PublisherRow = z.infer<typeof PublisherSchema>;
export type PublishersResponse = z.infer<typeof PublishersResponseSchema>;
