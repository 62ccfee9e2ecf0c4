import { isOnDomain } from "../domain/publishers/canonical";
import { isPrivateHost } from "../domain/network/private-address";
import { settings } from "../settings";
import { permanentError } from "./errors";

/**
 * A page as the publisher addresses it (`pageUrl`, used for extraction, review links and the
 * cursor) and the URL the request really goes to. They differ only under PUBLISHER_ORIGINS, which
 * sends every request for a publisher domain (or a subdomain) to another origin with the same path
 * and query, so local development and tests can serve publisher sites on loopback.
 */
export interface Target {
  pageUrl: URL;
  requestUrl: URL;
}

export function mappedOrigin(env: Env, host: string): string | null {
  for (const [domain, origin] of Object.entries(settings(env).publisherOrigins)) {
    if (isOnDomain(host, domain)) return origin;
  }
  return null;
}

/** Whether a request to this host is allowed (private networks only when ALLOW_PRIVATE_NETWORK). */
export function mayRequestHost(env: Env, hostname: string): boolean {
  return settings(env).allowPrivateNetwork || !isPrivateHost(hostname);
}

export function resolveTarget(env: Env, pageUrl: string | URL): Target {
  const page = new URL(pageUrl);
  if (page.protocol !== "https:" && page.protocol !== "http:") {
    throw permanentError("profile_not_found", `Not a web page URL: ${page.protocol}`);
  }
  const origin = mappedOrigin(env, page.hostname);
  const request = origin ? new URL(page.pathname + page.search, origin) : new URL(page);
  if (!mayRequestHost(env, request.hostname)) {
    throw permanentError("profile_not_found", `Refusing to request a private host: ${request.hostname}`);
  }
  return { pageUrl: page, requestUrl: request };
}

/**
 * The publisher-side form of a URL the request side produced (a redirect, the browser's final URL):
 * a URL on the request origin of `target` goes back to the page's own origin.
 */
export function publisherSideUrl(target: Target, url: URL): URL {
  if (url.origin !== target.requestUrl.origin || target.requestUrl.origin === target.pageUrl.origin) return url;
  return new URL(url.pathname + url.search, target.pageUrl.origin);
}
