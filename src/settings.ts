import { z } from "zod";
import { log } from "./log";
import { FetchRoutesSchema, ProviderOriginsSchema, routeProblems } from "./core/fetch-routes";

/**
 * Typed view of the Worker's plain settings (wrangler vars), parsed once per env object with zod.
 * A malformed value fails loudly (the request answers 500 and the log names the setting) instead of
 * being silently replaced by a default.
 */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [10, 60, 300, 1800, 7200, 21600, 43200, 86400];

/** An optional positive integer setting: empty means the default. */
const positiveInt = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === "") return fallback;
      const n = Number(raw);
      if (!Number.isInteger(n) || n <= 0) {
        ctx.addIssue({ code: "custom", message: "must be a positive integer" });
        return z.NEVER;
      }
      return n;
    });

/** An optional positive number setting (fractions allowed): empty means the default. */
const positiveNumber = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === "") return fallback;
      const n = Number(raw);
      if (!Number.isFinite(n) || n <= 0) {
        ctx.addIssue({ code: "custom", message: "must be a positive number" });
        return z.NEVER;
      }
      return n;
    });

/** A JSON object setting: empty means `fallback`. */
const jsonObject = <T extends z.ZodType>(schema: T, fallback: z.output<T>) =>
  z
    .string()
    .optional()
    .transform((raw, ctx): z.output<T> => {
      if (raw === undefined || raw.trim() === "") return fallback;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        ctx.addIssue({ code: "custom", message: "must be JSON" });
        return z.NEVER;
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        ctx.addIssue({
          code: "custom",
          message: parsed.error.issues.map((i) => `${i.path.join(".") || "value"}: ${i.message}`).join("; "),
        });
        return z.NEVER;
      }
      return parsed.data;
    });

/** A Standard Webhooks secret: `whsec_` and base64. */
function validOpsSecret(secret: string | undefined): boolean {
  return /^whsec_[A-Za-z0-9+/]+=*$/.test(secret ?? "");
}

/** Canary publishers watched at most (the health tables are bounded by the registry plus these). */
export const MAX_CANARY_PUBLISHERS = 50;

const PlansSchema = z.record(z.string().min(1), z.number().int().positive().nullable());

/** What a plan allows beyond its submit rate (PLAN_LIMITS); see README "Limits per plan". */
const PlanLimitsSchema = z.object({
  /** Tasks of one account running at once; the others wait without holding a consumer. */
  concurrent_tasks: z.number().int().positive(),
  /** Tasks (one per publisher) submitted per minute; null = unlimited. */
  tasks_per_minute: z.number().int().positive().nullable(),
  /** Pages one task may scrape; the walk ends there. */
  pages_per_task: z.number().int().positive(),
  /** Longest one page load (plain or rendered) may take. */
  page_timeout_seconds: z.number().int().positive().max(60),
  /** Shortest interval_hours a review monitor may have (docs/monitoring.md); absent = the plan's default below. */
  monitor_min_interval_hours: z.number().int().positive().optional(),
  /** Review monitors an account may have at once (null = unlimited); absent = the plan's default below. */
  max_monitors: z.number().int().positive().nullable().optional(),
});
export type PlanLimits = z.infer<typeof PlanLimitsSchema>;

export const DEFAULT_PLAN_LIMITS: Record<string, PlanLimits> = {
  free: { concurrent_tasks: 2, tasks_per_minute: 30, pages_per_task: 100, page_timeout_seconds: 20 },
  basic: { concurrent_tasks: 5, tasks_per_minute: 150, pages_per_task: 500, page_timeout_seconds: 30 },
  pro: { concurrent_tasks: 20, tasks_per_minute: 1500, pages_per_task: 2000, page_timeout_seconds: 30 },
  unlimited: { concurrent_tasks: 50, tasks_per_minute: null, pages_per_task: 2000, page_timeout_seconds: 30 },
};

