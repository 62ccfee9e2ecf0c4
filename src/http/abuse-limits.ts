import type { Context } from "hono";
import type { Account } from "../db/schema";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";
import { takeAccountRequest } from "../account/request-quota";
import { settings } from "../settings";
import { errorText, log } from "../log";

/** Every Workers rate-limiting binding counts per minute here (wrangler.toml `[[ratelimits]]`). */
const PERIOD_SECONDS = 60;

function tooMany(message: string): ApiError {
  return new ApiError(
    429,
    { error: "Too Many Requests", details: { rate_limit: [message] } },
    { "Retry-After": String(PERIOD_SECONDS) },
  );
}

/** The client's address as Cloudflare saw it; absent only when the Worker is called without the edge (tests). */
function clientIp(c: Context<AppEnv>): string | null {
  return c.req.header("cf-connecting-ip") ?? null;
}

/**
 * Limits per client IP, before any database work, on every API endpoint (IP_LIMITER). Submits are
 * limited per account by their plan as well; this stops one address from flooding retrieve or
 * create-webhook with any key at all.
 */
export async function limitClientIp(c: Context<AppEnv>): Promise<void> {
  const ip = clientIp(c);
  if (ip === null) return;
  const { success } = await c.env.IP_LIMITER.limit({ key: ip });
  if (!success) throw tooMany(`Too many requests from this address. Retry after ${PERIOD_SECONDS} seconds.`);
}

/**
 * Limits the endpoints without a plan rate (retrieve, create-webhook, deliveries) per account
 * (ACCOUNT_REQUESTS_PER_MINUTE), in the account's Durable Object, leased in blocks (request-quota.ts).
 */
/** What a client is told to wait when the account object failed twice. */
const ACCOUNT_RETRY_AFTER_SECONDS = 5;

export async function limitAccount(c: Context<AppEnv>, account: Account): Promise<void> {
  const limit = settings(c.env).accountRequestsPerMinute;
  const take = () => takeAccountRequest(c.env, account.id, limit, (p) => c.executionCtx.waitUntil(p));
  // The account object can be briefly unreachable (restarted, moved, overloaded): one retry, then
  // 503 with Retry-After. Nothing was written yet, so the client's retry is safe.
  let decision: Awaited<ReturnType<typeof take>>;
  try {
    decision = await take().catch(() => take());
  } catch (err) {
    log("error", "account object unavailable", { request_id: c.get("requestId"), error: errorText(err) });
    throw new ApiError(
      503,
      { error: "Service temporarily unavailable" },
      { "Retry-After": String(ACCOUNT_RETRY_AFTER_SECONDS) },
    );
  }
  if (!decision.allowed) {
    const seconds = decision.retryAfterSeconds;
    throw new ApiError(
      429,
      {
        error: "Too Many Requests",
        details: { rate_limit: [`Too many requests for this account. Retry after ${seconds} seconds.`] },
      },
      { "Retry-After": String(seconds) },
    );
  }
}

/**
 * Counts a request with an invalid key against its client IP (FAILED_KEY_LIMITER): past the limit,
 * the address gets 429 instead of 401, so keys cannot be guessed at speed.
 */
export async function limitFailedKey(c: Context<AppEnv>): Promise<void> {
  const ip = clientIp(c);
  if (ip === null) return;
  const { success } = await c.env.FAILED_KEY_LIMITER.limit({ key: ip });
  if (!success)
    throw tooMany(
      `Too many requests with an invalid API key from this address. Retry after ${PERIOD_SECONDS} seconds.`,
    );
}
