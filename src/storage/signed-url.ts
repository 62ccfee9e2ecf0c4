/**
 * Signed, expiring URLs for raw review files, so the bucket itself is never public.
 * The signature is HMAC-SHA256 (URL_SIGNING_KEY) over "<object key>\n<expiry in unix seconds>".
 */
import { toBase64Url, timingSafeEqualText } from "../core/crypto/encoding";

export const FILES_PATH = "/files/";

/** Expiries are rounded up to this step, so one task's URLs stay identical (and cacheable) for a while. */
export const EXPIRY_STEP_SECONDS = 3600;

const keys = new Map<string, Promise<CryptoKey>>();
const encoder = new TextEncoder();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
    keys.set(secret, key);
  }
  return key;
}

async function signature(secret: string, objectKey: string, expires: number): Promise<string> {
  const mac = await crypto.subtle.sign(
    "HMAC",
    await hmacKey(secret),
    encoder.encode(`${objectKey}\n${expires}`),
  );
  return toBase64Url(mac);
}

function filePath(objectKey: string): string {
  return FILES_PATH + objectKey.split("/").map(encodeURIComponent).join("/");
}

/**
 * The expiry for URLs handed out now: at least `ttlSeconds` away, rounded up to the hour, so every
 * request within the same hour gets the same URLs (valid for between ttl and ttl + 1 h).
 */
export function fileUrlExpiry(ttlSeconds: number, nowSeconds = Math.floor(Date.now() / 1000)): number {
  return Math.ceil((nowSeconds + ttlSeconds) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS;
}

export async function signFileUrl(
  secret: string,
  baseUrl: string,
  objectKey: string,
  expires: number,
): Promise<string> {
  const url = new URL(filePath(objectKey), baseUrl);
  url.searchParams.set("expires", String(expires));
  url.searchParams.set("signature", await signature(secret, objectKey, expires));
  return url.toString();
}

/** The same URLs as signFileUrl for many files of one origin, without a URL object per file. */
export async function signFileUrls(
  secret: string,
  baseUrl: string,
  objectKeys: readonly string[],
  expires: number,
): Promise<string[]> {
  const origin = new URL(baseUrl).origin;
  const signatures = await Promise.all(objectKeys.map((objectKey) => signature(secret, objectKey, expires)));
  return objectKeys.map(
    (objectKey, i) => `${origin}${filePath(objectKey)}?expires=${expires}&signature=${signatures[i]}`,
  );
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
