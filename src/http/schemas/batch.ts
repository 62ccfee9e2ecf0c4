import { z } from "@hono/zod-openapi";
import { FAILURE_REASONS } from "../../core/tasks/status";
import { drfInteger, drfList, drfObject, drfString, toErrorTree } from "../../core/validation";
import type { ErrorDetails } from "../../core/validation";
import { ApiKeySchema } from "./common";
import { EXAMPLE_BUSINESS } from "./business";
import { JOB, JobSchema, SubmitRequestSchema, SubmitResponseSchema } from "./submit";

/** Items a batch may hold unless BATCH_MAX says otherwise (src/settings.ts). */
export const DEFAULT_BATCH_MAX = 500;

/**
 * One item of a batch: exactly submit's `data` without the key, taken from submit's own schema, so
 * a field submit gains is accepted (and validated the same way) in a batch item too.
 */
export const BatchItemSchema = SubmitRequestSchema.shape.data
  .omit({ api_key: true })
  .openapi("SubmitBatchItem");

export type BatchItem = z.output<typeof BatchItemSchema>;

/** An item's verdict: its value, or its error tree with the item's index in the path. */
export type ItemOutcome = { index: number; item: BatchItem } | { index: number; details: ErrorDetails };

/** Validates each item on its own; one item's errors never hide or block another's. */
function checkItems(items: unknown[]): ItemOutcome[] {
  return items.map((raw, index) => {
    const parsed = BatchItemSchema.safeParse(raw);
    if (parsed.success) return { index, item: parsed.data };
    const issues = parsed.error.issues.map((issue) => ({
      ...issue,
      path: ["requests", index, ...issue.path],
    }));
    return { index, details: toErrorTree(issues) };
  });
}

const EXAMPLE_ITEM = {
  foreign_key: "location-0001",
  business: EXAMPLE_BUSINESS,
  publishers: {
    "trustpilot.com": {
      profile_key: "https://www.trustpilot.com/review/bluedoorcafe.com",
      last_review_hashes: [],
      first_page_only: false,
    },
  },
};

const schemas = new Map<number, ReturnType<typeof makeSchema>>();

function makeSchema(max: number) {
  return drfObject({
    job: JobSchema,
    api_key: ApiKeySchema,
    // The list itself (its type, 1..max items) is the batch's; each item is judged on its own.
    requests: drfList(z.unknown(), { max, allowEmpty: false })
      .transform(checkItems)
      .openapi({
        type: "array",
        minItems: 1,
        maxItems: max,
        items: { $ref: "#/components/schemas/SubmitBatchItem" },
        description: `1 to BATCH_MAX (${max} by default) items, each what submit's \`data\` holds apart from \`api_key\`. Each is validated on its own.`,
      }),
  }).openapi("SubmitBatchRequest", {
    example: { job: JOB, api_key: "rk_your_api_key", requests: [EXAMPLE_ITEM] },
  });
}

/** The batch body's schema for a BATCH_MAX (made once per value). */
export function batchRequestSchema(max: number) {
  let schema = schemas.get(max);
  if (!schema) schemas.set(max, (schema = makeSchema(max)));
  return schema;
}

export type BatchInput = z.output<ReturnType<typeof batchRequestSchema>>;

const AcceptedItemSchema = SubmitResponseSchema.extend({
  index: z.number().int().openapi({ description: "The item's index in `requests`." }),
}).openapi("SubmitBatchAccepted");

const RefusedItemSchema = z
  .object({
    index: z.number().int().openapi({ description: "The item's index in `requests`." }),
    error: z.literal("Invalid payload"),
    details: z.record(z.string(), z.unknown()).openapi({
      description: "Submit's error tree, under requests.<index> (e.g. requests.3.business.address.street).",
    }),
  })
  .openapi("SubmitBatchRefused");

const ResultsSchema = z
  .array(z.union([AcceptedItemSchema, RefusedItemSchema]))
  .openapi({ description: "One entry per item, in the order of `requests`." });

