import { z } from "@hono/zod-openapi";
import { MSG, drfBoolean, drfObject, drfString, isHttpUrl } from "../validation";
import { API_KEY_MAX } from "./common";

export const WEBHOOK_URL_MAX = 2048;

export const CreateWebhookRequestSchema = drfObject({
  api_key: drfString({ max: API_KEY_MAX }),
  webhook: drfString({ max: WEBHOOK_URL_MAX })
    .refine((value) => isHttpUrl(value.trim(), WEBHOOK_URL_MAX) !== null, MSG.url)
    .transform((value) => value.trim())
    .openapi({ format: "uri", description: "http(s) URL with a host; query parameters are allowed." }),
  rotate_secret: drfBoolean().optional().openapi({ type: "boolean", default: false, description: "Make a new signing secret." }),
}).openapi("CreateWebhookRequest", {
  example: { api_key: "rk_your_api_key", webhook: "https://example.com/hooks/reviews?source=collector" },
});

export type CreateWebhookInput = z.output<typeof CreateWebhookRequestSchema>;

export const CreateWebhookResponseSchema = z
  .object({
    webhook: z.string(),
    status: z.literal("success"),
    secret: z.string().openapi({ description: "Signing secret (whsec_<base64>); kept when the URL is replaced." }),
  })
  .openapi("CreateWebhookResponse");
