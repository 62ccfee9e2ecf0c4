import { settings } from "../settings";
import type { WebhookTarget } from "./webhook-config";

/**
 * The outbox (an account object of its own) that operator alerts go through: the same signing,
 * retries and delivery log as a client's webhook, with the URL and secret from the settings
 * (OPS_WEBHOOK_URL, OPS_WEBHOOK_SECRET) instead of an account's stored webhook.
 */
export const OPS_ACCOUNT_ID = "system:ops";

export function opsWebhookTarget(env: Env): WebhookTarget | null {
  return settings(env).opsWebhook;
}
