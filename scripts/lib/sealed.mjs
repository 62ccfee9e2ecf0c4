// The at-rest format of src/crypto/aes.ts, for Node scripts (the re-encryption command and its
// tests): `v2.<key id>.<iv>.<data>` (AES-256-GCM, key id = first 8 hex digits of SHA-256 of the raw
// key) and the older `v1.<iv>.<data>`, which names no key.
import { webcrypto } from "node:crypto";

const { subtle } = webcrypto;

/** Imports a base64 ENCRYPTION_KEY; returns its id and the AES key. */
export async function loadKey(secret) {
  const raw = Buffer.from(secret.trim(), "base64");
  if (raw.byteLength !== 32) throw new Error("an encryption key must be 32 bytes, base64-encoded");
  const digest = Buffer.from(await subtle.digest("SHA-256", raw)).toString("hex");
  return {
    id: digest.slice(0, 8),
    key: await subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]),
  };
}

export async function seal(loaded, plaintext) {
  const iv = webcrypto.getRandomValues(new Uint8Array(12));
  const data = await subtle.encrypt({ name: "AES-GCM", iv }, loaded.key, new TextEncoder().encode(plaintext));
  return `v2.${loaded.id}.${Buffer.from(iv).toString("base64")}.${Buffer.from(data).toString("base64")}`;
}

async function tryOpen(loaded, iv, data) {
  try {
    const plain = await subtle.decrypt(
      { name: "AES-GCM", iv: Buffer.from(iv, "base64") },
      loaded.key,
      Buffer.from(data, "base64"),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}

/** The key id a sealed value names, or null (v1, or not a sealed value). */
export function sealedKeyId(sealed) {
  const parts = sealed.split(".");
  return parts[0] === "v2" && parts.length === 4 ? parts[1] : null;
}

/** Opens a sealed value with any of the loaded keys; null when none opens it. */
export async function open(keys, sealed) {
  const parts = sealed.split(".");
  if (parts[0] === "v2" && parts.length === 4) {
    for (const k of keys.filter((k) => k.id === parts[1])) {
      const plain = await tryOpen(k, parts[2], parts[3]);
      if (plain !== null) return plain;
    }
    return null;
  }
  if (parts[0] === "v1" && parts.length === 3) {
    for (const k of keys) {
      const plain = await tryOpen(k, parts[1], parts[2]);
      if (plain !== null) return plain;
    }
  }
  return null;
}
