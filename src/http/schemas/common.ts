import { z } from "@hono/zod-openapi";
import { drfString } from "../../core/validation";

export const ErrorSchema = z
  .object({
    error: z.string(),
    details: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: "Errors nested like the request body; leaves are lists of messages." }),
  })
  .openapi("Error");

export const API_KEY_MAX = 128;

/** The api_key field of every endpoint; checked on its own before the key is looked up. */
export const ApiKeySchema = drfString({ max: API_KEY_MAX });

export function errorResponse(description: string, example: object) {
  return { description, content: { "application/json": { schema: ErrorSchema, example } } };
}

export const unauthorized = (message: string) =>
  errorResponse("The API key is unknown, expired or revoked.", {
    error: "Invalid API key",
    details: { api_key: [message] },
  });

export const tooLarge = errorResponse("The body is over 1 MiB.", { error: "Payload too large" });

export const internalError = errorResponse("Unexpected failure; no stack trace is shown.", {
  error: "Internal server error",
});

/** A dependency (the account object, D1) failed twice in a row: nothing was changed; retry after Retry-After. */
export const unavailable = (example: object) => ({
  ...errorResponse(
    "A dependency is briefly unavailable; nothing was changed. Retry after the Retry-After seconds.",
    example,
  ),
  headers: { "Retry-After": { schema: { type: "integer" as const }, description: "Seconds to wait." } },
});
