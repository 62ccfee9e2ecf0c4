import { env, exports } from "cloudflare:workers";
import { bypass } from "msw";
import { inject } from "vitest";
import { newApiKey } from "../../scripts/lib/api-keys.mjs";

export const BASE = "https://api.test";

export async function call(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new Request(`${BASE}${path}`, init));
}

/** POSTs a JSON body (or raw text) through the Worker's own fetch handler. */
export async function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return call(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

let documentId: Promise<string> | undefined;

/** A call to the Node-side validator; `bypass` lets it through when a test's MSW server intercepts fetch. */
function validatorFetch(path: string, body: string): Promise<Response> {
  return fetch(bypass(new Request(new URL(path, inject("openapiValidatorUrl")), { method: "POST", body })));
}

/** Registers the Worker's own /openapi.json with the Node-side validator (test/openapi/validator-server.ts), once per test file. */
function openapiDocumentId(): Promise<string> {
  documentId ??= (async () => {
    const document = await (await call("/openapi.json")).text();
    const res = await validatorFetch("/documents", document);
    const answer = await res.json<{ id?: string; error?: string }>();
    if (!answer.id) throw new Error(`The OpenAPI document could not be compiled: ${answer.error}`);
    return answer.id;
  })();
  return documentId;
}

/** Throws unless the operation documents this status and the body matches the schema documented for it. */
export async function expectDocumentedResponse(
  method: string,
  path: string,
  status: number,
  body: unknown,
): Promise<void> {
  const res = await validatorFetch(
    "/responses",
    JSON.stringify({ id: await openapiDocumentId(), method, path, status, body }),
  );
  const answer = await res.json<{ valid: boolean; error?: string }>();
  if (!answer.valid)
    throw new Error(
      `Response does not match the OpenAPI document: ${answer.error}\n${JSON.stringify(body).slice(0, 2000)}`,
    );
}

/**
 * POSTs through the Worker and parses the JSON answer, which must match the response schema the
 * OpenAPI document gives for its status: every API and end-to-end test checks the documentation too.
 */
export async function postJson<T = any>(
  path: string,
  body: unknown,
): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await post(path, body);
  const parsed = (await res.json()) as T;
  await expectDocumentedResponse("POST", path, res.status, parsed);
  return { status: res.status, body: parsed, headers: res.headers };
}

export interface TestAccount {
  accountId: string;
  apiKey: string;
  keyId: string;
}

export interface KeyOptions {
  expiresAt?: number | null;
  revoked?: boolean;
}

