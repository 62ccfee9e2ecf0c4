import type { Context } from "hono";
import { accountStub } from "../account/account-do";
import type { SubmitAdmission } from "../account/rate-limiter";
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

type Decision = NonNullable<SubmitAdmission["requests"]>;

function tooMany(
  plan: string,
  decision: Decision,
  unit: "requests" | "tasks",
  headers: Record<string, string>,
  weight = 1,
): ApiError {
  // More tasks than the plan allows in a whole minute (a large batch): waiting never helps, say so.
  const message =
    weight > decision.limit
      ? `${plan} plan allows ${decision.limit} ${unit} per minute; this request holds ${weight}. Send at most ${decision.limit} per request.`
      : `${plan} plan allows ${decision.limit} ${unit} per minute. Retry after ${decision.resetSeconds} seconds.`;
  return new ApiError(
    429,
    {
      error: "Too Many Requests",
      details: { rate_limit: [message] },
    },
    { ...headers, "Retry-After": String(decision.resetSeconds) },
  );
}

function decisionHeaders(prefix: "X-RateLimit" | "X-Tasks", decision: Decision): Record<string, string> {
  return {
    [`${prefix}-Limit`]: String(decision.limit),
    [`${prefix}-Remaining`]: String(decision.remaining),
    [`${prefix}-Reset`]: String(decision.resetSeconds),
  };
}

/** A submit's admission: its plan, and the verdict on its tasks when they were counted (a valid body). */
export interface Admission {
  plan: string;
  tasks: Decision | null;
  /** The tasks the request asked for. */
  weight: number;
}

/**
 * Counts a submit against the account's plan in one call to the account object: the request rate
 * (X-RateLimit-*, or the 429 that comes before validation) and, for a valid body, its tasks (one per
 * publisher, all or none). The tasks' verdict is applied by `enforceTaskBudget` after validation,
 * keeping the documented order of checks: rate limit, then validation, then the task budget.
 */
export async function admitSubmit(c: Context<AppEnv>, account: Account, tasks: number): Promise<Admission> {
  const { plan, limit } = planLimit(c.env, account.plan);
  const taskLimit = planLimits(c.env, plan).tasks_per_minute;
  // Neither limit counted: no round trip to the account object.
  if (limit === null && (taskLimit === null || tasks === 0)) return { plan, tasks: null, weight: tasks };
  const admission = await accountStub(c.env, account.id).admitSubmit(limit, taskLimit, tasks);
  if (admission.requests) {
    const headers = decisionHeaders("X-RateLimit", admission.requests);
    if (!admission.requests.allowed) throw tooMany(plan, admission.requests, "requests", headers);
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
  }
  return { plan, tasks: admission.tasks, weight: tasks };
}

/** Sets X-Tasks-* or throws the 429 for a submit whose tasks exceeded the plan's tasks_per_minute. */
export function enforceTaskBudget(c: Context<AppEnv>, admission: Admission): void {
  if (!admission.tasks) return;
  const headers = decisionHeaders("X-Tasks", admission.tasks);
  if (!admission.tasks.allowed)
    throw tooMany(admission.plan, admission.tasks, "tasks", headers, admission.weight);
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
}
