/**
 * Zyte API, HTTP requests (https://docs.zyte.com/zyte-api/usage/http.html, reference
 * https://docs.zyte.com/zyte-api/usage/reference.html, errors
 * https://docs.zyte.com/zyte-api/usage/errors.html): `POST /v1/extract` with HTTP basic auth, the
 * key as user name and an empty password; `httpResponseBody: true` returns the body base64-encoded,
 * `httpResponseHeaders: true` the headers as `[{name, value}]`, and `statusCode` the publisher's
 * status (a publisher's 404 is a successful Zyte answer). The request is forwarded with
 * `httpRequestMethod`, `httpRequestText` and `customHttpRequestHeaders`; cookies go as
 * `requestCookies`. `followRedirect: false` hands redirects back, so every hop passes the network
 * rules here. Unsuccessful answers are RFC 7807 problem documents `{type, title, status, detail}`.
 */
import { z } from "zod";
import type { RouteAnswer, RouteRequest } from "../types";
import { detailOf, ProviderFailed, providerUrl, ProviderRoute, type ProviderFailure } from "./common";

const ZyteAnswerSchema = z.object({
  statusCode: z.number().int(),
  httpResponseBody: z.string(),
  httpResponseHeaders: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
});

export class ZyteRoute extends ProviderRoute {
  readonly name = "provider:zyte";
  protected readonly provider = "zyte";

  protected async call(request: RouteRequest, key: string): Promise<RouteAnswer> {
    const url = request.target.pageUrl;
    const body: Record<string, unknown> = {
      url: url.toString(),
      httpResponseBody: true,
      httpResponseHeaders: true,
      followRedirect: false,
      httpRequestMethod: request.method,
    };
    if (request.body !== undefined) body.httpRequestText = request.body;
    const headers = [...request.headers].map(([name, value]) => ({ name, value }));
    const forwarded =
      request.body === undefined ? headers.filter((h) => h.name.toLowerCase() !== "content-type") : headers;
    if (forwarded.length) body.customHttpRequestHeaders = forwarded;
    if (request.cookies.length)
      body.requestCookies = request.cookies.map(({ name, value }) => ({ name, value, domain: url.hostname }));
    const response = await fetch(providerUrl(this.env, "zyte", "/v1/extract"), {
      method: "POST",
      headers: {
        Authorization: `Basic ${btoa(`${key}:`)}`,
        "Content-Type": "application/json",
        Accept: "application/json",
      },
      body: JSON.stringify(body),
      signal: request.signal,
    });
    const text = await request.read(response);
    if (response.status !== 200)
      throw new ProviderFailed(zyteFailure(response.status, text, key, response.headers.get("Retry-After")));
    let parsed: z.infer<typeof ZyteAnswerSchema>;
    try {
      parsed = ZyteAnswerSchema.parse(JSON.parse(text));
    } catch {
      throw new ProviderFailed({
        kind: "retry",
        detail: "answer is not the documented JSON (statusCode, httpResponseBody)",
      });
    }
    const headersOut = new Headers();
    for (const { name, value } of parsed.httpResponseHeaders ?? []) {
      // Zyte decodes the body itself; its encoding headers describe bytes we never see.
      if (name.toLowerCase() === "content-encoding" || name.toLowerCase() === "content-length") continue;
      headersOut.append(name, value);
    }
    return {
      status: parsed.statusCode,
      headers: headersOut,
      text: new TextDecoder().decode(Uint8Array.from(atob(parsed.httpResponseBody), (c) => c.charCodeAt(0))),
      url,
    };
  }
}

/**
 * Zyte's unsuccessful answers (errors page): 401 bad key, 402/403 account (credit, plan,
 * suspension), 451 a domain Zyte refuses, 400/422 a request it cannot run: the task fails with
 * `provider_error`. 520 is a ban Zyte could not get past: `blocked`. 429 and other 5xx are retried.
 */
export function zyteFailure(
  status: number,
  text: string,
  key: string,
  retryAfter: string | null,
): ProviderFailure {
  let title: string;
  try {
    const problem = JSON.parse(text) as { title?: unknown; detail?: unknown };
    title = [problem.title, problem.detail].filter((v) => typeof v === "string" && v).join(": ");
  } catch {
    title = text;
  }
  const detail = `${status} ${detailOf(title || "no detail", key)}`;
  if (status === 520) return { kind: "blocked", detail };
  if (status === 429 || status >= 500) {
    const seconds = retryAfter && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined;
    return { kind: "retry", detail, retryAfterSeconds: seconds };
  }
  return { kind: "account", detail };
}
