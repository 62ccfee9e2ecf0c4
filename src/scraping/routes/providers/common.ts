import { settings } from "../../../settings";
import { OperatorOnlyError, permanentError, ScrapeError } from "../../errors";
import { mayRequest } from "../../target";
import { PROVIDERS, type ProviderName, type RouteName } from "../../../core/fetch-routes";
import type { Route, RouteAnswer, RouteRequest } from "../types";

/** A provider's key, read from its Worker secret at the moment of use and kept nowhere else. */
export function providerKey(env: Env, provider: ProviderName): string {
  const value = (env as unknown as Record<string, unknown>)[PROVIDERS[provider].secret];
  // settings() refuses a route without its secret, so this only guards a direct caller.
  if (typeof value !== "string" || !value.trim())
    throw providerError("provider_error", false, `${provider}: ${PROVIDERS[provider].secret} is not set`);
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

/** A run of at least this many characters of a key (or of one of its encodings) is removed too. */
const MIN_KEY_FRAGMENT = 8;
/** Text examined for key fragments; whole keys are removed from the full text first. */
const FRAGMENT_WINDOW = 2_000;

/** A key's base64 as it appears inside a longer base64 text, for each of the three byte alignments. */
function base64Forms(key: string): string[] {
  const forms: string[] = [];
  for (let pad = 0; pad < 3; pad++) {
    let encoded: string;
    try {
      encoded = btoa("\0".repeat(pad) + key);
    } catch {
      return forms; // not Latin-1: no provider key looks like that
    }
    // Drop the groups shared with the neighbouring bytes: what stays is the key's alone.
    const inner = encoded.replace(/=+$/, "").slice(pad ? 4 : 0, -4);
    forms.push(encoded, inner, inner.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return forms;
}

/** Every text form a key takes in a request or an answer: as is, URL- and form-encoded, base64 (basic auth too). */
export function keyForms(key: string): string[] {
  const forms = [
    key,
    encodeURIComponent(key),
    new URLSearchParams({ k: key }).toString().slice(2),
    ...base64Forms(`${key}:`),
    ...base64Forms(key),
  ];
  return [...new Set(forms.filter((form) => form.length >= MIN_KEY_FRAGMENT))].sort(
    (a, b) => b.length - a.length,
  );
}

/**
 * Removes the key from any text that could reach a log line or an error detail: every form of it
 * (keyForms), then, within the first FRAGMENT_WINDOW characters, any run of MIN_KEY_FRAGMENT or
 * more characters of one of those forms (a provider that echoes part of a key). Callers cut the text
 * only after this, so no cut leaves a part of a key behind.
 */
export function redact(text: string, key: string): string {
  if (!key) return text;
  const forms = keyForms(key);
  let out = text;
  for (const form of forms) out = out.split(form).join("[key]");
  if (out.length > FRAGMENT_WINDOW) out = `${out.slice(0, FRAGMENT_WINDOW)}…`;
  const grams = new Set(forms.flatMap((form) => ngrams(form, MIN_KEY_FRAGMENT)));
  let result = "";
  for (let i = 0; i < out.length;) {
    if (!grams.has(out.slice(i, i + MIN_KEY_FRAGMENT))) {
      result += out[i++];
      continue;
    }
    let end = i + MIN_KEY_FRAGMENT;
    while (end < out.length && forms.some((form) => form.includes(out.slice(i, end + 1)))) end++;
    result += "[key]";
    i = end;
  }
  return result;
}

function ngrams(text: string, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i + n <= text.length; i++) out.push(text.slice(i, i + n));
  return out;
}

/** Short, single-line, key-free text of a provider's error body for the operator's log (redacted, then cut). */
export function detailOf(text: string, key: string, max = 200): string {
  const clean = redact(text.replace(/\s+/g, " ").trim(), key);
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/**
 * What a client reads of a provider's failure: stable, naming neither the provider nor its
 * account's state (the operator's log has those).
 */
export const PROVIDER_CLIENT_DETAIL = {
  provider_error: "the fetch route could not get the page (the operator's log has the details)",
  blocked: "the publisher refused the request",
} as const;

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
      const detail = `${this.provider}: ${detailOf(failure.detail, key, 500)}`;
      if (failure.kind === "account") throw providerError("provider_error", false, detail);
      if (failure.kind === "blocked") throw providerError("blocked", false, detail);
      const wait = BACKOFF_MS[attempt - 1] ?? 0;
      if (attempt >= ATTEMPTS || request.signal.aborted)
        throw providerError("provider_error", true, detail, failure.retryAfterSeconds);
      await sleep(wait, request.signal);
      if (request.signal.aborted)
        throw providerError("provider_error", true, `${detail} (no time left to retry)`);
    }
  }
}

/** A provider's failure: the detail goes to the log, the client reads PROVIDER_CLIENT_DETAIL. */
function providerError(
  reason: "provider_error" | "blocked",
  transient: boolean,
  detail: string,
  retryAfterSeconds?: number,
): OperatorOnlyError {
  return new OperatorOnlyError(reason, transient, detail, PROVIDER_CLIENT_DETAIL[reason], retryAfterSeconds);
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
