import { DurableObject } from "cloudflare:workers";
import { consume, migrateRateLimiter, type RateLimitDecision } from "./rate-limiter";

/**
 * One object per account serializes what must not race for that account: the submit rate limit
 * and the webhook outbox.
 */
export class AccountDurableObject extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      migrateRateLimiter(ctx.storage.sql);
    });
  }

  async consumeRateLimit(limit: number | null): Promise<RateLimitDecision> {
    return consume(this.ctx.storage.sql, limit, Date.now());
  }
}

export function accountStub(env: Env, accountId: string): DurableObjectStub<AccountDurableObject> {
  return env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId)) as DurableObjectStub<AccountDurableObject>;
}
