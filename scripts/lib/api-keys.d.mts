// Types for api-keys.mjs, which the CLI (Node) and the tests (workerd, nodejs_compat) both import.
export declare const KEY_PREFIX_LENGTH: number;

export interface NewApiKey {
  /** The key itself, shown once: "rk_" + 256 random bits, base64url. */
  key: string;
  /** "key_" + 16 hex characters. */
  id: string;
  prefix: string;
  /** SHA-256 of the key, lower-case hex: all that is stored. */
  hash: string;
}

export declare function newApiKey(): NewApiKey;
