import puppeteer, { TimeoutError, type Browser, type BrowserContext, type HTTPRequest, type ResourceType } from "@cloudflare/puppeteer";
import { settings } from "../settings";
import { browserGate } from "./browser-gate";
import type { LoginCookie } from "../core/cookies";
import { cookiesFor } from "./cookies";
import { permanentError, ScrapeError, transientError } from "./errors";
import { errorForStatus } from "./response-status";
import { mayRequest, publisherSideUrl, requestUrlFor, resolveTarget } from "./target";

export interface RenderOptions {
  cookies: readonly LoginCookie[];
  timeoutMs: number;
  /** Largest HTML the page may grow to before it is refused. */
  maxBytes: number;
}

export interface RenderedPage {
  url: URL;
  status: number;
  headers: Headers;
  text: string;
}

/** URL schemes a rendered page may load without a host. */
const HOSTLESS_SCHEMES = new Set(["data:", "blob:", "about:"]);

/**
 * Runs before any script of a rendered page: a review page needs none of these, and each opens a
 * channel that request interception does not see (WebSocket, WebRTC) or runs code outside the page
 * (workers). Frames get the same treatment.
 */
const DISABLE_SIDE_CHANNELS = `(() => {
  for (const name of ["WebSocket", "WebTransport", "RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel", "Worker", "SharedWorker", "EventSource"]) {
    try { Object.defineProperty(globalThis, name, { value: undefined, configurable: false, writable: false }); } catch {}
  }
  try { Object.defineProperty(navigator, "serviceWorker", { value: undefined, configurable: false }); } catch {}
})();`;

/** Bytes a review page never needs; skipping them keeps renders fast and sessions cheap. */
const BLOCKED_RESOURCES = new Set<ResourceType>(["image", "font", "media"]);

/** How long an idle session stays open for the next run to reuse (Browser Rendering maximum: 10 min). */
const KEEP_ALIVE_MS = 120_000;

/** After `load`, how long the page may keep fetching before its HTML is read (scripts that fetch reviews). */
const SETTLE_MS = 3_000;
const SETTLE_IDLE_MS = 250;

/** A slot is held at most this long; a crashed run's slot frees itself (a session lives at most 10 min). */
const SLOT_TTL_MS = 10 * 60_000;

/**
 * Every browser slot is taken. Not a failure of the task: the run hands the task to a later run
 * (a fresh message after the delay), so waiting costs neither a queue attempt nor a consumer slot.
 */
export class BrowserBusy extends ScrapeError {
  constructor(retryInSeconds: number) {
    super("blocked", true, "All browser sessions are in use", retryInSeconds);
    this.name = "BrowserBusy";
  }
}

/** Sessions tried before launching a new one. */
const MAX_CONNECT_ATTEMPTS = 3;

/**
 * Browser Rendering sessions are limited (concurrency and launches per minute), so an open session
 * left by an earlier run is reused before a new one is launched. Free sessions come first, then
 * those listed as connected, oldest connection first: the listing can lag behind a disconnect
 * (and the local emulation never clears it). A session another worker really holds refuses the
 * connection, and the next one is tried.
 */
async function acquireBrowser(env: Env): Promise<Browser> {
  const sessions = await puppeteer.sessions(env.BROWSER);
  const candidates = [...sessions]
    .sort(
      (a, b) => Number(Boolean(a.connectionId)) - Number(Boolean(b.connectionId)) || Number(a.connectionStartTime ?? 0) - Number(b.connectionStartTime ?? 0),
    )
    .slice(0, MAX_CONNECT_ATTEMPTS);
  for (const session of candidates) {
    try {
      return await puppeteer.connect(env.BROWSER, session.sessionId);
    } catch {
      // Held by another worker, or gone; try the next one.
    }
  }
  return puppeteer.launch(env.BROWSER, { keep_alive: KEEP_ALIVE_MS });
}

/**
 * The one place that drives a browser. A renderer opens its session on first use and gives each
 * task its own browser context, so one task's login cookies never reach another task's pages.
 * `close()` closes the context and disconnects, leaving the session for the next run.
 */
export class PageRenderer {
  #session: Promise<{ browser: Browser; context: BrowserContext }> | null = null;

  constructor(private readonly env: Env) {}

  /** This renderer's hold on one of the BROWSER_SESSIONS_MAX slots, while its session is open. */
  readonly #holder = crypto.randomUUID();

