import type { Context, Handler } from "hono";
import type { z } from "@hono/zod-openapi";
import { database } from "../db/client";
import type { Account } from "../db/schema";
import { authenticate } from "../domain/auth/api-keys";
import type { AppEnv } from "./context";
import { ApiError, invalid, type ErrorDetails } from "./errors";
import { limitAccount, limitClientIp, limitFailedKey } from "./abuse-limits";
import { enforceRateLimit } from "./rate-limit";
import { ApiKeySchema } from "./schemas/common";
import { MSG, isPlainObject, toErrorTree } from "./validation";

export interface EndpointSpec<S extends z.ZodType> {
  /** The `error` text of this endpoint's 400 answers. */
  errorText: string;
  schema: S;
  /** Where the API key sits in this endpoint's body, e.g. ["data", "api_key"]. */
  apiKeyPath: readonly [string, ...string[]];
  /** The detail message of this endpoint's 401 answer. */
  unauthorizedMessage: string;
  rateLimited?: boolean;
}

function valueAt(body: Record<string, unknown>, path: readonly string[]): unknown {
  let node: unknown = body;
  for (const key of path) node = isPlainObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
  return node;
}

/** A one-leaf error tree at `path`, nested the way the body is. */
function treeAt(path: readonly string[], messages: string[]): ErrorDetails {
  return path.reduceRight<ErrorDetails | string[]>((inner, key) => ({ [key]: inner }), messages) as ErrorDetails;
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
    const key = ApiKeySchema.safeParse(valueAt(body, spec.apiKeyPath));
    if (!key.success) {
      validate(body); // reports every failing field at once, the api_key among them
      throw invalid(spec.errorText, treeAt(spec.apiKeyPath, key.error.issues.map((issue) => issue.message)));
    }
    await limitClientIp(c);
    const account = await authenticate(database(c.env.DB), key.data);
    if (!account) {
      await limitFailedKey(c);
      throw new ApiError(401, { error: "Invalid API key", details: { api_key: [spec.unauthorizedMessage] } });
    }
    c.set("account", account);
    if (spec.rateLimited) await enforceRateLimit(c, account);
    else await limitAccount(c, account);
    return handler(c, validate(body), account);
  };
}