export const BatchResponseSchema = z
  .object({
    status: z
      .enum(["success", "partial"])
      .openapi({ description: "success: every item was accepted; partial: some were refused." }),
    batch_id: z.string().openapi({ description: "Names the batch in retrieve-batch and batch.completed." }),
    accepted: z.number().int(),
    refused: z.number().int(),
    results: ResultsSchema,
  })
  .openapi("SubmitBatchResponse");

export const BatchRefusedSchema = z
  .object({
    error: z.literal("Invalid payload"),
    details: z.record(z.string(), z.unknown()).openapi({
      description:
        "Every refused item's errors in one tree, under requests.<index> (or the batch's own fields).",
    }),
    status: z.literal("failed").optional(),
    accepted: z.literal(0).optional(),
    refused: z.number().int().optional(),
    results: ResultsSchema.optional().openapi({
      description: "Present when the items were judged one by one.",
    }),
  })
  .openapi("SubmitBatchFailed");

// ---- retrieve-batch ----

export const BATCH_PAGE_SIZE_DEFAULT = 100;
export const BATCH_PAGE_SIZE_MAX = 1000;
export const FOREIGN_KEYS_MAX = 500;

export const RetrieveBatchRequestSchema = drfObject({
  api_key: ApiKeySchema,
  batch_id: drfString({ max: 64 }).optional().openapi({ type: "string", description: "A batch's id." }),
  foreign_keys: drfList(drfString({ max: 255 }), { max: FOREIGN_KEYS_MAX, allowEmpty: false })
    .optional()
    .openapi({
      type: "array",
      items: { type: "string" },
      maxItems: FOREIGN_KEYS_MAX,
      description: "Instead of batch_id: every task of the account's requests with these foreign keys.",
    }),
  page: drfInteger({ min: 1 }).optional().openapi({ type: "integer", minimum: 1, default: 1 }),
  page_size: drfInteger({ min: 1, max: BATCH_PAGE_SIZE_MAX }).optional().openapi({
    type: "integer",
    minimum: 1,
    maximum: BATCH_PAGE_SIZE_MAX,
    default: BATCH_PAGE_SIZE_DEFAULT,
  }),
})
  .superRefine((body, ctx) => {
    const given = [body.batch_id, body.foreign_keys].filter((v) => v !== undefined).length;
    if (given !== 1)
      ctx.addIssue({
        code: "custom",
        path: [],
        message: given === 0 ? "Give batch_id or foreign_keys." : "Give batch_id or foreign_keys, not both.",
      });
  })
  .openapi("RetrieveBatchRequest", {
    example: { api_key: "rk_your_api_key", foreign_keys: ["location-0001", "location-0002"], page: 1 },
  });

export const BatchTaskSchema = z
  .object({
    task_id: z.string(),
    request_id: z.string(),
    foreign_key: z.string(),
    publisher_key: z.string(),
    task_status: z.union([z.literal(100), z.literal(101), z.literal(200), z.literal(500)]),
    status: z.enum(["queued", "in_progress", "completed", "failed"]),
    reason: z.enum(FAILURE_REASONS).optional().openapi({ description: "Only for a failed task." }),
    reviews_count: z
      .number()
      .int()
      .openapi({ description: "Reviews found so far; all of them once completed; 0 when failed." }),
  })
  .openapi("BatchTask");

export const BatchTotalsSchema = z
  .object({
    tasks: z.number().int(),
    queued: z.number().int(),
    in_progress: z.number().int(),
    completed: z.number().int(),
    failed: z.number().int(),
  })
  .openapi("BatchTotals");

export const RetrieveBatchResponseSchema = z
  .object({
    batch_id: z.string().nullable().openapi({ description: "The batch asked for; null for foreign_keys." }),
    ended: z.boolean().openapi({ description: "True when every task has completed or failed." }),
    totals: BatchTotalsSchema,
    tasks: z.array(BatchTaskSchema).openapi({
      description: "A page of tasks: a batch in its item order, publishers in the order given.",
    }),
    pagination: z
      .object({
        total_tasks: z.number().int(),
        page: z.number().int(),
        page_size: z.number().int(),
        total_pages: z.number().int(),
        has_next: z.boolean(),
        has_previous: z.boolean(),
      })
      .openapi("BatchPagination"),
  })
  .openapi("RetrieveBatchResponse");
