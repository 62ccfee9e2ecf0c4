import type { PageRenderer } from "../browser";
import type { LoginCookie } from "../../core/cookies";
import type { Route, RouteAnswer, RouteRequest } from "./types";

/**
 * Browser Rendering: a page request loads the page; an API call runs as `fetch` inside the loaded
 * page of its origin, so the cookies, tokens and headers the page set up are its own (see
 * PageRenderer.routeRequest). The browser keeps its own cookies; the task's login cookies are set
 * on each page it opens. Every request of the page passes the renderer's network interception.
 */
export class BrowserRoute implements Route {
  readonly name = "browser";
  readonly kind = "browser";

  constructor(
    private readonly renderer: PageRenderer,
    private readonly loginCookies: readonly LoginCookie[],
    private readonly maxBytes: number,
  ) {}

  async send(request: RouteRequest): Promise<RouteAnswer> {
    const headers = Object.fromEntries(request.headers);
    const page = await this.renderer.routeRequest(
      request.target,
      { method: request.method, headers, body: request.body, api: request.api },
      { cookies: this.loginCookies, timeoutMs: request.timeoutMs, maxBytes: this.maxBytes },
    );
    return { status: page.status, headers: page.headers, text: page.text, url: page.url };
  }
}
