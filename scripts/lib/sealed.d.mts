// Types for scripts/lib/sealed.mjs (the at-rest format of src/crypto/aes.ts, for Node scripts and their tests).
export interface LoadedKey {
  /** First 8 hex digits of SHA-256 over the raw key. */
  id: string;
  key: CryptoKey;
}
export declare function loadKey(secret: string): Promise<LoadedKey>;
export declare function seal(loaded: LoadedKey, plaintext: string): Promise<string>;
export declare function sealedKeyId(sealed: string): string | null;
/** The plaintext, or null when none of the keys opens the value. */
export declare function open(keys: LoadedKey[], sealed: string): Promise<string | null>;
