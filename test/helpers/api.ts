import { env, exports } from "cloudflare:workers";
import { sha256Hex } from "../../src/crypto/encoding";

export const BASE = "https://api.test";

export async function call(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new Request(`${BASE}${path}`, init));
}

/** POSTs a JSON body (or raw text) through the Worker's own fetch handler. */
export async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return call(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export async function postJson<T = any>(path: string, body: unknown): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await post(path, body);
  return { status: res.status, body: (await res.json()) as T, headers: res.headers };
}

let counter = 0;

export interface TestAccount {
  accountId: string;
  apiKey: string;
  keyId: string;
}

/** Creates an account and a key straight in D1, the way `npm run keys -- create` stores them. */
export async function createAccount(options: { plan?: string; expiresAt?: number | null; revoked?: boolean } = {}): Promise<TestAccount> {
  counter += 1;
  const accountId = crypto.randomUUID();
  const keyId = `key_${crypto.randomUUID().slice(0, 8)}`;
  const apiKey = `rk_test_${crypto.randomUUID().replace(/-/g, "")}${counter}`;
  const now = Date.now();
  await env.DB.batch([
    env.DB.prepare("INSERT INTO accounts (id, name, plan, created_at) VALUES (?, ?, ?, ?)").bind(accountId, `acct-${accountId}`, options.plan ?? "pro", now),
    env.DB.prepare("INSERT INTO api_keys (id, account_id, prefix, key_hash, created_at, expires_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)").bind(
      keyId,
      accountId,
      apiKey.slice(0, 12),
      await sha256Hex(apiKey),
      now,
      options.expiresAt ?? null,
      options.revoked ? now : null,
    ),
  ]);
  return { accountId, apiKey, keyId };
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
export function submitBody(apiKey: string, publishers?: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    job: JOB,
    data: {
      api_key: apiKey,
      foreign_key: "order-1",
      business: business(),
      publishers: publishers ?? {
        "example.com": { profile_key: "https://example.com/biz/blue-door", last_review_hashes: [], first_page_only: false },
      },
      ...extra,
    },
  };
}