  #open(): Promise<{ browser: Browser; context: BrowserContext }> {
    this.#session ??= (async () => {
      const slot = await browserGate(this.env).acquire(this.#holder, settings(this.env).browserSessionsMax, SLOT_TTL_MS);
      if (!slot.granted) throw new BrowserBusy(slot.retryInSeconds);
      let browser: Browser;
      try {
        browser = await acquireBrowser(this.env);
      } catch (err) {
        await this.#releaseSlot();
        throw err;
      }
      try {
        return { browser, context: await browser.createBrowserContext() };
      } catch (err) {
        await browser.disconnect().catch(() => {});
        await this.#releaseSlot();
        throw err;
      }
    })();
    // A failed open is not kept: the next page may try again.
    this.#session.catch(() => (this.#session = null));
    return this.#session;
  }

  async #releaseSlot(): Promise<void> {
    await browserGate(this.env)
      .release(this.#holder)
      .catch(() => {});
  }

  /**
   * Every request of a rendered page, each redirect hop included (the browser reports a hop as a new
   * request): images, fonts and media are dropped; URLs without a host other than data/blob/about
   * are refused; requests to a host under PUBLISHER_ORIGINS go to its mapped origin, with the
   * intended host in X-Forwarded-Host; and what is left is judged on the URL it would really reach
   * (`mayRequest`), so a page cannot redirect, navigate, frame or fetch its way to a private host.
   * Returns the host refused by that last check, or null.
   */
  #intercept(request: HTTPRequest): string | null {
    if (request.isInterceptResolutionHandled()) return null;
    const url = URL.parse(request.url());
    // A navigation refused as "blocked" would commit Chrome's error page in place of the page being
    // read; "aborted" cancels it and leaves the page as it was.
    const drop = () => void request.abort(request.isNavigationRequest() ? "aborted" : "blockedbyclient").catch(() => {});
    if (BLOCKED_RESOURCES.has(request.resourceType())) {
      drop();
      return null;
    }
    if (!url || !url.hostname) {
      if (url && HOSTLESS_SCHEMES.has(url.protocol)) void request.continue().catch(() => {});
      else drop();
      return null;
    }
    const destination = requestUrlFor(this.env, url);
    if (!mayRequest(this.env, destination)) {
      drop();
      return destination.hostname;
    }
    if (destination.host === url.host) {
      void request.continue().catch(() => {});
      return null;
    }
    void request.continue({ url: destination.toString(), headers: { ...request.headers(), "x-forwarded-host": url.host } }).catch(() => {});
    return null;
  }

  /** Renders a page with JavaScript and returns its HTML once it has settled. */
  async render(pageUrl: URL | string, options: RenderOptions): Promise<RenderedPage> {
    const target = resolveTarget(this.env, pageUrl);
    const { context } = await this.#open();
    const page = await context.newPage();
    try {
      await page.evaluateOnNewDocument(DISABLE_SIDE_CHANNELS);
      await page.setBypassServiceWorker(true);
      await page.setRequestInterception(true);
      // A main-frame navigation refused as private (the profile redirecting there) fails the task the
      // way the plain-HTTP path does; a refused subresource, fetch or frame only leaves the page without it.
      let refusedNavigation: string | null = null;
      page.on("request", (request) => {
        const refused = this.#intercept(request);
        if (refused && request.isNavigationRequest() && request.frame() === page.mainFrame()) refusedNavigation ??= refused;
      });
      const cookies = cookiesFor(options.cookies, target.pageUrl);
      // Cookies go to the origin that really serves the page (PUBLISHER_ORIGINS may move it).
      if (cookies.length) await page.setCookie(...cookies.map(({ name, value }) => ({ name, value, url: target.requestUrl.origin })));
      const started = Date.now();
      const response = await page.goto(target.requestUrl.toString(), { waitUntil: "load", timeout: options.timeoutMs }).catch((err: unknown) => {
        if (refusedNavigation) throw permanentError("profile_not_found", `Refusing to request a private host: ${refusedNavigation}`);
        throw err;
      });
      const remaining = options.timeoutMs - (Date.now() - started);
      if (remaining > 0) {
        // Best effort: a page that keeps polling is read as it is after the settle time.
        await page.waitForNetworkIdle({ idleTime: SETTLE_IDLE_MS, timeout: Math.min(SETTLE_MS, remaining) }).catch(() => {});
      }
      const html = await page.content();
      if (html.length > options.maxBytes) throw permanentError("publisher_error", `Rendered page is larger than ${options.maxBytes} bytes`);
      const status = response?.status() ?? 200;
      const headers = new Headers(response?.headers() ?? {});
      const error = await errorForStatus(status, headers, html);
      if (error) throw error;
      return { url: publisherSideUrl(target, new URL(page.url())), status, headers, text: html };
    } catch (err) {
      if (err instanceof ScrapeError) throw err;
      if (err instanceof TimeoutError) throw transientError("timeout", `Page did not render within ${options.timeoutMs} ms`);
      throw transientError("publisher_error", `Browser could not load the page: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      await page.close().catch(() => {});
    }
  }

  async close(): Promise<void> {
    const session = this.#session;
    this.#session = null;
    if (!session) return;
    const opened = await session.catch(() => null);
    if (!opened) return;
    await opened.context.close().catch(() => {});
    await opened.browser.disconnect().catch(() => {});
    await this.#releaseSlot();
  }
}
