import { isOnDomain } from "../../core/publishers/canonical";

/**
 * Cookies the publisher sets during one run (Set-Cookie on any answer), sent back on the run's later
 * requests to matching hosts: Booking's CSRF flow, Glassdoor's token flow and Google's consent
 * cookie depend on it. It lives in memory for one run only and is never stored or logged. Bounded:
 * a publisher cannot grow it past MAX_COOKIES or MAX_VALUE_CHARS per value.
 */
export interface JarCookie {
  name: string;
  value: string;
  /** Lower-case host (host-only cookie) or domain without the leading dot. */
  domain: string;
  hostOnly: boolean;
  path: string;
  /** Milliseconds since the epoch, or null for a session cookie. */
  expires: number | null;
}

const MAX_COOKIES = 50;
const MAX_VALUE_CHARS = 4096;

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/";
}

/** RFC 6265 default-path: the request path up to its last "/". */
function defaultPath(url: URL): string {
  const path = url.pathname;
  const last = path.lastIndexOf("/");
  return last <= 0 ? "/" : path.slice(0, last);
}

export class CookieJar {
  #cookies: JarCookie[] = [];

  /** Takes the Set-Cookie headers of an answer for `url` (the publisher-side URL). */
  store(url: URL, headers: Headers): void {
    for (const line of headers.getSetCookie()) this.#storeOne(url, line);
  }

  #storeOne(url: URL, line: string): void {
    const [pair, ...attributes] = line.split(";");
    const eq = pair.indexOf("=");
    if (eq <= 0) return;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (!name || value.length > MAX_VALUE_CHARS) return;
    const host = url.hostname.toLowerCase();
    let domain = host;
    let hostOnly = true;
    let path = defaultPath(url);
    let expires: number | null = null;
    for (const attribute of attributes) {
      const at = attribute.indexOf("=");
      const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
      const val = at < 0 ? "" : attribute.slice(at + 1).trim();
      if (key === "domain" && val) {
        const wanted = val.toLowerCase().replace(/^\./, "");
        // A cookie for another site (or a public suffix above the host) is refused, as browsers do.
        if (!isOnDomain(host, wanted) || !wanted.includes(".")) return;
        domain = wanted;
        hostOnly = false;
      } else if (key === "path" && val.startsWith("/")) path = val;
      else if (key === "max-age" && /^-?\d+$/.test(val)) expires = Date.now() + Number(val) * 1000;
      else if (key === "expires" && expires === null) {
        const at = Date.parse(val);
        if (Number.isFinite(at)) expires = at;
      }
    }
    this.#cookies = this.#cookies.filter((c) => !(c.name === name && c.domain === domain && c.path === path));
    if (expires !== null && expires <= Date.now()) return;
    this.#cookies.push({ name, value, domain, hostOnly, path, expires });
    if (this.#cookies.length > MAX_COOKIES) this.#cookies.shift();
  }

  /** The cookies for a request to `url`, as name/value pairs (longest path first, as RFC 6265 orders them). */
  cookiesFor(url: URL): { name: string; value: string }[] {
    const host = url.hostname.toLowerCase();
    const now = Date.now();
    return this.#cookies
      .filter(
        (c) =>
          (c.expires === null || c.expires > now) &&
          (c.hostOnly ? c.domain === host : isOnDomain(host, c.domain)) &&
          pathMatches(url.pathname, c.path),
      )
      .sort((a, b) => b.path.length - a.path.length)
      .map(({ name, value }) => ({ name, value }));
  }

  get size(): number {
    return this.#cookies.length;
  }

  /** The live cookies, to carry the jar into the task's next run (encrypted by the caller). */
  snapshot(): JarCookie[] {
    const now = Date.now();
    return this.#cookies.filter((c) => c.expires === null || c.expires > now).map((c) => ({ ...c }));
  }

  /** Takes back a snapshot; anything malformed in it is skipped, and the bound still holds. */
  restore(cookies: unknown): void {
    if (!Array.isArray(cookies)) return;
    for (const c of cookies.slice(-MAX_COOKIES)) {
      if (!c || typeof c !== "object") continue;
      const { name, value, domain, hostOnly, path, expires } = c as Record<string, unknown>;
      if (
        typeof name !== "string" ||
        typeof value !== "string" ||
        typeof domain !== "string" ||
        typeof path !== "string"
      )
        continue;
      if (value.length > MAX_VALUE_CHARS || (expires !== null && typeof expires !== "number")) continue;
      this.#cookies = this.#cookies.filter(
        (o) => !(o.name === name && o.domain === domain && o.path === path),
      );
      this.#cookies.push({ name, value, domain, hostOnly: hostOnly === true, path, expires: expires });
    }
    while (this.#cookies.length > MAX_COOKIES) this.#cookies.shift();
  }
}
