import type { Route, RouteAnswer, RouteRequest } from "./types";
import { browserHeaders } from "./browser-headers";

/**
 * The Worker's own fetch, with a browser's header set. Redirects come back to the client
 * (`redirect: "manual"`), which follows them hop by hop through the network rules.
 */
export class DirectRoute implements Route {
  readonly name = "direct";
  readonly kind = "direct";

  constructor(private readonly publisherKey: string) {}

  async send(request: RouteRequest): Promise<RouteAnswer> {
    const { target } = request;
    const headers = new Headers(browserHeaders(this.publisherKey, request.api));
    for (const [name, value] of request.headers) headers.set(name, value);
    // Chrome sends Origin on a POST, also same-origin.
    if (request.method === "POST") headers.set("Origin", target.pageUrl.origin);
    // Under PUBLISHER_ORIGINS the fixture origin learns which host the request was meant for.
    if (target.requestUrl.host !== target.pageUrl.host) headers.set("X-Forwarded-Host", target.pageUrl.host);
    if (request.cookies.length)
      headers.set("Cookie", request.cookies.map(({ name, value }) => `${name}=${value}`).join("; "));
    if (request.body === undefined) headers.delete("Content-Type");
    const response = await fetch(target.requestUrl, {
      method: request.method,
      headers,
      body: request.body,
      redirect: "manual",
      signal: request.signal,
    });
    return {
      status: response.status,
      headers: response.headers,
      text: await request.read(response),
      url: target.requestUrl,
    };
  }
}
