import type { Context } from "hono";
import { accountStub } from "../account/account-do";
import type { Account } from "../db/schema";
import { planLimits, settings } from "../settings";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";

/** The plan's per-minute limit; an unknown plan falls back to the default plan. */
export function planLimit(env: Env, plan: string): { plan: string; limit: number | null } {
  const { plans, defaultPlan } = settings(env);
  if (plan in plans) return { plan, limit: plans[plan] ?? null };
  return { plan: defaultPlan, limit: plans[defaultPlan] ?? null };
}

/** Counts this submit against the account's plan; sets X-RateLimit-* or throws the 429. */
export async function enforceRateLimit(c: Context<AppEnv>, account: Account): Promise<void> {
  const { plan, limit } = planLimit(c.env, account.plan);
  if (limit === null) return; // unlimited: nothing to count, no round trip to the account object
  const decision = await accountStub(c.env, account.id).consumeRateLimit(limit);
  const headers = {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": String(decision.resetSeconds),
  };
  if (!decision.allowed) {
    throw new ApiError(
      429,
      {
        error: "Too Many Requests",
        details: {
          rate_limit: [`${plan} plan allows ${decision.limit} requests per minute. Retry after ${decision.resetSeconds} seconds.`],
        },
      },
      { ...headers, "Retry-After": String(decision.resetSeconds) },
    );
  }
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
}

/**
 * Counts a submit's tasks (one per publisher) against the plan's tasks_per_minute; sets X-Tasks-*
 * or throws the 429. Runs after validation, since only then is the number of tasks known.
 */
export async function enforceTaskBudget(c: Context<AppEnv>, account: Account, tasks: number): Promise<void> {
  const { plan } = planLimit(c.env, account.plan);
  const limit = planLimits(c.env, plan).tasks_per_minute;
  if (limit === null) return;
  const decision = await accountStub(c.env, account.id).consumeRateLimit(limit, "tasks", tasks);
  const headers = {
    "X-Tasks-Limit": String(decision.limit),
    "X-Tasks-Remaining": String(decision.remaining),
    "X-Tasks-Reset": String(decision.resetSeconds),
  };
  if (!decision.allowed) {
    throw new ApiError(
      429,
      {
        error: "Too Many Requests",
        details: {
          rate_limit: [`${plan} plan allows ${decision.limit} tasks per minute. Retry after ${decision.resetSeconds} seconds.`],
        },
      },
      { ...headers, "Retry-After": String(decision.resetSeconds) },
    );
  }
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
}
