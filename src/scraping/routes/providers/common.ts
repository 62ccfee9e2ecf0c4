import { settings } from "../../../settings";
import { permanentError, ScrapeError, transientError } from "../../errors";
import { mayRequest } from "../../target";
import { PROVIDERS, type ProviderName, type RouteName } from "../../../core/fetch-routes";
import type { Route, RouteAnswer, RouteRequest } from "../types";

/** A provider's key, read from its Worker secret at the moment of use and kept nowhere else. */
export function providerKey(env: Env, provider: ProviderName): string {
  const value = (env as unknown as Record<string, unknown>)[PROVIDERS[provider].secret];
  // settings() refuses a route without its secret, so this only guards a direct caller.
  if (typeof value !== "string" || !value.trim())
    throw permanentError("provider_error", `${provider}: ${PROVIDERS[provider].secret} is not set`);
  return value.trim();
}

/** The provider's endpoint: its own origin, or the one PROVIDER_ORIGINS points it at. */
export function providerUrl(env: Env, provider: ProviderName, path: string): URL {
  return new URL(path, settings(env).providerOrigins[provider] ?? PROVIDERS[provider].origin);
}

/** What a provider's answer means when it is not the publisher's page. */
export type ProviderFailure =
  /** Key refused, quota or credit spent, account or zone misconfigured: the task fails, naming it. */
  | { kind: "account"; detail: string }
  /** The provider could not get past the publisher's protection: `blocked`, next route. */
  | { kind: "blocked"; detail: string }
  /** The provider's own trouble (5xx, rate limit, timeout): retried with backoff. */
  | { kind: "retry"; detail: string; retryAfterSeconds?: number };

export class ProviderFailed extends Error {
  constructor(readonly failure: ProviderFailure) {
    super(failure.detail);
  }
}

/** Attempts per request, and the waits between them; each is cut short by the request's own timeout. */
const ATTEMPTS = 3;
const BACKOFF_MS = [500, 1500];

/** Removes the key from any text that could reach a log line, an error detail or a response. */
export function redact(text: string, key: string): string {
  if (!key) return text;
  let out = text;
  for (const form of new Set([key, encodeURIComponent(key), btoa(`${key}:`)]))
    out = out.split(form).join("[key]");
  return out;
}

/** Short, single-line, key-free text of a provider's error body for the task's failure detail. */
export function detailOf(text: string, key: string, max = 200): string {
  return redact(text.replace(/\s+/g, " ").trim().slice(0, max), key);
}

/**
 * The shared part of every provider route: the network rules on the URL the provider will fetch
 * (the publisher-side URL: a provider is never a way to a private address while private networks
 * are off), retries with backoff on the provider's own trouble, and the mapping of its failures.
 */
export abstract class ProviderRoute implements Route {
  readonly kind = "provider";
  abstract readonly name: RouteName;
  protected abstract readonly provider: ProviderName;

  constructor(protected readonly env: Env) {}

  /** One call to the provider; throws ProviderFailed for an answer that is not the publisher's. */
  protected abstract call(request: RouteRequest, key: string): Promise<RouteAnswer>;

  async send(request: RouteRequest): Promise<RouteAnswer> {
    const url = request.target.pageUrl;
    if (!mayRequest(this.env, url))
      throw permanentError("profile_not_found", `Refusing to request a private host: ${url.hostname}`);
    const key = providerKey(this.env, this.provider);
    for (let attempt = 1; ; attempt++) {
      let failure: ProviderFailure;
      try {
        return await this.call(request, key);
      } catch (err) {
        if (err instanceof ScrapeError) throw err;
        if (err instanceof ProviderFailed) failure = err.failure;
        else if (request.signal.aborted)
          failure = { kind: "retry", detail: `no answer within ${request.timeoutMs} ms` };
        else
          failure = {
            kind: "retry",
            detail: `could not be reached: ${err instanceof Error ? err.message : String(err)}`,
          };
      }
      const detail = `${this.provider}: ${redact(failure.detail, key)}`;
      if (failure.kind === "account") throw permanentError("provider_error", detail);
      if (failure.kind === "blocked") throw permanentError("blocked", detail);
      const wait = BACKOFF_MS[attempt - 1] ?? 0;
      if (attempt >= ATTEMPTS || request.signal.aborted)
        throw transientError("provider_error", detail, failure.retryAfterSeconds);
      await sleep(wait, request.signal);
      if (request.signal.aborted) throw transientError("provider_error", `${detail} (no time left to retry)`);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
