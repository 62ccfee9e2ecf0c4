import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { webhooks } from "../db/schema";
import { decryptWithKeys, encryptText, SecretUnreadable } from "../core/crypto/aes";
import { log } from "../log";
import { randomBytes, toBase64 } from "../core/crypto/encoding";
import { isPrivateHost, webhookPortAllowed } from "../core/network/private-address";

export function newWebhookSecret(): string {
  return `whsec_${toBase64(randomBytes(32))}`;
}

/**
 * Webhook targets a deployed service refuses, unless local development allows them: private
 * networks (see isPrivateHost) and ports other than 80, 443, 8080 and 8443, so that the delivery
 * log cannot be used to scan a host's ports. Delivery checks the stored URL again the same way.
 */
export function webhookTargetAllowed(url: string | URL, allowPrivateNetwork: boolean): boolean {
  if (allowPrivateNetwork) return true;
  const parsed = new URL(url);
  return !isPrivateHost(parsed.hostname) && webhookPortAllowed(parsed);
}

/**
 * Sets or replaces the account's webhook. The signing secret is made with the first webhook and
 * kept on replacement unless a rotation is asked for; it is stored only encrypted.
 */
export async function saveWebhook(
  env: Env,
  db: Database,
  accountId: string,
  url: string,
  rotate: boolean,
): Promise<string> {
  const existing = await db.select().from(webhooks).where(eq(webhooks.accountId, accountId)).get();
  const secret =
    existing && !rotate
      ? ((await readableSecret(env, accountId, existing.secretEnc)) ?? newWebhookSecret())
      : newWebhookSecret();
  const secretEnc = await encryptText(env.ENCRYPTION_KEY, secret);
  const now = Date.now();
  await db
    .insert(webhooks)
    .values({ accountId, url, secretEnc, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: webhooks.accountId, set: { url, secretEnc, updatedAt: now } });
  return secret;
}

/**
 * The stored secret, or null when no configured key opens it (sealed under a key the operator has
 * since dropped): the client is then given a fresh one, which is what it needs to verify anything
 * sent from now on. Logged as a warning without the secret, and never a 500.
 */
async function readableSecret(env: Env, accountId: string, secretEnc: string): Promise<string | null> {
  try {
    return await decryptWithKeys(env, secretEnc);
  } catch (err) {
    if (!(err instanceof SecretUnreadable)) throw err;
    log("warn", "webhook secret unreadable under the configured keys; issuing a new one", {
      account_id: accountId,
      key_id: err.keyId,
    });
    return null;
  }
}

/** Where and how to deliver; `secret` is null when no configured key opens the stored one. */
export interface WebhookTarget {
  url: string;
  secret: string | null;
}

export async function loadWebhook(env: Env, db: Database, accountId: string): Promise<WebhookTarget | null> {
  const row = await db.select().from(webhooks).where(eq(webhooks.accountId, accountId)).get();
  if (!row) return null;
  try {
    return { url: row.url, secret: await decryptWithKeys(env, row.secretEnc) };
  } catch (err) {
    if (err instanceof SecretUnreadable) return { url: row.url, secret: null };
    throw err;
  }
}
