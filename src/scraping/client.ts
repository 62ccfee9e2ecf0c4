import type { RequestCounts } from "../core/tasks/task-views";
import { log } from "../log";
import { settings } from "../settings";
import { readAtMost } from "../streams";
import { BrowserBusy, PageRenderer, type PageAnswer } from "./browser";
import type { LoginCookie } from "../core/cookies";
import { cookiesFor } from "./cookies";
import { permanentError, ScrapeError, transientError } from "./errors";
import { errorForStatus } from "./response-status";
import { routesFor } from "../core/fetch-routes";
import { CookieJar, type JarCookie } from "./routes/cookie-jar";
import { createRoutes, type Route } from "./routes";
import { mayRequest, publisherSideUrl, resolveTarget } from "./target";

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
  /** A render with `readerSteps`: the JSON answers the page's own scripts loaded. */
  answers?: PageAnswer[];
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
    throw permanentError(
      "publisher_error",
      `Page is larger than ${maxBytes} bytes (Content-Length ${declared})`,
    );
  }
  const bytes = await readAtMost(response.body, maxBytes);
  if (!bytes) throw permanentError("publisher_error", `Page is larger than ${maxBytes} bytes`);
  return new TextDecoder().decode(bytes);
}

export interface ClientOptions {
  /** The task's publisher: picks its FETCH_ROUTES list (the "*" list when it has none). */
  publisherKey?: string;
  /** The task's account: its share of the browser sessions. */
  accountId?: string;
  cookies: readonly LoginCookie[];
  /** Milliseconds since the epoch when the task's time budget ends. */
  deadline: number;
  /** Longest one request or render may take (the plan's page timeout); default PAGE_TIMEOUT_MS. */
  pageTimeoutMs?: number;
  inspect?: PageInspector;
}

/**
 * The one way an adapter reaches a publisher, by plain HTTP (GET or POST, HTML or JSON) or through
 * the browser. A request goes by the publisher's routes (FETCH_ROUTES: direct, browser, provider)
 * in order, the next one taken when a route answers `blocked`; a route found blocked is skipped for
 * the rest of the run. Every request, redirects included, goes through PUBLISHER_ORIGINS (with the
 * intended host in X-Forwarded-Host), the private-network check, the cookies of its own host only
 * (login cookies and those the publisher set during the run), the body cap, the page timeout
 * capped by the task's remaining time, and the adapter's page inspector. Requests are counted per
 * route kind for the task's `requests` counts.
 */
export class PublisherClient {
  #timeUp = false;
  readonly renderer: PageRenderer;
  readonly #routes: Route[];
  /** The first route not found blocked in this run. */
  #routeIndex = 0;
  readonly #jar = new CookieJar();
  readonly #counts: RequestCounts = { direct: 0, browser: 0, provider: 0 };
  #unsaved: RequestCounts = { direct: 0, browser: 0, provider: 0 };

