import puppeteer, { TimeoutError, type Browser, type BrowserContext, type HTTPRequest, type ResourceType } from "@cloudflare/puppeteer";
import { cookiesFor } from "./cookies";
import { ScrapeError, transientError } from "./errors";
import type { LoadedPage, LoadOptions } from "./http-fetch";
import { errorForStatus } from "./response-status";
import { mayRequestHost, publisherSideUrl, resolveTarget } from "./target";

/** Bytes a review page never needs; skipping them keeps renders fast and sessions cheap. */
const BLOCKED_RESOURCES = new Set<ResourceType>(["image", "font", "media"]);

/** How long an idle session stays open for the next run to reuse (Browser Rendering maximum: 10 min). */
const KEEP_ALIVE_MS = 120_000;

/** After `load`, how long the page may keep fetching before its HTML is read (scripts that fetch reviews). */
const SETTLE_MS = 3_000;
const SETTLE_IDLE_MS = 250;

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
    .sort((a, b) => Number(Boolean(a.connectionId)) - Number(Boolean(b.connectionId)) || Number(a.connectionStartTime ?? 0) - Number(b.connectionStartTime ?? 0))
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

  #open(): Promise<{ browser: Browser; context: BrowserContext }> {
    this.#session ??= (async () => {
      const browser = await acquireBrowser(this.env);
      try {
        return { browser, context: await browser.createBrowserContext() };
      } catch (err) {
        await browser.disconnect().catch(() => {});
        throw err;
      }
    })();
    return this.#session;
  }

  #intercept(request: HTTPRequest): void {
    if (request.isInterceptResolutionHandled()) return;
    const url = URL.parse(request.url());
    const allowed = !BLOCKED_RESOURCES.has(request.resourceType()) && (!url || !url.hostname || mayRequestHost(this.env, url.hostname));
    void (allowed ? request.continue() : request.abort("blockedbyclient")).catch(() => {});
  }

  /** Renders a page with JavaScript and returns its HTML once it has settled. */
  async render(pageUrl: URL | string, options: LoadOptions): Promise<LoadedPage> {
    const target = resolveTarget(this.env, pageUrl);
    const { context } = await this.#open();
    const page = await context.newPage();
    try {
      await page.setRequestInterception(true);
      page.on("request", (request) => this.#intercept(request));
      const cookies = cookiesFor(options.cookies, target.pageUrl);
      // Cookies go to the origin that really serves the page (PUBLISHER_ORIGINS may move it).
      if (cookies.length) await page.setCookie(...cookies.map(({ name, value }) => ({ name, value, url: target.requestUrl.origin })));
      const started = Date.now();
      const response = await page.goto(target.requestUrl.toString(), { waitUntil: "load", timeout: options.timeoutMs });
      const remaining = options.timeoutMs - (Date.now() - started);
      if (remaining > 0) {
        // Best effort: a page that keeps polling is read as it is after the settle time.
        await page.waitForNetworkIdle({ idleTime: SETTLE_IDLE_MS, timeout: Math.min(SETTLE_MS, remaining) }).catch(() => {});
      }
      const html = await page.content();
      if (response) {
        const error = await errorForStatus(response.status(), new Headers(response.headers()), html);
        if (error) throw error;
      }
      return { pageUrl: publisherSideUrl(target, new URL(page.url())), html };
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
  }
}
