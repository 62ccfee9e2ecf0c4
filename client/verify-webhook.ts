/**
 * Receiver-side check of a webhook delivery, for clients (Node 20+, Deno, Bun, Workers: it needs
 * only Web Crypto). It verifies `X-Webhook-Signature` in constant time (crypto.subtle.verify) and
 * refuses timestamps outside the tolerance, which stops replays of old deliveries.
 *
 * Self-contained on purpose: copy this file into a receiver as it is. It is not part of the Worker;
 * test/account/verify.test.ts checks it against the Worker's own signing (src/core/webhooks/signing.ts).
 */

const SIGNATURE_PREFIX = "sha256=";
const utf8 = (text: string) => new TextEncoder().encode(text);

/** The bytes the `X-Webhook-Signature` HMAC covers, `<timestamp>.<raw body>`; the body may be the received bytes. */
function signedContent(timestamp: string, body: string | Uint8Array): Uint8Array {
  if (typeof body === "string") return utf8(`${timestamp}.${body}`);
  const head = utf8(`${timestamp}.`);
  const out = new Uint8Array(head.byteLength + body.byteLength);
  out.set(head);
  out.set(body, head.byteLength);
  return out;
}

export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookInput {
  /** The signing secret exactly as create-webhook returned it (`whsec_...`). */
  secret: string;
  headers: HeaderSource;
  /** The raw request body, before any JSON parsing. */
  body: string | Uint8Array;
  /** Largest accepted difference between the timestamp header and now, in seconds. */
  toleranceSeconds?: number;
  /** The receiver's clock; defaults to the current time. */
  now?: Date | number;
}

export type VerifyWebhookResult =
  | { ok: true; id: string | null; timestamp: number }
  | {
      ok: false;
      reason: "missing_headers" | "invalid_timestamp" | "timestamp_out_of_tolerance" | "invalid_signature";
    };

function header(headers: HeaderSource, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : headers[key];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function hexBytes(hex: string): Uint8Array | null {
  if (!/^[0-9a-f]{64}$/i.test(hex)) return null;
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

export async function verifyWebhook(input: VerifyWebhookInput): Promise<VerifyWebhookResult> {
  const timestampText = header(input.headers, "x-webhook-timestamp");
  const signature = header(input.headers, "x-webhook-signature");
  if (timestampText === null || signature === null) return { ok: false, reason: "missing_headers" };
  if (!/^\d{1,12}$/.test(timestampText.trim())) return { ok: false, reason: "invalid_timestamp" };
  const timestamp = Number(timestampText.trim());
  const nowMs =
    input.now === undefined ? Date.now() : typeof input.now === "number" ? input.now : input.now.getTime();
  if (Math.abs(nowMs / 1000 - timestamp) > (input.toleranceSeconds ?? 300))
    return { ok: false, reason: "timestamp_out_of_tolerance" };
  const given = signature.trim().startsWith(SIGNATURE_PREFIX)
    ? hexBytes(signature.trim().slice(SIGNATURE_PREFIX.length))
    : null;
  if (!given) return { ok: false, reason: "invalid_signature" };
  // Keyed with the secret string exactly as create-webhook returned it (UTF-8 bytes).
  const key = await crypto.subtle.importKey(
    "raw",
    utf8(input.secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  const valid = await crypto.subtle.verify(
    "HMAC",
    key,
    given,
    signedContent(timestampText.trim(), input.body),
  );
  return valid
    ? { ok: true, id: header(input.headers, "x-webhook-id"), timestamp }
    : { ok: false, reason: "invalid_signature" };
}