  constructor(
    private readonly env: Env,
    private readonly options: ClientOptions,
  ) {
    this.renderer = new PageRenderer(env, options.accountId);
    const config = settings(env);
    this.#routes = createRoutes(routesFor(config.fetchRoutes, options.publisherKey ?? "*"), {
      env,
      publisherKey: options.publisherKey ?? "*",
      renderer: this.renderer,
      loginCookies: options.cookies,
      maxPageBytes: config.maxPageBytes,
    });
  }

  /** The cookies the publisher set in this run, for the task's next run (see saveJar in app/scrape). */
  jarSnapshot(): JarCookie[] {
    return this.#jar.snapshot();
  }

  /** Takes back the cookies an earlier run of the task kept. */
  restoreJar(cookies: unknown): void {
    this.#jar.restore(cookies);
  }

  /** Requests made so far in this run, by route kind. */
  get requestCounts(): RequestCounts {
    return { ...this.#counts };
  }

  /** The requests counted since the last call (what is not yet added to the task's counts). */
  takeRequestCounts(): RequestCounts {
    const taken = this.#unsaved;
    this.#unsaved = { direct: 0, browser: 0, provider: 0 };
    return taken;
  }

  #count(kind: keyof RequestCounts): void {
    this.#counts[kind]++;
    this.#unsaved[kind]++;
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

  /** A request by the publisher's routes, falling through to the next route on `blocked`. */
  async request(url: URL | string, options: RequestOptions = {}): Promise<FetchedPage> {
    for (let index = this.#routeIndex; ; index++) {
      const route = this.#routes[index];
      try {
        return await this.#requestVia(route, url, options);
      } catch (err) {
        const next = this.#routes[index + 1];
        // A busy browser is no verdict on the publisher: the run hands the task on instead.
        if (
          !next ||
          !(err instanceof ScrapeError) ||
          err.reason !== "blocked" ||
          err instanceof BrowserBusy ||
          this.timeUp
        )
          throw err;
        log("warn", "route blocked, trying the next route", {
          publisher: this.options.publisherKey,
          route: route.name,
          next: next.name,
          detail: err.message,
        });
        this.#routeIndex = index + 1;
      }
    }
  }

  /** One request by one route; redirects are followed by hand so every hop is checked. */
  async #requestVia(route: Route, url: URL | string, options: RequestOptions): Promise<FetchedPage> {
    const timeoutMs = this.timeoutMs();
    const signal = AbortSignal.timeout(timeoutMs);
    const config = settings(this.env);
    let target = resolveTarget(this.env, url);
    let method = options.method ?? "GET";
    let body: string | undefined =
      options.json !== undefined
        ? JSON.stringify(options.json)
        : options.form
          ? new URLSearchParams(options.form).toString()
          : options.body;
    const api =
      options.json !== undefined ||
      options.form !== undefined ||
      method === "POST" ||
      /json/i.test(headerValue(options.headers, "Accept") ?? "");
    try {
      for (let hop = 0; ; hop++) {
        const headers = adapterHeaders(options);
        if (body === undefined) headers.delete("Content-Type");
        this.#count(route.kind);
        const answer = await route.send({
          target,
          method,
          headers,
          body,
          api,
          cookies: this.#cookiesFor(target.pageUrl, headerValue(options.headers, "Cookie")),
          signal,
          timeoutMs,
          // A provider wraps the page (Zyte in base64, ScrapFly in JSON): its envelope may be larger.
          read: (response) =>
            readCapped(
              response,
              route.kind === "provider" ? envelopeCap(config.maxPageBytes) : config.maxPageBytes,
            ),
        });
        if (
          route.kind === "provider" &&
          new TextEncoder().encode(answer.text).byteLength > config.maxPageBytes
        ) {
          throw permanentError("publisher_error", `Page is larger than ${config.maxPageBytes} bytes`);
        }
        const answerUrl = publisherSideUrl(target, answer.url);
        // A route that followed redirects itself (the browser, a provider) reports where it ended:
        // judged by the same rules as a hop followed here.
        if (
          answerUrl.href !== target.pageUrl.href &&
          !mayRequest(this.env, route.kind === "provider" ? answerUrl : answer.url)
        ) {
          throw permanentError(
            "profile_not_found",
            `Refusing to request a private host: ${answerUrl.hostname}`,
          );
        }
        this.#jar.store(answerUrl, answer.headers);
        const location = answer.headers.get("Location");
        if (isRedirect(answer.status) && location) {
          if (hop >= MAX_REDIRECTS) throw permanentError("publisher_error", "Too many redirects");
          target = resolveTarget(this.env, publisherSideUrl(target, new URL(location, answer.url)));
          if (answer.status !== 307 && answer.status !== 308) {
            method = "GET";
            body = undefined;
          }
          continue;
        }
        const error = await errorForStatus(answer.status, answer.headers, answer.text);
        if (error) throw error;
        return await this.#inspected({
          url: answerUrl,
          status: answer.status,
          headers: answer.headers,
          text: answer.text,
          rendered: route.kind === "browser",
        });
      }
    } catch (err) {
      if (err instanceof ScrapeError) throw err;
      if (signal.aborted) throw transientError("timeout", `Publisher did not answer within ${timeoutMs} ms`);
      throw transientError(
        "publisher_error",
        `Could not reach the publisher: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  /**
   * The cookies of a request: the adapter's own (a Cookie header it set, e.g. Tripadvisor's
   * TAUnique), the task's login cookies of the host, then those the publisher set in this run. A
   * login cookie wins a name over the adapter's (it belongs to the signed-in session), and both win
   * over the jar's.
   */
  #cookiesFor(pageUrl: URL, own: string | undefined): { name: string; value: string }[] {
    const login = cookiesFor(this.options.cookies, pageUrl).map(({ name, value }) => ({ name, value }));
    const loginNames = new Set(login.map((c) => c.name));
    const adapter = cookiePairs(own).filter((c) => !loginNames.has(c.name));
    const taken = new Set([...loginNames, ...adapter.map((c) => c.name)]);
    return [...adapter, ...login, ...this.#jar.cookiesFor(pageUrl).filter((c) => !taken.has(c.name))];
  }

  /** GET (or POST) answered with JSON; an XSSI guard such as Google's `)]}'` line is removed first. */
  async json(url: URL | string, options: RequestOptions = {}): Promise<{ url: URL; data: unknown }> {
    const page = await this.request(url, {
      ...options,
      headers: { Accept: "application/json", ...options.headers },
    });
    try {
      return { url: page.url, data: JSON.parse(page.text.replace(XSSI_PREFIX, "")) };
    } catch {
      throw permanentError(
        "publisher_error",
        `Expected JSON from ${page.url.pathname}, got ${page.text.slice(0, 40).replace(/\s+/g, " ")}…`,
      );
    }
  }

  /**
   * Loads a page in the browser (JavaScript runs), through the same checks, and returns its HTML.
   * `readerSteps` also keeps the JSON answers the page loads and reads it as a reader would
   * (scrolling, pressing "more reviews"), that many steps at most (RenderOptions.readerSteps).
   */
  async render(url: URL | string, options: { readerSteps?: number } = {}): Promise<FetchedPage> {
    this.#count("browser");
    const page = await this.renderer.render(url, {
      cookies: this.options.cookies,
      timeoutMs: this.timeoutMs(),
      maxBytes: settings(this.env).maxPageBytes,
      ...(options.readerSteps ? { readerSteps: options.readerSteps } : {}),
    });
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
    await Promise.all(
      this.#routes.map((route) => (route.close ? route.close().catch(() => {}) : Promise.resolve())),
    );
    await this.renderer.close();
  }

  async #inspected(page: FetchedPage): Promise<FetchedPage> {
    const error = this.options.inspect ? await this.options.inspect(page) : null;
    if (error) throw error;
    return page;
  }
}

/** The adapter's own headers: its Content-Type for the body kind, then whatever it set (its cookies go with the others). */
function adapterHeaders(options: RequestOptions): Headers {
  const headers = new Headers();
  if (options.json !== undefined) headers.set("Content-Type", "application/json");
  else if (options.form) headers.set("Content-Type", "application/x-www-form-urlencoded");
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  headers.delete("Cookie");
  return headers;
}

/** A Cookie header's name=value pairs. */
function cookiePairs(header: string | undefined): { name: string; value: string }[] {
  return (header ?? "")
    .split(";")
    .map((pair) => pair.trim())
    .filter((pair) => pair.includes("=") && pair.split("=", 1)[0].trim())
    .map((pair) => {
      const eq = pair.indexOf("=");
      return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim() };
    });
}

function headerValue(headers: Record<string, string> | undefined, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === wanted)?.[1];
}

/** The largest provider answer read for a page of at most `maxPageBytes`: base64 plus the envelope. */
function envelopeCap(maxPageBytes: number): number {
  return Math.ceil((maxPageBytes * 4) / 3) + 64 * 1024;
}
