/**
 * Signed, expiring URLs for raw review files, so the bucket itself is never public.
 * The signature is HMAC-SHA256 (URL_SIGNING_KEY) over "<object key>\n<expiry in unix seconds>".
 */
import { toBase64Url, timingSafeEqualText } from "./encoding";

export const FILES_PATH = "/files/";

const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    keys.set(secret, key);
  }
  return key;
}

async function signature(secret: string, objectKey: string, expires: number): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), new TextEncoder().encode(`${objectKey}\n${expires}`));
  return toBase64Url(mac);
}

export async function signFileUrl(secret: string, baseUrl: string, objectKey: string, expires: number): Promise<string> {
  const url = new URL(FILES_PATH + objectKey.split("/").map(encodeURIComponent).join("/"), baseUrl);
  url.searchParams.set("expires", String(expires));
  url.searchParams.set("signature", await signature(secret, objectKey, expires));
  return url.toString();
}

export type FileUrlCheck = { ok: true; objectKey: string } | { ok: false; reason: "invalid" | "expired" };

/** The object key a /files/ path names, or null when its percent-encoding is malformed ("%E0%A4%A"). */
function objectKeyOf(url: URL): string | null {
  try {
    return url.pathname.slice(FILES_PATH.length).split("/").map(decodeURIComponent).join("/");
  } catch {
    return null;
  }
}

export async function verifyFileUrl(secret: string, url: URL, nowSeconds: number): Promise<FileUrlCheck> {
  const objectKey = objectKeyOf(url);
  const expires = Number(url.searchParams.get("expires"));
  const given = url.searchParams.get("signature") ?? "";
  if (!objectKey || !Number.isInteger(expires) || !given) return { ok: false, reason: "invalid" };
  const expected = await signature(secret, objectKey, expires);
  if (!timingSafeEqualText(expected, given)) return { ok: false, reason: "invalid" };
  if (expires <= nowSeconds) return { ok: false, reason: "expired" };
  return { ok: true, objectKey };
}

