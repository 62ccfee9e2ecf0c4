import { decryptText } from "../core/crypto/aes";
import { isOnDomain } from "../core/publishers/canonical";
import type { LoginCookie } from "../core/cookies";

/** The task's login cookies, decrypted only for the run that uses them. */
export async function loginCookies(env: Env, cookiesEnc: string | null): Promise<LoginCookie[]> {
  if (!cookiesEnc) return [];
  return JSON.parse(await decryptText(env.ENCRYPTION_KEY, cookiesEnc)) as LoginCookie[];
}

/** The cookies a request to `pageUrl` carries: those whose domain is the page's host or a parent of it. */
export function cookiesFor(cookies: readonly LoginCookie[], pageUrl: URL): LoginCookie[] {
  return cookies.filter((cookie) => isOnDomain(pageUrl.hostname, cookie.domain.trim().toLowerCase().replace(/^\./, "")));
}

export function cookieHeader(cookies: readonly LoginCookie[]): string {
  return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
}
