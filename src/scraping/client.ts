import { settings } from "../settings";
import { readAtMost } from "../streams";
import { PageRenderer } from "./browser";
import type { LoginCookie } from "../core/cookies";
import { cookieHeader, cookiesFor } from "./cookies";
import { permanentError, ScrapeError, transientError } from "./errors";
import { errorForStatus } from "./response-status";
import { publisherSideUrl, resolveTarget, type Target } from "./target";

/** Longest a single request or page render may take. */
const PAGE_TIMEOUT_MS = 30_000;

/** What a publisher answered, as the adapter sees it: its URL on the publisher side, after redirects. */
export interface FetchedPage {
  url: URL;
  status: number;
  headers: Headers;
  /** The body as text (HTML, JSON, or whatever the publisher sent). */
  text: string;
  /** True when the page was rendered in the browser. */
  rendered: boolean;
}

/**
 * A check an adapter runs on every 2xx answer: block, captcha, consent and login pages are served
 * with status 200, and only the adapter knows what its real pages look like. Returns the error to
 * fail (or retry) with, or null when the page is usable.
 */
export type PageInspector = (page: FetchedPage) => ScrapeError | null | Promise<ScrapeError | null>;

export interface RequestOptions {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** A JSON body (sent with Content-Type: application/json). */
  json?: unknown;
  /** A form body (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  /** A raw body with its own Content-Type header. */
  body?: string;
}

/**
 * Thrown when the task's time budget is spent. The client also remembers it (`timeUp`), so an
 * adapter that catches everything cannot hide it: the pipeline checks the flag after every page.
 */
export class BudgetExhausted extends ScrapeError {
  constructor() {
    super("timeout", false, "The task's time budget is spent");
    this.name = "BudgetExhausted";
  }
}

const MAX_REDIRECTS = 5;
const XSSI_PREFIX = /^\s*\)\]\}'[^\n]*\n?/;

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** Reads a body up to `maxBytes`, refusing a declared or actual larger one without buffering it. */
async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw permanentError("publisher_error", `Page is larger than ${maxBytes} bytes (Content-Length ${declared})`);
  }
  const bytes = await readAtMost(response.body, maxBytes);
  if (!bytes) throw permanentError("publisher_error", `Page is larger than ${maxBytes} bytes`);
  return new TextDecoder().decode(bytes);
}

export interface ClientOptions {
  cookies: readonly LoginCookie[];
  /** Milliseconds since the epoch when the task's time budget ends. */
  deadline: number;
  /** Longest one request or render may take (the plan's page timeout); default PAGE_TIMEOUT_MS. */
  pageTimeoutMs?: number;
  inspect?: PageInspector;
}

/**
 * The one way an adapter reaches a publisher, by plain HTTP (GET or POST, HTML or JSON) or through
 * the browser. Every request, redirects included, goes through PUBLISHER_ORIGINS (with the intended
 * host in X-Forwarded-Host), the private-network check, the cookies of its own host only, the body
 * cap, the page timeout capped by the task's remaining time, and the adapter's page inspector.
 */
export class PublisherClient {
  #timeUp = false;
  readonly renderer: PageRenderer;

  constructor(
    private readonly env: Env,
    private readonly options: ClientOptions,
  ) {
    this.renderer = new PageRenderer(env);
  }

  /** True once a request found the time budget spent (whether or not the adapter let it through). */
  get timeUp(): boolean {
    return this.#timeUp || Date.now() >= this.options.deadline;
  }

  /** How long the next request may take: the page timeout, capped by the task's remaining time. */
  timeoutMs(): number {
    const left = this.options.deadline - Date.now();
    if (left <= 0) {
      this.#timeUp = true;
      throw new BudgetExhausted();
    }
    return Math.min(this.options.pageTimeoutMs ?? PAGE_TIMEOUT_MS, left);
  }

