import { z } from "@hono/zod-openapi";
import type { CompletedTask, UnfinishedTask } from "../../core/tasks/task-views";
import { drfInteger, drfObject, drfString } from "../../core/validation";
import { ReviewSchema } from "../../core/reviews/review";
import { PublisherSummarySchema } from "../../core/tasks/publisher-summary";
import { ApiKeySchema } from "./common";
import { FAILURE_REASONS } from "../../core/tasks/status";
import { checkFilterBounds, FilterFields } from "./filters";

// The review shape belongs to the domain (normalization produces it); the API documents it as is.
export { ReviewSchema, type Review } from "../../core/reviews/review";

export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 1000;

export const RetrieveRequestSchema = drfObject({
  api_key: ApiKeySchema,
  foreign_key: drfString({ max: 255 }),
  publisher_key: drfString({ max: 253 }),
  task_id: drfString({ max: 64 }),
  page: drfInteger({ min: 1 }).optional().openapi({ type: "integer", minimum: 1, default: 1 }),
  page_size: drfInteger({ min: 1, max: PAGE_SIZE_MAX })
    .optional()
    .openapi({ type: "integer", minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT }),
  ...FilterFields,
})
  .superRefine(checkFilterBounds)
  .openapi("RetrieveRequest", {
    example: {
      api_key: "rk_your_api_key",
      foreign_key: "order-1234",
      publisher_key: "trustpilot.com",
      task_id: "8c1f1f7e-6b1a-4c3e-9a43-0d2b8f0c2a11",
      page: 1,
      page_size: 50,
    },
  });

export const PaginationSchema = z
  .object({
    total_reviews: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
    total_pages: z.number().int(),
    has_next: z.boolean(),
    has_previous: z.boolean(),
  })
  .openapi("Pagination");

export const CompletedBusinessSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    tags: z.array(z.string()),
    phone: z.string(),
    address: z.object({
      street: z.string(),
      city: z.string(),
      state: z.string(),
      zip: z.string(),
      country: z.string(),
    }),
    description: z.string(),
    publisher: z.string(),
    profile_key: z.string().openapi({ description: "The resolved profile URL at the publisher." }),
    publisher_summary: PublisherSummarySchema.nullable().openapi({
      description:
        "The publisher's own average rating, review count and star histogram for the profile (an addition); null where it shows none of them.",
    }),
    reviews_urls: z
      .array(z.string())
      .openapi({ description: "Signed, expiring URLs of the raw JSON Lines review files." }),
  })
  .openapi("CompletedBusiness");

export const CoverageSchema = z
  .object({
    publisher_total: z.number().int().nullable().openapi({
      description: "The review count the publisher states for the profile; null when no page stated one.",
    }),
    collected: z.number().int().openapi({
      description: "Reviews the task holds (the same as pagination.total_reviews when no filter is given).",
    }),
    complete: z.boolean().openapi({
      description:
        "false when the reviews are known to be incomplete: the module's view is limited, a failure or the plan's page budget ended the walk, or a walk to the last page collected clearly fewer than publisher_total (below 90 % and at least 5 short).",
    }),
    stop_reason: z.string().nullable().openapi({
      description:
        "Why the walk stopped short, as `<code>: <detail>`. Codes that make the reviews incomplete: limited_view, page_budget, fewer_than_stated, blocked, publisher_error, login_required, profile_not_found, internal. The client's own options, with `complete` true: since, max_reviews. null when the walk went to the end (or stopped at first_page_only or a known review).",
    }),
  })
  .openapi("Coverage", {
    description: "How complete the task's reviews are (an addition to the specification's shape).",
  });
export const RequestCountsSchema = z
  .object({
    direct: z.number().int().openapi({ description: "Requests made with the Worker's own fetch." }),
    browser: z
      .number()
      .int()
      .openapi({ description: "Pages loaded and requests made in Browser Rendering." }),
    provider: z.number().int().openapi({
      description: "Requests forwarded by an unblocking provider (each is billed by the provider).",
    }),
  })
  .openapi("RequestCounts", {
    description: "Requests the task made to the publisher, by route (docs/routes.md: estimating cost).",
  });

export const CompletedTaskSchema = z
  .object({
    foreign_key: z.string(),
    batch_id: z.string().openapi({ description: "The request id." }),
    task_id: z.string(),
    related_task_ids: z.array(z.string()).openapi({ description: "The other tasks of the same request." }),
    task_status: z.literal(200),
    business: CompletedBusinessSchema,
    reviews: z.array(ReviewSchema),
    pagination: PaginationSchema,
    coverage: CoverageSchema,
    requests: RequestCountsSchema,
  })
  .openapi("CompletedTask");

export type { CompletedTask, UnfinishedTask } from "../../core/tasks/task-views";

/** Compile-time check that a schema's output and a domain type are the same shape, both ways. */
type Fits<A extends B, B> = A;
export type DocumentedTaskViews = [
  Fits<z.infer<typeof CompletedTaskSchema>, CompletedTask>,
  Fits<CompletedTask, z.infer<typeof CompletedTaskSchema>>,
  Fits<z.infer<typeof UnfinishedTaskSchema>, UnfinishedTask>,
  Fits<UnfinishedTask, z.infer<typeof UnfinishedTaskSchema>>,
];

export const ResponseMessageSchema = z
  .object({
    status: z.enum(["queued", "in_progress", "failed"]),
    message: z.string(),
    task_status: z.union([z.literal(100), z.literal(101), z.literal(500)]),
    reason: z.enum(FAILURE_REASONS).optional().openapi({ description: "Why a failed task failed." }),
    progress: z
      .object({
        pages_scraped: z.number().int(),
        reviews_found: z.number().int(),
        requests: RequestCountsSchema,
      })
      .optional(),
  })
  .openapi("ResponseMessage");

export const UnfinishedTaskSchema = z
  .object({
    task_id: z.string(),
    foreign_key: z.string(),
    publisher_key: z.string(),
    response_message: z.array(ResponseMessageSchema),
  })
  .openapi("UnfinishedTask");
