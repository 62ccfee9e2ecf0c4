import { z } from "@hono/zod-openapi";
import { MSG, drfBoolean, drfObject, drfString, isHttpUrl } from "../../core/validation";
import { ApiKeySchema } from "./common";

export const WEBHOOK_URL_MAX = 2048;

export const CreateWebhookRequestSchema = drfObject({
  api_key: ApiKeySchema,
  // The length limit is part of what makes a valid URL here, so an over-long one gets the one URL message.
  webhook: drfString()
    .refine((value) => isHttpUrl(value, WEBHOOK_URL_MAX) !== null, MSG.url)
    .openapi({
      format: "uri",
      maxLength: WEBHOOK_URL_MAX,
      description: "http(s) URL with a host; query parameters are allowed.",
    }),
  rotate_secret: drfBoolean()
    .optional()
    .openapi({ type: "boolean", default: false, description: "Make a new signing secret." }),
}).openapi("CreateWebhookRequest", {
  example: { api_key: "rk_your_api_key", webhook: "https://example.com/hooks/reviews?source=collector" },
});

export const CreateWebhookResponseSchema = z
  .object({
    webhook: z.string(),
    status: z.literal("success"),
    secret: z
      .string()
      .openapi({ description: "Signing secret (whsec_<base64>); kept when the URL is replaced." }),
  })
  .openapi("CreateWebhookResponse");