/** Stores a new key for an existing account, made by the same code as `npm run keys -- create`. */
export async function addKey(
  accountId: string,
  options: KeyOptions = {},
): Promise<{ apiKey: string; keyId: string }> {
  const key = newApiKey();
  const now = Date.now();
  await env.DB.prepare(
    "INSERT INTO api_keys (id, account_id, prefix, key_hash, created_at, expires_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  )
    .bind(
      key.id,
      accountId,
      key.prefix,
      key.hash,
      now,
      options.expiresAt ?? null,
      options.revoked ? now : null,
    )
    .run();
  return { apiKey: key.key, keyId: key.id };
}

/** Creates an account straight in D1 and gives it a key, the way `npm run keys -- create` does. */
export async function createAccount(options: { plan?: string } & KeyOptions = {}): Promise<TestAccount> {
  const accountId = crypto.randomUUID();
  await env.DB.prepare("INSERT INTO accounts (id, name, plan, created_at) VALUES (?, ?, ?, ?)")
    .bind(accountId, `acct-${accountId}`, options.plan ?? "pro", Date.now())
    .run();
  return { accountId, ...(await addKey(accountId, options)) };
}

export const JOB = "App\\Jobs\\RequestReviews";

export function business() {
  return {
    id: "biz-1",
    name: "Blue Door Cafe",
    address: { street: "1 Market St", city: "San Francisco", state: "CA", zip: "94105", country: "USA" },
    phone: "+1 415 555 0100",
    description: "Neighbourhood cafe",
    tags: ["cafe"],
  };
}

/** A valid submit body for the given publishers (default: one generic publisher on example.com). */
export function submitBody(
  apiKey: string,
  publishers?: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return {
    job: JOB,
    data: {
      api_key: apiKey,
      foreign_key: "order-1",
      business: business(),
      publishers: publishers ?? {
        "example.com": {
          profile_key: "https://example.com/biz/blue-door",
          last_review_hashes: [],
          first_page_only: false,
        },
      },
      ...extra,
    },
  };
}

/** The three endpoints, with the error text each answers a 400 with. */
export const ENDPOINTS = {
  submit: {
    path: "/submit/request-reviews/",
    errorText: "Invalid payload",
    unauthorized: "Invalid API key.",
  },
  retrieve: { path: "/retrieve-task/", errorText: "Invalid request", unauthorized: "Invalid API key." },
  webhook: {
    path: "/webhooks/create-webhook/",
    errorText: "Invalid payload",
    unauthorized: "API key is invalid or expired.",
  },
} as const;

export type EndpointName = keyof typeof ENDPOINTS;

/** Login cookies as a client sends them for facebook.com or yelp.com. */
export function loginCookies(domain: string, value = "s3cret-cookie-value") {
  return [{ name: "session", value, domain: `.${domain}` }];
}

/** A valid publisher configuration; facebook.com and yelp.com get the login cookies they need. */
export function publisherConfig(
  domain: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const needsLogin = domain === "facebook.com" || domain === "yelp.com";
  return {
    profile_key: `https://www.${domain}/biz/blue-door`,
    last_review_hashes: [],
    first_page_only: false,
    ...(needsLogin ? { persona: { additional_cookies: { login: loginCookies(domain) } } } : {}),
    ...overrides,
  };
}

/** `leaf` nested under `path`, the way the API nests error details. */
export function nest(path: readonly string[], leaf: unknown): Record<string, unknown> {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), leaf) as Record<string, unknown>;
}

export const DELETE = Symbol("delete");

/** A deep copy of `body` with the value at `path` replaced, or removed when `value` is DELETE. */
export function withValue<T>(body: T, path: readonly string[], value: unknown): T {
  const copy = structuredClone(body);
  let node = copy as Record<string, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path[path.length - 1];
  if (value === DELETE) delete node[last];
  else node[last] = value;
  return copy;
}

export interface TaskRowJson {
  id: string;
  request_id: string;
  account_id: string;
  foreign_key: string;
  publisher_key: string;
  position: number;
  profile_key: string;
  profile_url: string | null;
  status: number;
  reason: string | null;
  options: string;
  cookies_enc: string | null;
}

/** The task rows of a request, in publisher order, read straight from D1. */
export async function taskRows(requestId: string): Promise<TaskRowJson[]> {
  const { results } = await env.DB.prepare("SELECT * FROM tasks WHERE request_id = ? ORDER BY position")
    .bind(requestId)
    .all<TaskRowJson>();
  return results;
}

/** Submits a valid request and returns the 201 body. */
export async function submitOk(
  apiKey: string,
  publishers?: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  const res = await postJson("/submit/request-reviews/", submitBody(apiKey, publishers, extra));
  if (res.status !== 201) throw new Error(`submit failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as {
    status: string;
    tasks_id: string;
    request_id: string;
    foreign_key: string;
    publisher_key: string;
    tasks: { publisher_key: string; tasks_id: string }[];
  };
}

/**
 * Test files share one Worker runtime and its D1 (vitest `isolate: false`), so tasks that earlier
 * files left queued or running are still there. A test of the sweeper, which acts on every idle
 * task, first ends those (as failed, which the sweeper never touches) so that it sees only its own.
 */
export async function endUnfinishedTasks(): Promise<void> {
  await env.DB.prepare(
    "UPDATE tasks SET status = 500, reason = 'internal', lease_token = NULL, lease_until = NULL WHERE status IN (100, 101)",
  ).run();
}

/** The `response_message` retrieve answers for a task that failed with `reason`. */
export function failed(reason: string) {
  return [{ status: "failed", message: "Task processing failed", task_status: 500, reason }];
}
