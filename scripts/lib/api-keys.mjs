// API keys as the Worker expects them (src/app/auth/api-keys.ts): random, stored only as the
// SHA-256 hex of the key, with a short prefix kept so an operator can recognise a key in listings.
import { createHash, randomBytes } from "node:crypto";

export const KEY_PREFIX_LENGTH = 11; // "rk_" + 8 characters: enough to tell keys apart, useless to an attacker

export function newApiKey() {
  const key = `rk_${randomBytes(32).toString("base64url")}`;
  return {
    key,
    id: `key_${randomBytes(8).toString("hex")}`,
    prefix: key.slice(0, KEY_PREFIX_LENGTH),
    hash: createHash("sha256").update(key, "utf8").digest("hex"),
  };
}
