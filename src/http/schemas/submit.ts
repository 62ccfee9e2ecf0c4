import { z } from "@hono/zod-openapi";
import type { NewRequest } from "../../core/tasks/new-request";
import { MSG, drfBoolean, drfObject, drfString } from "../../core/validation";
import { ApiKeySchema } from "./common";
import { BusinessSchema, EXAMPLE_BUSINESS } from "./business";
import { PublishersSchema } from "./publishers";

export const JOB = "App\\Jobs\\RequestReviews";

export const JobSchema = z
  .unknown()
  .transform((value, ctx) => {
    if (value === undefined) ctx.addIssue({ code: "custom", message: MSG.required });
    else if (value === null) ctx.addIssue({ code: "custom", message: MSG.null });
    else if (value !== JOB) ctx.addIssue({ code: "custom", message: MSG.choice(value) });
    return JOB;
  })
  .openapi({ type: "string", enum: [JOB] });

export const SubmitRequestSchema = drfObject({
  job: JobSchema,
  data: drfObject({
    api_key: ApiKeySchema,
    foreign_key: drfString({ max: 255 }),
    lazy: drfBoolean().optional().openapi({
      type: "boolean",
      default: false,
      description: "Raises the time budget from 5 to 60 minutes.",
    }),
    business: BusinessSchema,
    publishers: PublishersSchema,
  }),
}).openapi("SubmitRequest", {
  example: {
    job: JOB,
    data: {
      api_key: "rk_your_api_key",
      foreign_key: "order-1234",
      lazy: false,
      business: EXAMPLE_BUSINESS,
      publishers: {
        "trustpilot.com": {
          profile_key: "https://www.trustpilot.com/review/bluedoorcafe.com",
          last_review_hashes: [],
          first_page_only: false,
        },
      },
    },
  },
});

export type SubmitInput = z.output<typeof SubmitRequestSchema>;

// A validated submit is what the domain's submitRequest takes: a change to one and not the other fails here.
type SchemaMatchesDomain<T extends NewRequest> = T;
export type ValidatedSubmit = SchemaMatchesDomain<SubmitInput>;

export const SubmitResponseSchema = z
  .object({
    status: z.literal("success"),
    tasks_id: z
      .string()
      .openapi({ description: "Task of the first publisher; use it as task_id in retrieve." }),
    request_id: z.string(),
    foreign_key: z.string(),
    publisher_key: z.string().openapi({ description: "Canonical key of the first publisher." }),
    tasks: z
      .array(z.object({ publisher_key: z.string(), tasks_id: z.string() }))
      .openapi({ description: "Every task of the request, in the order the publishers were given." }),
  })
  .openapi("SubmitResponse");