const SettingsSchema = z
  .object({
    SERVICE_NAME: z
      .string()
      .optional()
      .transform((v) => v || "ReviewCollector"),
    /** Submit requests per minute by plan name; null = unlimited. */
    PLANS: jsonObject(PlansSchema, { free: 10, basic: 60, pro: 600, unlimited: null }),
    DEFAULT_PLAN: z
      .string()
      .optional()
      .transform((v) => v || "free"),
    PLAN_LIMITS: jsonObject(z.record(z.string().min(1), PlanLimitsSchema), DEFAULT_PLAN_LIMITS),
    ALLOW_PRIVATE_NETWORK: z
      .string()
      .optional()
      .transform((v) => v === "true"),
    /** Publisher domain -> origin that replaces the publisher's own (local development and tests). */
    PUBLISHER_ORIGINS: jsonObject(z.record(z.string(), z.url()), {}),
    WEBHOOK_RETRY_SCHEDULE: z
      .string()
      .optional()
      .transform((raw, ctx) => {
        const parts = (raw ?? "")
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
        if (!parts.length) return DEFAULT_WEBHOOK_RETRY_SCHEDULE;
        const seconds = parts.map(Number);
        if (seconds.some((n) => !Number.isFinite(n) || n < 0)) {
          ctx.addIssue({ code: "custom", message: "must be comma-separated seconds" });
          return z.NEVER;
        }
        return seconds;
      }),
    REVIEW_FILE_URL_TTL: positiveInt(604800),
    PAGES_PER_RUN: positiveInt(5),
    /**
     * Seconds a scraping run's lease lasts without a stored page (src/app/scrape/lease.ts): how
     * long a dead run holds its task. The queue gate presumes a run dead after 1.25 times this
     * without a page and a sent message lost after 1.5 times. Shortened only for local crash drills (npm run chaos).
     */
    RUN_LEASE_SECONDS: positiveInt(120),
    /** Retrieve, create-webhook and delivery-log requests per account per minute (sliding window). */
    ACCOUNT_REQUESTS_PER_MINUTE: positiveInt(600),
    /** Browser Rendering sessions open at once across every consumer. */
    BROWSER_SESSIONS_MAX: positiveInt(2),
    /** Largest publisher answer (plain or rendered) read, in bytes. */
    MAX_PAGE_BYTES: positiveInt(5 * 1024 * 1024),
    /** Publisher domain -> a profile URL known to have reviews, scraped (first page) by the cron canary. */
    CANARY_PROFILES: jsonObject(z.record(z.string().min(1), z.url()), {}),
    /** Minutes between two canary runs of one publisher. */
    CANARY_INTERVAL_MINUTES: positiveInt(60),
    /** Minutes a finished canary keeps its reviews and files (its outcome stays for 30 days). */
    CANARY_RETENTION_MINUTES: positiveInt(60),
    /** Where operator alerts (publisher.degraded / failing / recovered) are POSTed; empty = none. */
    OPS_WEBHOOK_URL: z.union([z.literal(""), z.url()]).optional(),
    /** Secret (whsec_<base64>) the operator alerts are signed with; required with OPS_WEBHOOK_URL. */
    OPS_WEBHOOK_SECRET: z.string().optional(),
    /**
     * Days a finished task (its reviews, files and request) is kept before the cron deletes it
     * (src/app/scrape/retention.ts); fractions allowed (a test uses seconds).
     */
    RETENTION_DAYS: positiveNumber(90),
    /** Review monitors started per cron tick at most; the rest wait for the next tick (docs/monitoring.md). */
    MONITORS_PER_TICK: positiveInt(1000),
    /** Items one batch submit (POST /submit/batch/) may hold. */
    BATCH_MAX: positiveInt(500),
    /** Our own per-request log line; off unless "true" (the platform's invocation logs carry the same fields). */
    LOG_REQUESTS: z
      .string()
      .optional()
      .transform((v) => v === "true"),
    /** Publisher key -> ordered routes ("direct", "browser", "provider:<name>"); "*" for every other. */
    FETCH_ROUTES: jsonObject(FetchRoutesSchema, { "*": ["direct"] }),
    /** Provider name -> origin replacing the provider's own endpoint (tests, self-hosted relays). */
    PROVIDER_ORIGINS: jsonObject(ProviderOriginsSchema, {}),
    /** The Bright Data Web Unlocker zone the BRIGHTDATA_API_KEY requests go to. */
    BRIGHTDATA_ZONE: z.string().optional(),
  })
  .transform((s) => ({
    serviceName: s.SERVICE_NAME,
    plans: s.PLANS,
    defaultPlan: s.DEFAULT_PLAN,
    planLimits: s.PLAN_LIMITS,
    allowPrivateNetwork: s.ALLOW_PRIVATE_NETWORK,
    publisherOrigins: Object.fromEntries(
      Object.entries(s.PUBLISHER_ORIGINS).map(([domain, origin]) => [
        domain.toLowerCase().replace(/^www\./, ""),
        origin.replace(/\/+$/, ""),
      ]),
    ),
    webhookRetrySchedule: s.WEBHOOK_RETRY_SCHEDULE,
    reviewFileUrlTtlSeconds: s.REVIEW_FILE_URL_TTL,
    pagesPerRun: s.PAGES_PER_RUN,
    runLeaseMs: s.RUN_LEASE_SECONDS * 1000,
    accountRequestsPerMinute: s.ACCOUNT_REQUESTS_PER_MINUTE,
    browserSessionsMax: s.BROWSER_SESSIONS_MAX,
    maxPageBytes: s.MAX_PAGE_BYTES,
    logRequests: s.LOG_REQUESTS,
    fetchRoutes: s.FETCH_ROUTES,
    providerOrigins: Object.fromEntries(
      Object.entries(s.PROVIDER_ORIGINS).map(([name, origin]) => [name, origin.replace(/\/+$/, "")]),
    ),
    brightdataZone: s.BRIGHTDATA_ZONE?.trim() ?? "",
    // At most MAX_CANARY_PUBLISHERS: each one is a tracked publisher (src/app/health/tracked.ts).
    canaryProfiles: Object.fromEntries(
      Object.entries(s.CANARY_PROFILES)
        .slice(0, MAX_CANARY_PUBLISHERS)
        .map(([domain, url]) => [domain.toLowerCase().replace(/^www\./, ""), url]),
    ),
    canaryProfilesDropped: Math.max(0, Object.keys(s.CANARY_PROFILES).length - MAX_CANARY_PUBLISHERS),
    canaryIntervalMs: s.CANARY_INTERVAL_MINUTES * 60_000,
    canaryRetentionMs: s.CANARY_RETENTION_MINUTES * 60_000,
    // Alerts need both; without a valid secret they are off and the settings say so (`incomplete`).
    opsWebhook:
      s.OPS_WEBHOOK_URL && validOpsSecret(s.OPS_WEBHOOK_SECRET)
        ? { url: s.OPS_WEBHOOK_URL, secret: s.OPS_WEBHOOK_SECRET ?? "" }
        : null,
    opsWebhookUrlWithoutSecret: Boolean(s.OPS_WEBHOOK_URL) && !validOpsSecret(s.OPS_WEBHOOK_SECRET),
    monitorsPerTick: s.MONITORS_PER_TICK,
    retentionMs: Math.round(s.RETENTION_DAYS * 86_400_000),
    batchMax: s.BATCH_MAX,
  }));

