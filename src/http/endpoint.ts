import type { Context, Handler } from "hono";
import type { z } from "@hono/zod-openapi";
import { database } from "../db/client";
import type { Account } from "../db/schema";
import { authenticate } from "../domain/auth/api-keys";
import type { AppEnv } from "./context";
import { ApiError, invalid } from "./errors";
import { enforceRateLimit } from "./rate-limit";
import { API_KEY_MAX } from "./schemas/common";
import { MSG, toErrorTree } from "./validation";

export interface EndpointSpec<S extends z.ZodType> {
  /** The `error` text of this endpoint's 400 answers. */
  errorText: string;
  schema: S;
  /** Where the API key sits in this endpoint's body. */
  apiKeyOf: (body: Record<string, unknown>) => unknown;
  /** The detail message of this endpoint's 401 answer. */
  unauthorizedMessage: string;
  rateLimited?: boolean;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Runs the checks every endpoint shares, in the documented order: JSON (done by jsonBody), the
 * api_key's shape, the key itself, the rate limit where it applies, then full validation.
 */
export function endpoint<S extends z.ZodType>(
  spec: EndpointSpec<S>,
  handler: (c: Context<AppEnv>, input: z.output<S>, account: Account) => Promise<Response>,
): Handler<AppEnv> {
  const validate = (body: unknown): z.output<S> => {
    const result = spec.schema.safeParse(body);
    if (!result.success) throw invalid(spec.errorText, toErrorTree(result.error.issues));
    return result.data;
  };
  return async (c) => {
    const body = c.get("body");
    if (!isPlainObject(body)) throw invalid(spec.errorText, { non_field_errors: [MSG.rootNotObject(body)] });
    const key = spec.apiKeyOf(body);
    if (typeof key !== "string" || key.length > API_KEY_MAX || !key.trim()) {
      validate(body); // reports every failing field at once, api_key among them
      throw invalid(spec.errorText, { api_key: [MSG.required] });
    }
    const account = await authenticate(database(c.env.DB), key);
    if (!account) throw new ApiError(401, { error: "Invalid API key", details: { api_key: [spec.unauthorizedMessage] } });
    c.set("account", account);
    if (spec.rateLimited) await enforceRateLimit(c, account);
    return handler(c, validate(body), account);
  };
}
