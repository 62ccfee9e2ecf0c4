import { isOnDomain } from "../core/publishers/canonical";
import { isPrivateHost } from "../core/network/private-address";
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

/**
 * The origin PUBLISHER_ORIGINS maps a host to. The most specific key wins: `play.google.com` is
 * served by its own origin even when `google.com` is mapped too.
 */
export function mappedOrigin(env: Env, host: string): string | null {
  let best: { domain: string; origin: string } | null = null;
  for (const [domain, origin] of Object.entries(settings(env).publisherOrigins)) {
    if (isOnDomain(host, domain) && (!best || domain.length > best.domain.length)) best = { domain, origin };
  }
  return best?.origin ?? null;
}

/**
 * Whether a request to this URL, as it would really be sent, is allowed. An origin the operator
 * configured under PUBLISHER_ORIGINS is trusted whatever its address: the operator chose it (a
 * fixture or demo site on loopback), and the deploy check refuses any PUBLISHER_ORIGINS in the
 * deployed configuration. Every other URL must be on a public host unless ALLOW_PRIVATE_NETWORK is
 * on, so a mapped page that redirects, navigates or fetches elsewhere is judged on where that goes.
 */
export function mayRequest(env: Env, url: URL): boolean {
  const config = settings(env);
  if (config.allowPrivateNetwork) return true;
  if (Object.values(config.publisherOrigins).some((origin) => URL.parse(origin)?.origin === url.origin))
    return true;
  return !isPrivateHost(url.hostname);
}

/** Where a request for this URL really goes: its mapped origin under PUBLISHER_ORIGINS, else itself. */
export function requestUrlFor(env: Env, url: URL): URL {
  const origin = mappedOrigin(env, url.hostname);
  return origin ? new URL(url.pathname + url.search, origin) : new URL(url);
}

export function resolveTarget(env: Env, pageUrl: string | URL): Target {
  const page = new URL(pageUrl);
  if (page.protocol !== "https:" && page.protocol !== "http:") {
    throw permanentError("profile_not_found", `Not a web page URL: ${page.protocol}`);
  }
  const request = requestUrlFor(env, page);
  if (!mayRequest(env, request)) {
    throw permanentError("profile_not_found", `Refusing to request a private host: ${request.hostname}`);
  }
  return { pageUrl: page, requestUrl: request };
}

/**
 * The publisher-side form of a URL the request side produced (a redirect, the browser's final URL):
 * a URL on the request origin of `target` goes back to the page's own origin.
 */
export function publisherSideUrl(target: Target, url: URL): URL {
  if (url.origin !== target.requestUrl.origin || target.requestUrl.origin === target.pageUrl.origin)
    return url;
  return new URL(url.pathname + url.search, target.pageUrl.origin);
}
