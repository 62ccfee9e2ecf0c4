import type { Context, Handler } from "hono";
import type { z } from "@hono/zod-openapi";
import { database } from "../db/client";
import type { Account } from "../db/schema";
import { acceptKey, cachedKey, keyCacheTtlMs, keyLookup, refreshKey } from "../app/auth/api-keys";
import type { AppEnv } from "./context";
import { BOOKMARK_HEADER, requestSession, type Consistency, type RequestSession } from "./d1-session";
import type { ErrorDetails } from "../core/validation";
import { ApiError, ERROR_TEXT, invalid, UNAUTHORIZED_MESSAGE } from "./errors";
import { limitAccount, limitClientIp, limitFailedKey } from "./abuse-limits";
import { admitSubmit, enforceTaskBudget } from "./rate-limit";
import { ApiKeySchema } from "./schemas/common";
import { MSG, isPlainObject, toErrorTree } from "../core/validation";

/** The webhook endpoints' shared spec: their 400 text, key position and 401 message. */
export const WEBHOOK_ENDPOINT = {
  errorText: ERROR_TEXT.webhook,
  apiKeyPath: ["api_key"],
  unauthorizedMessage: UNAUTHORIZED_MESSAGE.webhook,
} as const satisfies Omit<EndpointSpec<z.ZodType>, "schema">;

export interface EndpointSpec<S extends z.ZodType> {
  /** The `error` text of this endpoint's 400 answers. */
  errorText: string;
  /** The body's schema, or one made from the settings (a limit that is a setting, e.g. BATCH_MAX). */
  schema: S | ((env: Env) => S);
  /** Where the API key sits in this endpoint's body, e.g. ["data", "api_key"]. */
  apiKeyPath: readonly [string, ...string[]];
  /** The detail message of this endpoint's 401 answer. */
  unauthorizedMessage: string;
  /**
   * Submit only: the number of tasks a valid body asks for. Such an endpoint is counted against the
   * plan's request rate (429 before validation) and task budget (429 after it) in one call to the
   * account object; every other endpoint is counted by the per-account limiter.
   */
  tasksOf?: (input: z.output<S>) => number;
  /** How the request's D1 session starts without a client bookmark (see d1-session.ts); default "write". */
  consistency?: Consistency;
}

function valueAt(body: Record<string, unknown>, path: readonly string[]): unknown {
  let node: unknown = body;
  for (const key of path) node = isPlainObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
  return node;
}

/** A one-leaf error tree at `path`, nested the way the body is. */
function treeAt(path: readonly string[], messages: string[]): ErrorDetails {
  return path.reduceRight<ErrorDetails | string[]>(
    (inner, key) => ({ [key]: inner }),
    messages,
  ) as ErrorDetails;
}

/**
 * Runs the checks every endpoint shares, in the documented order: JSON (done by jsonBody), the
 * api_key's shape, the key itself, the rate limit where it applies, then full validation.
 */
export function endpoint<S extends z.ZodType>(
  spec: EndpointSpec<S>,
  handler: (
    c: Context<AppEnv>,
    input: z.output<S>,
    account: Account,
    d1: RequestSession,
  ) => Promise<Response>,
): Handler<AppEnv> {
  const schemaFor = (env: Env): S => (typeof spec.schema === "function" ? spec.schema(env) : spec.schema);
  const validate = (schema: S, body: unknown): z.output<S> => {
    const result = schema.safeParse(body);
    if (!result.success) throw invalid(spec.errorText, toErrorTree(result.error.issues));
    return result.data;
  };
  return async (c) => {
    const schema = schemaFor(c.env);
    const body = c.get("body");
    if (!isPlainObject(body)) throw invalid(spec.errorText, { non_field_errors: [MSG.rootNotObject(body)] });
    const key = ApiKeySchema.safeParse(valueAt(body, spec.apiKeyPath));
    if (!key.success) {
      validate(schema, body); // reports every failing field at once, the api_key among them
      throw invalid(
        spec.errorText,
        treeAt(
          spec.apiKeyPath,
          key.error.issues.map((issue) => issue.message),
        ),
      );
    }
    // A key D1 confirmed within the cache TTL (at most 10 s) costs no round trip; otherwise it is
    // looked up at the primary, so a new key works at once and a revocation is seen as soon as the
    // entry expires. Past half the TTL the entry is re-read after the answer, so a key in steady
    // use keeps answering from the cache while staying at most one TTL stale.
    const ttlMs = keyCacheTtlMs(c.env);
    const check = await cachedKey(key.data, ttlMs);
    if (check.account && check.refresh)
      c.executionCtx.waitUntil(refreshKey(database(c.env.DB), check.refresh, ttlMs));
    let account = check.account;
    if (check.account === null) {
      // The per-address limit guards the database: only a key the isolate cannot vouch for costs a
      // D1 lookup, so floods of unknown keys from one address stop here. A recently verified key is
      // counted per account below instead, from a block its isolate leased (no per-request call).
      await limitClientIp(c);
      account = acceptKey(check.hash, await keyLookup(database(c.env.DB), check.hash).get(), ttlMs);
    }
    if (!account) {
      await limitFailedKey(c);
      throw new ApiError(401, { error: "Invalid API key", details: { api_key: [spec.unauthorizedMessage] } });
    }
    c.set("account", account);
    // Validation runs before the limit is counted only so a submit's admission (its rate and its
    // tasks) is one call; its verdict is applied after the rate limit's, in the documented order.
    const parsed = schema.safeParse(body);
    const admission = spec.tasksOf
      ? await admitSubmit(c, account, parsed.success ? spec.tasksOf(parsed.data) : 0)
      : null;
    if (!admission) await limitAccount(c, account);
    if (!parsed.success) throw invalid(spec.errorText, toErrorTree(parsed.error.issues));
    if (admission) enforceTaskBudget(c, admission);
    const input = parsed.data;
    const d1 = requestSession(c, spec.consistency ?? "write");
    const res = await handler(c, input, account, d1);
    const bookmark = d1.session.getBookmark();
    if (bookmark) res.headers.set(BOOKMARK_HEADER, bookmark);
    return res;
  };
}