  /** A plain HTTP request; redirects are followed by hand so every hop is checked. */
  async request(url: URL | string, options: RequestOptions = {}): Promise<FetchedPage> {
    const timeoutMs = this.timeoutMs();
    const signal = AbortSignal.timeout(timeoutMs);
    const config = settings(this.env);
    let target = resolveTarget(this.env, url);
    let method = options.method ?? "GET";
    let body: string | undefined =
      options.json !== undefined ? JSON.stringify(options.json) : options.form ? new URLSearchParams(options.form).toString() : options.body;
    try {
      for (let hop = 0; ; hop++) {
        const headers = this.#headers(target, options, config.serviceName);
        if (body === undefined) {
          headers.delete("Content-Type");
        }
        const response = await fetch(target.requestUrl, { method, headers, body, redirect: "manual", signal });
        const location = response.headers.get("Location");
        if (isRedirect(response.status) && location) {
          await response.body?.cancel();
          if (hop >= MAX_REDIRECTS) throw permanentError("publisher_error", "Too many redirects");
          target = resolveTarget(this.env, publisherSideUrl(target, new URL(location, target.requestUrl)));
          if (response.status !== 307 && response.status !== 308) {
            method = "GET";
            body = undefined;
          }
          continue;
        }
        const text = await readCapped(response, config.maxPageBytes);
        const error = await errorForStatus(response.status, response.headers, text);
        if (error) throw error;
        return await this.#inspected({ url: target.pageUrl, status: response.status, headers: response.headers, text, rendered: false });
      }
    } catch (err) {
      if (err instanceof ScrapeError) throw err;
      if (signal.aborted) throw transientError("timeout", `Publisher did not answer within ${timeoutMs} ms`);
      throw transientError("publisher_error", `Could not reach the publisher: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** GET (or POST) answered with JSON; an XSSI guard such as Google's `)]}'` line is removed first. */
  async json(url: URL | string, options: RequestOptions = {}): Promise<{ url: URL; data: unknown }> {
    const page = await this.request(url, { ...options, headers: { Accept: "application/json", ...options.headers } });
    try {
      return { url: page.url, data: JSON.parse(page.text.replace(XSSI_PREFIX, "")) };
    } catch {
      throw permanentError("publisher_error", `Expected JSON from ${page.url.pathname}, got ${page.text.slice(0, 40).replace(/\s+/g, " ")}…`);
    }
  }

  /** Loads a page in the browser (JavaScript runs), through the same checks, and returns its HTML. */
  async render(url: URL | string): Promise<FetchedPage> {
    const page = await this.renderer.render(url, { cookies: this.options.cookies, timeoutMs: this.timeoutMs(), maxBytes: settings(this.env).maxPageBytes });
    return this.#inspected({ ...page, rendered: true });
  }

  /**
   * True when the task carries login cookies for this URL's host: an adapter may then take a route
   * that only serves signed-in visitors. The cookies themselves never leave the client.
   */
  hasCookiesFor(url: URL | string): boolean {
    return cookiesFor(this.options.cookies, new URL(url)).length > 0;
  }

  async close(): Promise<void> {
    await this.renderer.close();
  }

  #headers(target: Target, options: RequestOptions, serviceName: string): Headers {
    const headers = new Headers({
      Accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8",
      "Accept-Language": "en;q=0.9,*;q=0.5",
      "User-Agent": `Mozilla/5.0 (compatible; ${serviceName}/1.0)`,
    });
    if (options.json !== undefined) headers.set("Content-Type", "application/json");
    else if (options.form) headers.set("Content-Type", "application/x-www-form-urlencoded");
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    // Under PUBLISHER_ORIGINS the fixture origin learns which host the request was meant for.
    if (target.requestUrl.host !== target.pageUrl.host) headers.set("X-Forwarded-Host", target.pageUrl.host);
    // The adapter's own cookies (Tripadvisor's TAUnique) travel together with the task's login
    // cookies; a login cookie of the same name wins, since it belongs to the signed-in session.
    const cookies = cookiesFor(this.options.cookies, target.pageUrl);
    if (cookies.length) headers.set("Cookie", mergeCookieHeaders(options.headers?.Cookie ?? options.headers?.cookie, cookieHeader(cookies)));
    return headers;
  }

  async #inspected(page: FetchedPage): Promise<FetchedPage> {
    const error = this.options.inspect ? await this.options.inspect(page) : null;
    if (error) throw error;
    return page;
  }
}

/**
 * One Cookie header from an adapter's own cookies and the login cookies: every cookie of both, the
 * login one kept when both name the same cookie.
 */
export function mergeCookieHeaders(own: string | undefined, login: string): string {
  if (!own?.trim()) return login;
  const loginNames = new Set(login.split(";").map((pair) => pair.split("=", 1)[0].trim()));
  const kept = own
    .split(";")
    .map((pair) => pair.trim())
    .filter((pair) => pair && !loginNames.has(pair.split("=", 1)[0].trim()));
  return [...kept, login].filter(Boolean).join("; ");
}
