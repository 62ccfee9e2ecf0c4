/**
 * AES-256-GCM for secrets kept at rest (login cookies, webhook signing secrets). The key is the
 * ENCRYPTION_KEY Worker secret (base64, 32 bytes); each value gets a fresh 96-bit IV.
 */
import { fromBase64, randomBytes, toBase64 } from "./encoding";

const keys = new Map<string, Promise<CryptoKey>>();

function importKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    const raw = fromBase64(secret);
    if (raw.byteLength !== 32) throw new Error("ENCRYPTION_KEY must be 32 bytes, base64-encoded");
    key = crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    keys.set(secret, key);
  }
  return key;
}

export async function encryptText(secret: string, plaintext: string): Promise<string> {
  const iv = randomBytes(12);
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await importKey(secret), new TextEncoder().encode(plaintext));
  return `v1.${toBase64(iv)}.${toBase64(sealed)}`;
}

export async function decryptText(secret: string, sealed: string): Promise<string> {
  const [version, iv, data] = sealed.split(".");
  if (version !== "v1" || !iv || !data) throw new Error("Unknown ciphertext format");
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(iv) }, await importKey(secret), fromBase64(data));
  return new TextDecoder().decode(plain);
}
