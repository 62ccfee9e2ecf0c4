import { z } from "@hono/zod-openapi";
import { drfObject, drfString, MSG } from "../../core/validation";
import { EXPORT_FORMATS } from "../../storage/task-export";
import { ApiKeySchema } from "./common";
import { checkFilterBounds, FilterFields } from "./filters";

export const ExportRequestSchema = drfObject({
  api_key: ApiKeySchema,
  foreign_key: drfString({ max: 255 }),
  publisher_key: drfString({ max: 253 }),
  task_id: drfString({ max: 64 }),
  format: drfString({ max: 16 })
    .superRefine((v, ctx) => {
      if (!(EXPORT_FORMATS as readonly string[]).includes(v))
        ctx.addIssue({ code: "custom", message: MSG.choice(v) });
    })
    .transform((v) => v as (typeof EXPORT_FORMATS)[number])
    .openapi({
      type: "string",
      enum: [...EXPORT_FORMATS],
      description: "csv (RFC 4180, UTF-8 with a BOM) or ndjson.",
    }),
  ...FilterFields,
})
  .superRefine(checkFilterBounds)
  .openapi("ExportRequest", {
    example: {
      api_key: "rk_your_api_key",
      foreign_key: "order-1234",
      publisher_key: "trustpilot.com",
      task_id: "8c1f1f7e-6b1a-4c3e-9a43-0d2b8f0c2a11",
      format: "csv",
      min_rating: 4,
    },
  });

export const ExportSchema = z
  .object({
    url: z.string().openapi({
      description: "Signed URL of the file, served by this service; GET it before expires_at.",
    }),
    expires_at: z.string().openapi({ description: "When the URL stops working (ISO 8601, UTC)." }),
    format: z.enum(EXPORT_FORMATS),
    reviews: z
      .number()
      .int()
      .openapi({ description: "How many reviews the file holds (after the filters)." }),
  })
  .openapi("Export");
