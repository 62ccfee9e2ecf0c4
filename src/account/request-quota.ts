import { accountStub } from "./account-do";
import type { RequestLease } from "./rate-limiter";
import { errorText, log } from "../log";

/**
 * The per-account request limit of the endpoints without a plan rate (retrieve, create-webhook,
 * the delivery log), counted in the account's Durable Object but paid for in blocks: an isolate
 * leases a block of requests from the object and admits that many on its own. The object never
 * grants more than the limit in any 60 seconds, whichever isolates ask.
 *
 * Blocks follow each isolate's own demand, so thin traffic spread over many isolates is not refused
 * early: a block is as large as the requests the isolate admitted in the last second (at least one,
 * at most blockSize(limit)). An isolate seeing a request now and then leases one request at a time,
 * and the request that asks is the one that uses it: nothing is leased unused. Only an isolate whose
 * demand has grown to MIN_PREFETCH_BLOCK leases its next block in the background while half of the
 * current one is left, so only busy isolates ever hold tokens that may go unused.
 *
 * Every grant keeps its own expiry (LEASE_TTL_MS after the grant); a refill adds a grant and never
 * extends an older one, so no token is admitted more than LEASE_TTL_MS after the object counted it.
 * Hence in any 60 seconds an account is admitted at most the limit plus what busy isolates were
 * granted in the LEASE_TTL_MS before and had not used yet (under two blocks each), and tokens that a
 * busy isolate leaves unused make the limit refuse early by at most that much.
 *
 * When the object cannot answer, the request is served (fail open, docs/api.md): the isolate then
 * counts on its own, admitting at most the limit per minute, and asks the object again after
 * OBJECT_RETRY_MS. A counter that is down must not turn reads of a client's own data into errors.
 */

/** Largest block; a block is at most a sixtieth of the limit (one second's worth at the full rate). */
const MAX_BLOCK = 50;
/** Tokens of a grant not used within this are dropped, so requests granted long ago are not admitted late. */
export const LEASE_TTL_MS = 10_000;
/** Demand is measured over this span: a block is the requests the isolate admitted in it. */
export const DEMAND_WINDOW_MS = 1_000;
/** From this demand on, the next block is leased in the background once half the tokens are left. */
export const MIN_PREFETCH_BLOCK = 4;
/** After a failed call to the account object, the isolate counts on its own this long before asking again. */
export const OBJECT_RETRY_MS = 5_000;
const MINUTE_MS = 60_000;

/** The largest block an isolate grows to: a sixtieth of the limit, between 1 and MAX_BLOCK. */
export function blockSize(limit: number): number {
  return Math.max(1, Math.min(MAX_BLOCK, Math.floor(limit / 60)));
}

interface Grant {
  tokens: number;
  expiresAt: number;
}

interface Quota {
  /** Unexpired grants, oldest first. */
  grants: Grant[];
  /** When this isolate admitted its recent requests (the last DEMAND_WINDOW_MS), oldest first. */
  recent: number[];
  /** The lease call under way, shared by every request waiting for it. */
  refill: Promise<void> | null;
  /** Requests waiting for the refill: the next lease asks for at least that many. */
  waiting: number;
  /** Until when the object said the window is full. */
  refusedUntil: number;
  /** Until when the object is not asked again after a failed call (fail-open counting meanwhile). */
  objectDownUntil: number;
  /** Admissions while the object could not answer, for the isolate's own per-minute count. */
  localAdmissions: number[];
}

export type QuotaDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** How an isolate asks the account object for a block (the real object in the Worker; a stand-in in tests). */
export type LeaseCall = (want: number) => Promise<RequestLease>;

/** Per isolate, by account. An entry is a few numbers; accounts seen by one isolate are few. */
const MAX_ACCOUNTS = 10_000;

/** One isolate's view of every account's quota. The Worker has one (below); tests make many. */
export class IsolateQuotas {
  readonly #quotas = new Map<string, Quota>();

  #quota(accountId: string): Quota {
    let quota = this.#quotas.get(accountId);
    if (!quota) {
      if (this.#quotas.size >= MAX_ACCOUNTS) this.#quotas.clear();
      quota = {
        grants: [],
        recent: [],
        refill: null,
        waiting: 0,
        refusedUntil: 0,
        objectDownUntil: 0,
        localAdmissions: [],
      };
      this.#quotas.set(accountId, quota);
    }
    return quota;
  }

