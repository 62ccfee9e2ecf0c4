import puppeteer, {
  TimeoutError,
  type Browser,
  type BrowserContext,
  type HTTPRequest,
  type HTTPResponse,
  type Page,
  type ResourceType,
} from "@cloudflare/puppeteer";
import { settings } from "../settings";
import { browserGate } from "./browser-gate";
import type { LoginCookie } from "../core/cookies";
import { cookiesFor } from "./cookies";
import { permanentError, ScrapeError, transientError } from "./errors";
import { errorForStatus } from "./response-status";
import { mayRequest, publisherSideUrl, requestUrlFor, resolveTarget, type Target } from "./target";

export interface RenderOptions {
  cookies: readonly LoginCookie[];
  timeoutMs: number;
  /** Largest HTML the page may grow to before it is refused. */
  maxBytes: number;
  /**
   * Keep the JSON answers of the page's own XHR and fetch requests (`RenderedPage.answers`), and
   * after the page settles scroll to its end and press its "more reviews" control up to this many
   * times, as a reader would, while the answers keep coming. 0 or absent: neither.
   */
  readerSteps?: number;
}

/** A JSON answer the rendered page's own scripts loaded (an XHR or fetch request). */
export interface PageAnswer {
  /** Its URL on the publisher side. */
  url: string;
  text: string;
}

export interface RenderedPage {
  url: URL;
  status: number;
  headers: Headers;
  text: string;
  /** With `readerSteps`: the JSON answers the page loaded, in the order they arrived. */
  answers?: PageAnswer[];
}

/** A request the `browser` route makes from inside the loaded page. */
export interface InPageRequest {
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  /** An API call (run with the page's fetch) rather than a page to load. */
  api: boolean;
}

type InPageAnswer =
  { status: number; url: string; headers: [string, string][]; text: string } | { error: string };

/**
 * Runs inside the page: the page's own fetch, with its cookies (credentials "include"), bounded in
 * time and size. A function, so puppeteer serializes it into the page; it uses only page globals.
 */
const IN_PAGE_FETCH = async (init: {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  timeoutMs: number;
  maxBytes: number;
}): Promise<InPageAnswer> => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), init.timeoutMs);
  try {
    // `credentials` is the page's fetch option (the Worker's RequestInit type does not list it).
    const options = {
      method: init.method,
      headers: init.headers,
      body: init.body,
      credentials: "include",
      signal: controller.signal,
    };
    const response = await fetch(init.url, options);
    const text = await response.text();
    if (text.length > init.maxBytes) return { error: "too large" };
    return { status: response.status, url: response.url, headers: [...response.headers], text };
  } catch (err) {
    return { error: controller.signal.aborted ? "timeout" : String(err) };
  } finally {
    clearTimeout(timer);
  }
};

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

/** JSON answers kept from one rendered page (their total size is capped by `maxBytes` as well). */
const MAX_ANSWERS = 40;
/** Leave at least this much of the render's time after the last reader step, to read the page. */
const STEP_RESERVE_MS = 1_000;

/**
 * Runs inside the page, one reader step: scrolls to the end (infinite lists load there) and presses
 * the first visible control whose own text asks for more reviews. Only controls that stay on the
 * page are pressed: buttons that submit no form, and links without a destination (a link to another
 * page would replace the page being read). Returns whether it pressed one.
 */
const READER_STEP = `(() => {
  window.scrollTo(0, document.documentElement.scrollHeight);
  const wanted = /\\b(more|load|show|see|view|read|next|all|older)\\b.{0,30}\\b(reviews?|ratings?|comments?|opinions?|feedback|testimonials?)\\b|\\b(mehr|weitere|alle)\\b.{0,20}\\b(bewertungen|rezensionen|erfahrungen)\\b|plus d.avis|voir plus|m[aá]s (rese[nñ]as|opiniones)|altre recensioni|meer (reviews|beoordelingen)/i;
  for (const el of document.querySelectorAll("button, [role=button], a")) {
    const label = (el.innerText || el.getAttribute("aria-label") || "").trim();
    if (!label || label.length > 80 || !wanted.test(label)) continue;
    if (el.tagName === "BUTTON" && el.form && el.type !== "button") continue;
    if (el.tagName === "A") {
      const href = (el.getAttribute("href") || "").trim();
      if (href && !href.startsWith("#") && !/^javascript:/i.test(href)) continue;
    }
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || el.disabled) continue;
    el.click();
    return true;
  }
  return false;
})()`;

