import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { webhooks } from "../db/schema";
import { decryptText, encryptText } from "../core/crypto/aes";
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
export async function saveWebhook(env: Env, db: Database, accountId: string, url: string, rotate: boolean): Promise<string> {
  const existing = await db.select().from(webhooks).where(eq(webhooks.accountId, accountId)).get();
  const secret = existing && !rotate ? await decryptText(env.ENCRYPTION_KEY, existing.secretEnc) : newWebhookSecret();
  const secretEnc = await encryptText(env.ENCRYPTION_KEY, secret);
  const now = Date.now();
  await db
    .insert(webhooks)
    .values({ accountId, url, secretEnc, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: webhooks.accountId, set: { url, secretEnc, updatedAt: now } });
  return secret;
}

export interface WebhookTarget {
  url: string;
  secret: string;
}

export async function loadWebhook(env: Env, db: Database, accountId: string): Promise<WebhookTarget | null> {
  const row = await db.select().from(webhooks).where(eq(webhooks.accountId, accountId)).get();
  if (!row) return null;
  return { url: row.url, secret: await decryptText(env.ENCRYPTION_KEY, row.secretEnc) };
}