  /** Drops expired and used-up grants. */
  #expire(quota: Quota, now: number): void {
    while (quota.grants.length && (quota.grants[0].expiresAt <= now || quota.grants[0].tokens === 0))
      quota.grants.shift();
    while (quota.recent.length && quota.recent[0] <= now - DEMAND_WINDOW_MS) quota.recent.shift();
  }

  /** The next block: this isolate's demand over the last DEMAND_WINDOW_MS, or all the requests waiting now. */
  #block(quota: Quota, limit: number): number {
    return Math.max(1, Math.min(blockSize(limit), Math.max(quota.recent.length, quota.waiting)));
  }

  #tokens(quota: Quota): number {
    return quota.grants.reduce((sum, g) => sum + g.tokens, 0);
  }

  #refill(accountId: string, quota: Quota, limit: number, lease: LeaseCall): Promise<void> {
    const want = this.#block(quota, limit);
    // Started inside a promise so that a call failing at once (no stub) fails open like one failing later.
    quota.refill ??= Promise.resolve()
      .then(() => lease(want))
      .then(({ granted, resetSeconds }) => {
        const now = Date.now();
        if (granted > 0) quota.grants.push({ tokens: granted, expiresAt: now + LEASE_TTL_MS });
        else quota.refusedUntil = now + resetSeconds * 1000;
      })
      .catch((err: unknown) => {
        quota.objectDownUntil = Date.now() + OBJECT_RETRY_MS;
        log("warn", "account object did not answer a request lease; counting in this isolate", {
          account_id: accountId,
          error: errorText(err),
        });
      })
      .finally(() => {
        quota.refill = null;
      });
    return quota.refill;
  }

  /** Fail-open admission while the object is down: at most `limit` per minute in this isolate. */
  #admitLocally(quota: Quota, limit: number, now: number): QuotaDecision {
    const recent = quota.localAdmissions.filter((at) => at > now - MINUTE_MS);
    quota.localAdmissions = recent;
    if (recent.length >= limit)
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((recent[0] + MINUTE_MS - now) / 1000)),
      };
    recent.push(now);
    return { allowed: true };
  }

  /**
   * Admits one request of `accountId` against `limit` requests per minute. `lease` asks the account
   * object for a block; `background` keeps a lease started ahead of need alive after the response
   * (ExecutionContext.waitUntil).
   */
  async take(
    accountId: string,
    limit: number,
    lease: LeaseCall,
    background: (p: Promise<unknown>) => void,
  ): Promise<QuotaDecision> {
    const quota = this.#quota(accountId);
    for (;;) {
      const now = Date.now();
      this.#expire(quota, now);
      const grant = quota.grants[0];
      if (grant) {
        grant.tokens--;
        quota.recent.push(now);
        if (quota.recent.length > blockSize(limit)) quota.recent.shift();
        // A busy isolate leases its next block while half of this one is left, so no request waits for it.
        const block = this.#block(quota, limit);
        if (
          block >= MIN_PREFETCH_BLOCK &&
          this.#tokens(quota) <= block / 2 &&
          !quota.refill &&
          now >= quota.refusedUntil &&
          now >= quota.objectDownUntil
        ) {
          background(this.#refill(accountId, quota, limit, lease));
        }
        return { allowed: true };
      }
      if (now < quota.refusedUntil)
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((quota.refusedUntil - now) / 1000)),
        };
      if (now < quota.objectDownUntil) return this.#admitLocally(quota, limit, now);
      // Every request without a token waits for the same lease call (sized for all of them), then tries again.
      quota.waiting++;
      try {
        await this.#refill(accountId, quota, limit, lease);
      } finally {
        quota.waiting--;
      }
    }
  }
}

/** This isolate's quotas. */
const isolate = new IsolateQuotas();

/** Admits one request of `accountId` in this isolate (see IsolateQuotas.take). */
export function takeAccountRequest(
  env: Env,
  accountId: string,
  limit: number,
  background: (p: Promise<unknown>) => void,
): Promise<QuotaDecision> {
  return isolate.take(
    accountId,
    limit,
    (want) => accountStub(env, accountId).leaseRequests(limit, want),
    background,
  );
}