/**
 * A setting that is missing for an optional feature (a provider route's key, the operator alerts'
 * secret). It never fails a request that does not need it: the feature is off, or its tasks fail
 * with `provider_error`. `detail` names the setting, for the operator's log; `notice` names no
 * provider or secret, for the public /status page.
 */
export interface IncompleteSetting {
  detail: string;
  notice: string;
}

export type Settings = z.output<typeof SettingsSchema> & { incomplete: IncompleteSetting[] };

/** The limits of a plan; a plan without its own entry gets the default plan's (then the free plan's). */
export function planLimits(env: Env, plan: string | undefined): PlanLimits {
  const { planLimits: limits, defaultPlan } = settings(env);
  if (plan && Object.hasOwn(limits, plan)) return limits[plan];
  return Object.hasOwn(limits, defaultPlan) ? limits[defaultPlan] : DEFAULT_PLAN_LIMITS.free;
}

/** Shortest monitor interval per plan where PLAN_LIMITS does not set monitor_min_interval_hours. */
const DEFAULT_MONITOR_MIN_INTERVAL_HOURS: Record<string, number> = {
  free: 24,
  basic: 6,
  pro: 1,
  unlimited: 1,
};

/** The shortest interval_hours a plan's monitors may have (at least 1). */
export function monitorMinIntervalHours(env: Env, plan: string | undefined): number {
  const configured = planLimits(env, plan).monitor_min_interval_hours;
  if (configured !== undefined) return configured;
  const name = plan && Object.hasOwn(settings(env).planLimits, plan) ? plan : settings(env).defaultPlan;
  return Object.hasOwn(DEFAULT_MONITOR_MIN_INTERVAL_HOURS, name)
    ? DEFAULT_MONITOR_MIN_INTERVAL_HOURS[name]
    : 24;
}

