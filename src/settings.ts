/**
 * Typed view of the Worker's plain settings (wrangler vars and secrets), parsed once per env object.
 */
export interface Settings {
  serviceName: string;
  /** Requests per minute by plan name; null = unlimited. */
  plans: Record<string, number | null>;
  defaultPlan: string;
  allowPrivateNetwork: boolean;
  /** Publisher domain -> origin that replaces the publisher's own (local development and tests). */
  publisherOrigins: Record<string, string>;
  /** Seconds before each webhook retry. */
  webhookRetrySchedule: number[];
  reviewFileUrlTtlSeconds: number;
  pagesPerRun: number;
  /** One JSON log line per request (id, method, path, status, duration; never bodies). */
  logRequests: boolean;
}

export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [10, 60, 300, 1800, 7200, 21600, 43200, 86400];

const cache = new WeakMap<object, Settings>();

function parseJsonObject<T>(raw: string | undefined, name: string, fallback: T): T {
  if (!raw || !raw.trim()) return fallback;
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as T;
  } catch {
    // fall through to the error below
  }
  throw new Error(`Setting ${name} must be a JSON object`);
}

function positiveInt(raw: string | undefined, fallback: number): number {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export function settings(env: Env): Settings {
  const cached = cache.get(env);
  if (cached) return cached;
  const origins = parseJsonObject<Record<string, string>>(env.PUBLISHER_ORIGINS, "PUBLISHER_ORIGINS", {});
  const schedule = (env.WEBHOOK_RETRY_SCHEDULE ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number)
    .filter((n) => Number.isFinite(n) && n >= 0);
  const parsed: Settings = {
    serviceName: env.SERVICE_NAME || "ReviewCollector",
    plans: parseJsonObject(env.PLANS, "PLANS", { free: 10, basic: 60, pro: 600, unlimited: null }),
    defaultPlan: env.DEFAULT_PLAN || "free",
    allowPrivateNetwork: env.ALLOW_PRIVATE_NETWORK === "true",
    publisherOrigins: Object.fromEntries(
      Object.entries(origins).map(([domain, origin]) => [domain.toLowerCase().replace(/^www\./, ""), origin.replace(/\/+$/, "")]),
    ),
    webhookRetrySchedule: schedule.length ? schedule : DEFAULT_WEBHOOK_RETRY_SCHEDULE,
    reviewFileUrlTtlSeconds: positiveInt(env.REVIEW_FILE_URL_TTL, 604800),
    pagesPerRun: positiveInt(env.PAGES_PER_RUN, 5),
    logRequests: env.LOG_REQUESTS !== "false",
  };
  cache.set(env, parsed);
  return parsed;
}
