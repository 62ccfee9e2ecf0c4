import { decryptWithKeys, SecretUnreadable } from "../core/crypto/aes";
import { permanentError } from "./errors";
import { isOnDomain } from "../core/publishers/canonical";
import type { LoginCookie } from "../core/cookies";

/**
 * The task's login cookies, decrypted only for the run that uses them. Cookies no configured key
 * opens fail the task with `secret_unreadable` (a permanent failure: no retry can read them).
 */
export async function loginCookies(env: Env, cookiesEnc: string | null): Promise<LoginCookie[]> {
  if (!cookiesEnc) return [];
  try {
    return JSON.parse(await decryptWithKeys(env, cookiesEnc)) as LoginCookie[];
  } catch (err) {
    if (err instanceof SecretUnreadable)
      throw permanentError(
        "secret_unreadable",
        "Login cookies are sealed under a key that is not configured",
      );
    throw err;
  }
}

/** The cookies a request to `pageUrl` carries: those whose domain is the page's host or a parent of it. */
export function cookiesFor(cookies: readonly LoginCookie[], pageUrl: URL): LoginCookie[] {
  return cookies.filter((cookie) =>
    isOnDomain(pageUrl.hostname, cookie.domain.trim().toLowerCase().replace(/^\./, "")),
  );
}

export function cookieHeader(cookies: readonly LoginCookie[]): string {
  return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
}