/** A slot is held at most this long; a crashed run's slot frees itself (a session lives at most 10 min). */
const SLOT_TTL_MS = 10 * 60_000;

/**
 * Keeps the JSON answers of a page's own XHR and fetch requests. Only what the page itself asked
 * for and got: every such request went through the page's request rules first (#intercept), so a
 * refused one has no answer to keep. Bounded in count and in total size.
 */
class AnswerRecorder {
  #kept: PageAnswer[] = [];
  #bytes = 0;
  #pending = new Set<Promise<void>>();

  constructor(
    private readonly target: Target,
    private readonly maxBytes: number,
  ) {}

  /** Answers seen so far, kept or still being read. */
  get seen(): number {
    return this.#kept.length + this.#pending.size;
  }

  record(response: HTTPResponse): void {
    const type = response.request().resourceType();
    if (type !== "xhr" && type !== "fetch") return;
    const status = response.status();
    if (status < 200 || status >= 300 || this.seen >= MAX_ANSWERS) return;
    if (!/json|javascript|text\/plain/i.test(response.headers()["content-type"] ?? "")) return;
    const url = URL.parse(response.url());
    if (!url) return;
    const read = response
      .text()
      .then((text) => {
        if (this.#bytes + text.length > this.maxBytes || this.#kept.length >= MAX_ANSWERS) return;
        this.#bytes += text.length;
        this.#kept.push({ url: publisherSideUrl(this.target, url).toString(), text });
      })
      .catch(() => {})
      .finally(() => this.#pending.delete(read));
    this.#pending.add(read);
  }

  async answers(): Promise<PageAnswer[]> {
    await Promise.allSettled([...this.#pending]);
    return [...this.#kept];
  }
}

/**
 * Up to `readerSteps` reader steps (READER_STEP), each followed by the page's own loading; stops
 * early when a step neither pressed a control nor brought a new answer, and keeps STEP_RESERVE_MS
 * of the render's time to read the page afterwards.
 */
async function readLikeAReader(
  page: Page,
  recorder: AnswerRecorder,
  options: RenderOptions,
  started: number,
): Promise<void> {
  for (let step = 0; step < (options.readerSteps ?? 0); step++) {
    const left = options.timeoutMs - (Date.now() - started) - STEP_RESERVE_MS;
    if (left <= 0) return;
    const before = recorder.seen;
    const pressed = await page.evaluate(READER_STEP).then(
      (result) => result === true,
      () => false,
    );
    await page
      .waitForNetworkIdle({ idleTime: SETTLE_IDLE_MS, timeout: Math.min(SETTLE_MS, left) })
      .catch(() => {});
    if (!pressed && recorder.seen === before) return;
  }
}

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
      (a, b) =>
        Number(Boolean(a.connectionId)) - Number(Boolean(b.connectionId)) ||
        Number(a.connectionStartTime ?? 0) - Number(b.connectionStartTime ?? 0),
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
  /** The page the `browser` route's API calls run from (see routeRequest). */
  #current: Page | null = null;
  #session: Promise<{ browser: Browser; context: BrowserContext }> | null = null;

  /** `accountId`: whose task renders, for the account's share of the sessions (src/scraping/browser-gate.ts). */
  constructor(
    private readonly env: Env,
    private readonly accountId = "",
  ) {}

  /** This renderer's hold on one of the BROWSER_SESSIONS_MAX slots, while its session is open. */
  readonly #holder = crypto.randomUUID();

  #open(): Promise<{ browser: Browser; context: BrowserContext }> {
    this.#session ??= (async () => {
      const slot = await browserGate(this.env).acquire(
        this.#holder,
        settings(this.env).browserSessionsMax,
        SLOT_TTL_MS,
        this.accountId,
      );
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
  #intercept(request: HTTPRequest, intendedHost: string | null = null): string | null {
    if (request.isInterceptResolutionHandled()) return null;
    const url = URL.parse(request.url());
    // A navigation refused as "blocked" would commit Chrome's error page in place of the page being
    // read; "aborted" cancels it and leaves the page as it was.
    const drop = () =>
      void request.abort(request.isNavigationRequest() ? "aborted" : "blockedbyclient").catch(() => {});
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
      const headers = request.headers();
      if (intendedHost && !headers["x-forwarded-host"])
        void request.continue({ headers: { ...headers, "x-forwarded-host": intendedHost } }).catch(() => {});
      else void request.continue().catch(() => {});
      return null;
    }
    void request
      .continue({
        url: destination.toString(),
        headers: { ...request.headers(), "x-forwarded-host": url.host },
      })
      .catch(() => {});
    return null;
  }

  /** Renders a page with JavaScript and returns its HTML once it has settled. */
  async render(pageUrl: URL | string, options: RenderOptions): Promise<RenderedPage> {
    const target = resolveTarget(this.env, pageUrl);
    const page = await this.#newPage();
    try {
      return await this.#load(page, target, options, true);
    } finally {
      await page.close().catch(() => {});
    }
  }

  /**
   * The `browser` route: a page request is loaded as a page, which stays open; an API call runs
   * inside the open page of its origin (`fetch` from the page itself), so its cookies, tokens and
   * headers are the page's own. With no page of that origin open yet, the Referer (or the origin's
   * root) is loaded first, as a visitor's browser would have it.
   */
  async routeRequest(target: Target, request: InPageRequest, options: RenderOptions): Promise<RenderedPage> {
    if (!request.api && request.method === "GET") {
      const page = await this.#newPage();
      try {
        const answer = await this.#load(page, target, options, true, true);
        await this.#keep(page);
        return answer;
      } catch (err) {
        await page.close().catch(() => {});
        throw err;
      }
    }
    const started = Date.now();
    let current = this.#current;
    if (!current || URL.parse(current.url())?.origin !== target.requestUrl.origin) {
      const referrer = request.headers.Referer ?? request.headers.referer;
      const opener =
        referrer && URL.parse(referrer)?.host === target.pageUrl.host
          ? referrer
          : new URL("/", target.pageUrl).toString();
      current = await this.#newPage();
      try {
        // Any answer puts a document on the origin; its status is not the API call's.
        await this.#load(current, resolveTarget(this.env, opener), options, false, true);
        await this.#keep(current);
      } catch (err) {
        await current.close().catch(() => {});
        throw err;
      }
    }
    const left = options.timeoutMs - (Date.now() - started);
    if (left <= 0) throw transientError("timeout", `Page did not answer within ${options.timeoutMs} ms`);
    const headers = { ...request.headers };
    if (target.requestUrl.host !== target.pageUrl.host) headers["X-Forwarded-Host"] = target.pageUrl.host;
    try {
      const answer = await current.evaluate(IN_PAGE_FETCH, {
        url: target.requestUrl.toString(),
        method: request.method,
        headers,
        body: request.body ?? null,
        timeoutMs: left,
        maxBytes: options.maxBytes,
      });
      if ("error" in answer) {
        if (answer.error === "too large")
          throw permanentError("publisher_error", `Page is larger than ${options.maxBytes} bytes`);
        if (answer.error === "timeout")
          throw transientError("timeout", `Publisher did not answer within ${left} ms`);
        throw transientError(
          "publisher_error",
          `Could not reach the publisher from the page: ${answer.error}`,
        );
      }
      return {
        url: new URL(answer.url || target.requestUrl.toString()),
        status: answer.status,
        headers: new Headers(answer.headers),
        text: answer.text,
      };
    } catch (err) {
      if (err instanceof ScrapeError) throw err;
      throw transientError(
        "publisher_error",
        `Browser could not run the request: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  /** The page in-page requests run from; the one it replaces is closed. */
  async #keep(page: Page): Promise<void> {
    const previous = this.#current;
    this.#current = page;
    if (previous && previous !== page) await previous.close().catch(() => {});
  }

  async #newPage(): Promise<Page> {
    const { context } = await this.#open();
    const page = await context.newPage();
    try {
      await page.evaluateOnNewDocument(DISABLE_SIDE_CHANNELS);
      await page.setBypassServiceWorker(true);
      await page.setRequestInterception(true);
      return page;
    } catch (err) {
      await page.close().catch(() => {});
      throw err;
    }
  }

  /**
   * Loads `target` in `page` and returns its HTML once it has settled; `checkStatus` false takes any
   * answer (a page opened only to run requests from its origin).
   */
  async #load(
    page: Page,
    target: Target,
    options: RenderOptions,
    checkStatus: boolean,
    forwardHost = false,
  ): Promise<RenderedPage> {
    // The browser route tells a mapped origin (PUBLISHER_ORIGINS) which host its page and in-page
    // requests were meant for, as the direct route does; render() keeps its own behaviour.
    const intendedHost =
      forwardHost && target.requestUrl.host !== target.pageUrl.host ? target.pageUrl.host : null;
    try {
      // A main-frame navigation refused as private (the profile redirecting there) fails the task the
      // way the plain-HTTP path does; a refused subresource, fetch or frame only leaves the page without it.
      let refusedNavigation: string | null = null;
      page.removeAllListeners("request");
      page.removeAllListeners("response");
      const recorder = options.readerSteps ? new AnswerRecorder(target, options.maxBytes) : null;
      if (recorder) page.on("response", (response) => recorder.record(response));
      page.on("request", (request) => {
        const refused = this.#intercept(
          request,
          intendedHost && URL.parse(request.url())?.origin === target.requestUrl.origin ? intendedHost : null,
        );
        if (refused && request.isNavigationRequest() && request.frame() === page.mainFrame())
          refusedNavigation ??= refused;
      });
      const cookies = cookiesFor(options.cookies, target.pageUrl);
      // Cookies go to the origin that really serves the page (PUBLISHER_ORIGINS may move it).
      if (cookies.length)
        await page.setCookie(
          ...cookies.map(({ name, value }) => ({ name, value, url: target.requestUrl.origin })),
        );
      const started = Date.now();
      const response = await page
        .goto(target.requestUrl.toString(), { waitUntil: "load", timeout: options.timeoutMs })
        .catch((err: unknown) => {
          if (refusedNavigation)
            throw permanentError(
              "profile_not_found",
              `Refusing to request a private host: ${refusedNavigation}`,
            );
          throw err;
        });
      const remaining = options.timeoutMs - (Date.now() - started);
      if (remaining > 0) {
        // Best effort: a page that keeps polling is read as it is after the settle time.
        await page
          .waitForNetworkIdle({ idleTime: SETTLE_IDLE_MS, timeout: Math.min(SETTLE_MS, remaining) })
          .catch(() => {});
      }
      if (recorder) await readLikeAReader(page, recorder, options, started);
      const html = await page.content();
      if (html.length > options.maxBytes)
        throw permanentError("publisher_error", `Rendered page is larger than ${options.maxBytes} bytes`);
      const status = response?.status() ?? 200;
      const headers = new Headers(response?.headers() ?? {});
      if (checkStatus) {
        const error = await errorForStatus(status, headers, html);
        if (error) throw error;
      }
      return {
        url: publisherSideUrl(target, new URL(page.url())),
        status,
        headers,
        text: html,
        ...(recorder ? { answers: await recorder.answers() } : {}),
      };
    } catch (err) {
      if (err instanceof ScrapeError) throw err;
      if (err instanceof TimeoutError)
        throw transientError("timeout", `Page did not render within ${options.timeoutMs} ms`);
      throw transientError(
        "publisher_error",
        `Browser could not load the page: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  async close(): Promise<void> {
    const current = this.#current;
    this.#current = null;
    await current?.close().catch(() => {});
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
