import { accountStub } from "./account-do";

/**
 * The per-account request limit of the endpoints without a plan rate (retrieve, create-webhook,
 * the delivery log), counted in the account's Durable Object but paid for in blocks: an isolate
 * leases a block of requests from the object and admits that many on its own, asking for the next
 * block in the background while half of the current one is left. So a busy account costs one call
 * to its object per block instead of one per request, and the limit is still global and exact from
 * above: the object never grants more than the limit in any 60 seconds, whichever isolates ask.
 *
 * What a lease costs in accuracy: requests granted to an isolate count from the grant, used or not,
 * so an isolate that goes quiet leaves at most one block unused until the window forgets it (the
 * limit may refuse a little early, never late), and a block left unused for LEASE_TTL_MS is dropped.
 */

/** Largest block; a block is at most a sixtieth of the limit (one second's worth at the full rate). */
const MAX_BLOCK = 50;
/** A block not used up within this is dropped, so requests granted long ago are not admitted late. */
export const LEASE_TTL_MS = 10_000;

export function blockSize(limit: number): number {
  return Math.max(1, Math.min(MAX_BLOCK, Math.floor(limit / 60)));
}

interface Quota {
  tokens: number;
  expiresAt: number;
  /** The lease call under way, shared by every request waiting for it. */
  refill: Promise<void> | null;
  /** Until when the object said the window is full. */
  refusedUntil: number;
}

/** Per isolate, by account. An entry is a few numbers; accounts seen by one isolate are few. */
const quotas = new Map<string, Quota>();
const MAX_ACCOUNTS = 10_000;

export type QuotaDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

function refill(env: Env, accountId: string, quota: Quota, limit: number): Promise<void> {
  quota.refill ??= accountStub(env, accountId)
    .leaseRequests(limit, blockSize(limit))
    .then(({ granted, resetSeconds }) => {
      const now = Date.now();
      if (granted > 0) {
        quota.tokens = (now < quota.expiresAt ? quota.tokens : 0) + granted;
        quota.expiresAt = now + LEASE_TTL_MS;
      } else {
        quota.refusedUntil = now + resetSeconds * 1000;
      }
    })
    .finally(() => {
      quota.refill = null;
    });
  return quota.refill;
}

/**
 * Admits one request of `accountId` against `limit` requests per minute. `background` keeps the
 * next block's lease alive after the response (ExecutionContext.waitUntil).
 */
export async function takeAccountRequest(env: Env, accountId: string, limit: number, background: (p: Promise<unknown>) => void): Promise<QuotaDecision> {
  let quota = quotas.get(accountId);
  if (!quota) {
    if (quotas.size >= MAX_ACCOUNTS) quotas.clear();
    quota = { tokens: 0, expiresAt: 0, refill: null, refusedUntil: 0 };
    quotas.set(accountId, quota);
  }
  for (;;) {
    const now = Date.now();
    if (quota.tokens > 0 && now < quota.expiresAt) {
      quota.tokens--;
      // Half the block left: lease the next one now, so no request waits for it.
      if (quota.tokens <= blockSize(limit) / 2 && !quota.refill && now >= quota.refusedUntil) {
        background(refill(env, accountId, quota, limit).catch(() => undefined));
      }
      return { allowed: true };
    }
    if (now < quota.refusedUntil) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((quota.refusedUntil - now) / 1000)) };
    // Every request without a token waits for the same lease call, then tries again.
    await refill(env, accountId, quota, limit);
  }
}
