import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { accounts, apiKeys, type Account } from "../../db/schema";
import { sha256Hex, timingSafeEqualText } from "../../crypto/encoding";

/**
 * Finds the account of a presented key. Keys are looked up by their SHA-256 hash (never stored in
 * clear), the stored hash is compared again in constant time, and expired or revoked keys fail.
 */
export async function authenticate(db: Database, presented: string, now = Date.now()): Promise<Account | null> {
  const hash = await sha256Hex(presented);
  const row = await db
    .select({ key: apiKeys, account: accounts })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(and(eq(apiKeys.keyHash, hash)))
    .get();
  if (!row || !timingSafeEqualText(row.key.keyHash, hash)) return null;
  if (row.key.revokedAt !== null) return null;
  if (row.key.expiresAt !== null && row.key.expiresAt <= now) return null;
  return row.account;
}
