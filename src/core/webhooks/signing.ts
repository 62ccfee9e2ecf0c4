/**
 * Webhook signatures. Two schemes sign every delivery so receivers can pick either:
 * - `X-Webhook-Signature: sha256=<hex>`: HMAC-SHA256 keyed with the secret string as returned
 *   (UTF-8 bytes) over `<timestamp>.<raw body>`; what clients of the hosted API already check.
 * - Standard Webhooks `webhook-signature: v1,<base64>`: HMAC-SHA256 keyed with the base64-decoded
 *   part of `whsec_<base64>` over `<id>.<timestamp>.<raw body>`, so off-the-shelf libraries verify it.
 */
import { fromBase64, toBase64, toHex } from "../crypto/encoding";

const SIGNATURE_PREFIX = "sha256=";
const STANDARD_PREFIX = "v1,";
const SECRET_PREFIX = "whsec_";

const utf8 = (text: string) => new TextEncoder().encode(text);

function hmacKey(raw: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** `sha256=<hex>` over `timestamp.body`, keyed with the secret string (client/verify-webhook.ts checks it). */
export async function legacySignature(secret: string, timestamp: string, body: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(utf8(secret)), utf8(`${timestamp}.${body}`));
  return SIGNATURE_PREFIX + toHex(mac);
}

/** Standard Webhooks `v1,<base64>` over `id.timestamp.body`, keyed with the decoded secret. */
export async function standardSignature(
  secret: string,
  id: string,
  timestamp: string,
  body: string,
): Promise<string> {
  const raw = fromBase64(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(raw), utf8(`${id}.${timestamp}.${body}`));
  return STANDARD_PREFIX + toBase64(mac);
}

export interface DeliveryHeaderInput {
  serviceName: string;
  secret: string;
  eventId: string;
  /** Unix seconds of this attempt. */
  timestamp: number;
  body: string;
}

/** Every header of one delivery attempt, signatures computed for this attempt's timestamp. */
export async function deliveryHeaders(input: DeliveryHeaderInput): Promise<Record<string, string>> {
  const timestamp = String(input.timestamp);
  const [legacy, standard] = await Promise.all([
    legacySignature(input.secret, timestamp, input.body),
    standardSignature(input.secret, input.eventId, timestamp, input.body),
  ]);
  return {
    "Content-Type": "application/json",
    "User-Agent": `${input.serviceName}-Webhook/1.0`,
    "X-Webhook-Timestamp": timestamp,
    "X-Webhook-Id": input.eventId,
    "X-Webhook-Signature": legacy,
    "webhook-id": input.eventId,
    "webhook-timestamp": timestamp,
    "webhook-signature": standard,
  };
}
