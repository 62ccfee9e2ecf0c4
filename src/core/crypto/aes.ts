/**
 * AES-256-GCM for secrets kept at rest (login cookies, webhook signing secrets), with key rotation.
 * The key is the ENCRYPTION_KEY Worker secret (base64, 32 bytes); each value gets a fresh 96-bit IV.
 *
 * Every value sealed here names its key: `v2.<key id>.<iv>.<data>`, the key id being the first 8 hex
 * digits of SHA-256 over the raw key (a fingerprint: it tells keys apart, it reveals nothing usable).
 * An operator rotates by moving the old key to ENCRYPTION_KEY_PREVIOUS (comma-separated for several)
 * and setting a new ENCRYPTION_KEY: new values use the current key, old ones are still opened by the
 * key they name, and `npm run secrets:reencrypt` rewrites what is stored under the current key
 * (docs/security.md). Values from before key ids (`v1.<iv>.<data>`) are tried with every key.
 */
import { fromBase64, randomBytes, toBase64, toHex } from "./encoding";

interface LoadedKey {
  id: string;
  key: CryptoKey;
}

const keys = new Map<string, Promise<LoadedKey>>();

function loadKey(secret: string): Promise<LoadedKey> {
  let key = keys.get(secret);
  if (!key) {
    const raw = fromBase64(secret.trim());
    if (raw.byteLength !== 32) throw new Error("ENCRYPTION_KEY must be 32 bytes, base64-encoded");
    key = (async () => ({
      id: toHex(await crypto.subtle.digest("SHA-256", raw)).slice(0, 8),
      key: await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]),
    }))();
    keys.set(secret, key);
  }
  return key;
}

/** A stored value that none of the configured keys opens (sealed under a key no longer configured). */
export class SecretUnreadable extends Error {
  override readonly name = "SecretUnreadable";
  constructor(readonly keyId: string | null) {
    super(
      keyId ? `Sealed under key ${keyId}, which is not configured` : "No configured key opens this value",
    );
  }
}

/** The settings that hold the keys: the current one and, during a rotation, the earlier ones. */
export type Keyring = Pick<Env, "ENCRYPTION_KEY"> & { ENCRYPTION_KEY_PREVIOUS?: string };

function previousKeys(ring: Keyring): string[] {
  return (ring.ENCRYPTION_KEY_PREVIOUS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The key id ENCRYPTION_KEY has (what `v2` values sealed now carry). */
export async function keyId(secret: string): Promise<string> {
  return (await loadKey(secret)).id;
}

/** Seals `plaintext` under `secret` (the current ENCRYPTION_KEY), naming the key. */
export async function encryptText(secret: string, plaintext: string): Promise<string> {
  const { id, key } = await loadKey(secret);
  const iv = randomBytes(12);
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    key,
    new TextEncoder().encode(plaintext),
  );
  return `v2.${id}.${toBase64(iv)}.${toBase64(sealed)}`;
}

async function open(key: CryptoKey, iv: string, data: string): Promise<string | null> {
  try {
    return new TextDecoder().decode(
      await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(iv) }, key, fromBase64(data)),
    );
  } catch {
    return null;
  }
}

/**
 * Opens a stored value with whichever configured key it names (v1 values: every key in turn).
 * Throws SecretUnreadable when none does, so callers can tell it from a storage failure.
 */
export async function decryptWithKeys(ring: Keyring, sealed: string): Promise<string> {
  const parts = sealed.split(".");
  const candidates = await Promise.all([ring.ENCRYPTION_KEY, ...previousKeys(ring)].map(loadKey));
  if (parts[0] === "v2" && parts.length === 4) {
    const [, id, iv, data] = parts;
    for (const candidate of candidates.filter((k) => k.id === id)) {
      const plain = await open(candidate.key, iv, data);
      if (plain !== null) return plain;
    }
    throw new SecretUnreadable(id);
  }
  if (parts[0] === "v1" && parts.length === 3) {
    for (const candidate of candidates) {
      const plain = await open(candidate.key, parts[1], parts[2]);
      if (plain !== null) return plain;
    }
    throw new SecretUnreadable(null);
  }
  throw new Error("Unknown ciphertext format");
}

/** Opens a value sealed under exactly `secret` (tests and single-key callers). */
export async function decryptText(secret: string, sealed: string): Promise<string> {
  return decryptWithKeys({ ENCRYPTION_KEY: secret }, sealed);
}
