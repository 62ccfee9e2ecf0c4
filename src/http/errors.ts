import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorDetails } from "../core/validation";

export interface ErrorBody {
  error: string;
  details?: ErrorDetails;
}

/** An error that answers with the documented JSON body; thrown anywhere below a route. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.error);
  }
}

export const ERROR_TEXT = {
  submit: "Invalid payload",
  retrieve: "Invalid request",
  webhook: "Invalid payload",
  monitor: "Invalid payload",
} as const;

/** The 401 detail message of each endpoint group; the webhook endpoints also name expiry. */
export const UNAUTHORIZED_MESSAGE = {
  submit: "Invalid API key.",
  retrieve: "Invalid API key.",
  webhook: "API key is invalid or expired.",
  monitor: "Invalid API key.",
} as const;

export const INTERNAL_ERROR: ErrorBody = { error: "Internal server error" };

export function errorResponse(c: Context, err: ApiError): Response {
  return c.json(err.body, err.status, err.headers);
}

export function invalid(error: string, details: ErrorDetails): ApiError {
  return new ApiError(400, { error, details });
}
