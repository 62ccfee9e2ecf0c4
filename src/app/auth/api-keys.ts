/**
 * API keys: a presented key is looked up by its SHA-256 hash (keys are never stored in clear), the
 * stored hash is compared again in constant time, and expired or revoked keys fail. A key D1
 * confirmed recently is answered from the isolate. src/http/endpoint.ts runs the steps: cachedKey,
 * then keyLookup folded into its own D1 batch, then acceptKey.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { accounts, apiKeys, type Account } from "../../db/schema";
import { sha256Hex, timingSafeEqualText } from "../../core/crypto/encoding";

/**
 * How long a verified key is trusted without asking D1 again (`API_KEY_CACHE_TTL`, seconds). The
 * product bound (docs/architecture.md, "Product decisions", keys) is 10 s: a revoked or expired key stops everywhere within it, so a
 * larger setting is capped there rather than silently breaking the promise.
 */
export const DEFAULT_KEY_CACHE_TTL_SECONDS = 10;
export const MAX_KEY_CACHE_TTL_SECONDS = 10;
const MAX_CACHED_KEYS = 10_000;

/** The key-cache lifetime in milliseconds; read here until settings.ts has a typed field for it. */
export function keyCacheTtlMs(env: Pick<Env, "API_KEY_CACHE_TTL">): number {
  const raw = env.API_KEY_CACHE_TTL;
  const seconds = raw === undefined || raw === "" ? DEFAULT_KEY_CACHE_TTL_SECONDS : Number(raw);
  const valid = Number.isFinite(seconds) && seconds >= 0 ? seconds : DEFAULT_KEY_CACHE_TTL_SECONDS;
  return Math.min(valid, MAX_KEY_CACHE_TTL_SECONDS) * 1000;
}

interface CachedKey {
  account: Account;
  keyExpiresAt: number | null;
  /** When D1 last confirmed the key; past this plus the TTL the key is looked up again. */
  checkedAt: number;
}

/**
 * Keys D1 confirmed recently, by SHA-256 of the key (the key itself is never kept). Per isolate:
 * a revoked key, or a changed plan, takes effect everywhere within one TTL. Only valid keys are
 * cached, so a new key works at once and unknown keys always reach D1.
 */
const verified = new Map<string, CachedKey>();

/**
 * `refresh` is set on a hit past half its TTL: the caller answers from the cache and re-reads the
 * key in the background (`refreshKey`), so a key in steady use never waits for D1 while its entry
 * is never older than the TTL.
 */
export type KeyCheck = { account: Account; refresh?: string } | { account: null; hash: string };

/**
 * Answers from the isolate's key cache when it can; otherwise returns the key's hash so the caller
 * can look it up (alone, or folded into its own D1 batch) and record the result with `acceptKey`.
 */
export async function cachedKey(presented: string, ttlMs: number, now = Date.now()): Promise<KeyCheck> {
  const hash = await sha256Hex(presented);
  const hit = verified.get(hash);
  if (hit && now - hit.checkedAt < ttlMs && now >= hit.checkedAt) {
    if (hit.keyExpiresAt !== null && hit.keyExpiresAt <= now) {
      verified.delete(hash);
      return { account: null, hash };
    }
    return now - hit.checkedAt >= ttlMs / 2
      ? { account: hit.account, refresh: hash }
      : { account: hit.account };
  }
  if (hit) verified.delete(hash);
  return { account: null, hash };
}

export interface KeyRow {
  keyHash: string;
  expiresAt: number | null;
  revokedAt: number | null;
}

/** The key's account when the looked-up row is a live key for this hash; caches it when `ttlMs` > 0. */
export function acceptKey(
  hash: string,
  row: { key: KeyRow; account: Account } | undefined,
  ttlMs: number,
  now = Date.now(),
): Account | null {
  if (
    !row ||
    !timingSafeEqualText(row.key.keyHash, hash) ||
    row.key.revokedAt !== null ||
    (row.key.expiresAt !== null && row.key.expiresAt <= now)
  ) {
    // A background refresh that finds the key revoked drops it at once, not at the TTL.
    verified.delete(hash);
    return null;
  }
  if (ttlMs > 0) {
    if (verified.size >= MAX_CACHED_KEYS) verified.delete(verified.keys().next().value as string);
    verified.delete(hash);
    verified.set(hash, { account: row.account, keyExpiresAt: row.key.expiresAt, checkedAt: now });
  }
  return row.account;
}

/**
 * The background half of a cache hit past half its TTL: reads the key again and renews or drops
 * its entry. A failed read changes nothing (the entry still expires at its TTL).
 */
export async function refreshKey(db: Database, hash: string, ttlMs: number): Promise<void> {
  try {
    acceptKey(hash, await keyLookup(db, hash).get(), ttlMs);
  } catch {
    // The next request past the TTL asks D1 in the foreground.
  }
}

/** The lookup of a key by its hash, with its account. */
export function keyLookup(db: Database, hash: string) {
  return db
    .select({
      key: { keyHash: apiKeys.keyHash, expiresAt: apiKeys.expiresAt, revokedAt: apiKeys.revokedAt },
      account: accounts,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(eq(apiKeys.keyHash, hash));
}