/** Monitors per account where PLAN_LIMITS does not set max_monitors (null = unlimited). */
const DEFAULT_MAX_MONITORS: Record<string, number | null> = {
  free: 10,
  basic: 100,
  pro: 1000,
  unlimited: null,
};

/** How many review monitors a plan's account may have at once; null = unlimited. */
export function maxMonitors(env: Env, plan: string | undefined): number | null {
  const configured = planLimits(env, plan).max_monitors;
  if (configured !== undefined) return configured;
  const name = plan && Object.hasOwn(settings(env).planLimits, plan) ? plan : settings(env).defaultPlan;
  return Object.hasOwn(DEFAULT_MAX_MONITORS, name) ? DEFAULT_MAX_MONITORS[name] : 10;
}

const cache = new WeakMap<object, Settings>();

export function settings(env: Env): Settings {
  const cached = cache.get(env);
  if (cached) return cached;
  const result = SettingsSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues
      .map((issue) => `${issue.path.join(".")}: ${issue.message}`)
      .join("; ");
    throw new Error(`Invalid settings: ${problems}`);
  }
  const parsed: Settings = { ...result.data, incomplete: incompleteSettings(env, result.data) };
  cache.set(env, parsed);
  reportOnce(parsed.incomplete);
  return parsed;
}

/**
 * What optional features lack: a provider named in FETCH_ROUTES without its key (or Bright Data
 * without its zone), OPS_WEBHOOK_URL without a valid OPS_WEBHOOK_SECRET. Only presence is checked,
 * never a value.
 */
function incompleteSettings(env: Env, s: z.output<typeof SettingsSchema>): IncompleteSetting[] {
  const out: IncompleteSetting[] = routeProblems(s.fetchRoutes, s.brightdataZone, (name) => {
    const value = (env as unknown as Record<string, unknown>)[name];
    return typeof value === "string" && value.trim() !== "";
  }).map((problem) => ({
    detail: `FETCH_ROUTES: ${problem}; tasks routed there fail with provider_error`,
    notice: "A fetch route names a provider whose settings are incomplete: tasks routed there fail.",
  }));
  if (s.canaryProfilesDropped)
    out.push({
      detail: `CANARY_PROFILES lists ${s.canaryProfilesDropped} publishers beyond the ${MAX_CANARY_PUBLISHERS} watched: only the first ${MAX_CANARY_PUBLISHERS} get canaries`,
      notice: `Only the first ${MAX_CANARY_PUBLISHERS} canary publishers are watched.`,
    });
  if (s.opsWebhookUrlWithoutSecret)
    out.push({
      detail:
        "OPS_WEBHOOK_URL is set without a valid OPS_WEBHOOK_SECRET (whsec_<base64>; wrangler secret put OPS_WEBHOOK_SECRET, or .dev.vars locally): operator alerts are off",
      notice: "Operator alerts are off: their signing secret is not set.",
    });
  return out;
}

/** Incomplete settings are logged once per isolate (its first read of the settings), not per request. */
let reported = false;

function reportOnce(incomplete: readonly IncompleteSetting[]): void {
  if (reported || !incomplete.length) return;
  reported = true;
  log("warn", "settings incomplete", { problems: incomplete.map((i) => i.detail).join(" | ") });
}
