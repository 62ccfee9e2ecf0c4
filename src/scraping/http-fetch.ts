import { settings } from "../settings";
import { cookieHeader, cookiesFor, type LoginCookie } from "./cookies";
import { permanentError, ScrapeError, transientError } from "./errors";
import { errorForStatus } from "./response-status";
import { publisherSideUrl, resolveTarget } from "./target";

export interface LoadOptions {
  cookies: readonly LoginCookie[];
  timeoutMs: number;
}

/** A page's HTML and its URL as the publisher addresses it (after redirects). */
export interface LoadedPage {
  pageUrl: URL;
  html: string;
}

const MAX_REDIRECTS = 5;

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/**
 * Loads a page with a plain HTTP GET, for pages that need no JavaScript. Redirects are followed
 * by hand so every hop goes through PUBLISHER_ORIGINS and the private-network check, and carries
 * only the cookies of its own host.
 */
export async function fetchPage(env: Env, pageUrl: URL | string, options: LoadOptions): Promise<LoadedPage> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let target = resolveTarget(env, pageUrl);
  try {
    for (let hop = 0; ; hop++) {
      const headers = new Headers({
        Accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8",
        "Accept-Language": "en;q=0.9,*;q=0.5",
        "User-Agent": `Mozilla/5.0 (compatible; ${settings(env).serviceName}/1.0)`,
      });
      const cookies = cookiesFor(options.cookies, target.pageUrl);
      if (cookies.length) headers.set("Cookie", cookieHeader(cookies));
      const response = await fetch(target.requestUrl, { headers, redirect: "manual", signal });
      const location = response.headers.get("Location");
      if (isRedirect(response.status) && location) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS) throw permanentError("publisher_error", "Too many redirects");
        target = resolveTarget(env, publisherSideUrl(target, new URL(location, target.requestUrl)));
        continue;
      }
      const html = await response.text();
      const error = await errorForStatus(response.status, response.headers, html);
      if (error) throw error;
      return { pageUrl: target.pageUrl, html };
    }
  } catch (err) {
    if (err instanceof ScrapeError) throw err;
    if (signal.aborted) throw transientError("timeout", `Page did not load within ${options.timeoutMs} ms`);
    throw transientError("publisher_error", `Could not reach the publisher: ${err instanceof Error ? err.message : String(err)}`);
  }
}
