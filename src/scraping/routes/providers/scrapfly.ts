/**
 * ScrapFly Web Scraping API (https://scrapfly.io/docs/scrape-api/specification, request
 * customization https://scrapfly.io/docs/scrape-api/custom, errors
 * https://scrapfly.io/docs/scrape-api/errors): the query-parameter kind. The API is called with the
 * method to forward (`GET` or `POST /scrape`), the key in `key`, the URL-encoded target in `url`,
 * headers as `headers[<name>]=<value>` (URL-encoded) and the body as the call's own body with its
 * Content-Type. `asp=true` turns on its anti-bot bypass. The answer is JSON:
 * `{result: {status_code, content, response_headers, url, success, error}}`, `url` being the final
 * URL after the redirects ScrapFly followed. Errors carry `result.error.code`, e.g.
 * `ERR::ASP::SHIELD_PROTECTION_FAILED` (HTTP 422) when its bypass failed.
 */
import { z } from "zod";
import type { RouteAnswer, RouteRequest } from "../types";
import { detailOf, ProviderFailed, providerUrl, ProviderRoute, type ProviderFailure } from "./common";

const ScrapflyAnswerSchema = z.object({
  result: z.object({
    status_code: z.number().int(),
    content: z.string(),
    response_headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
    url: z.string().optional(),
    format: z.string().optional(),
  }),
});

const ScrapflyErrorSchema = z.object({
  result: z
    .object({
      error: z
        .object({ code: z.string(), message: z.string().optional(), retryable: z.boolean().optional() })
        .nullable()
        .optional(),
    })
    .optional(),
  error_id: z.string().optional(),
  code: z.string().optional(),
  message: z.string().optional(),
});

export class ScrapflyRoute extends ProviderRoute {
  readonly name = "provider:scrapfly";
  protected readonly provider = "scrapfly";

  protected async call(request: RouteRequest, key: string): Promise<RouteAnswer> {
    const target = request.target.pageUrl;
    const api = providerUrl(this.env, "scrapfly", "/scrape");
    api.searchParams.set("key", key);
    api.searchParams.set("url", target.toString());
    api.searchParams.set("asp", "true");
    for (const [name, value] of request.headers) {
      // The body's type is the call's own Content-Type, which ScrapFly forwards with the body.
      if (name === "content-type") continue;
      api.searchParams.set(`headers[${name}]`, value);
    }
    if (request.cookies.length)
      api.searchParams.set(
        "headers[cookie]",
        request.cookies.map(({ name, value }) => `${name}=${value}`).join("; "),
      );
    const init: RequestInit = {
      method: request.method,
      headers: { Accept: "application/json" },
      signal: request.signal,
    };
    if (request.body !== undefined) {
      init.body = request.body;
      init.headers = {
        Accept: "application/json",
        "Content-Type": request.headers.get("Content-Type") ?? "application/x-www-form-urlencoded",
      };
    }
    const response = await fetch(api, init);
    const text = await request.read(response);
    if (response.status !== 200) throw new ProviderFailed(scrapflyFailure(response.status, text, key));
    let parsed: z.infer<typeof ScrapflyAnswerSchema>;
    try {
      parsed = ScrapflyAnswerSchema.parse(JSON.parse(text));
    } catch {
      throw new ProviderFailed({
        kind: "retry",
        detail: "answer is not the documented JSON (result.status_code, result.content)",
      });
    }
    const { result } = parsed;
    const headers = new Headers();
    for (const [name, value] of Object.entries(result.response_headers ?? {})) {
      if (name.toLowerCase() === "content-encoding" || name.toLowerCase() === "content-length") continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    const content =
      result.format === "binary"
        ? new TextDecoder().decode(Uint8Array.from(atob(result.content), (c) => c.charCodeAt(0)))
        : result.content;
    const finalUrl = result.url ? URL.parse(result.url) : null;
    return { status: result.status_code, headers, text: content, url: finalUrl ?? target };
  }
}

/**
 * 401 (key), 402/403 and `ERR::ACCOUNT::*` / `ERR::SCRAPE::QUOTA_LIMIT_REACHED` (credit, plan,
 * suspended account), 400 (a parameter refused): `provider_error`. `ERR::ASP::SHIELD_PROTECTION_FAILED`
 * is the publisher's protection it could not pass: `blocked`. 429 (throttled), 5xx and errors
 * ScrapFly marks `retryable` are retried.
 */
export function scrapflyFailure(status: number, text: string, key: string): ProviderFailure {
  let code = "";
  let message: string;
  let retryable = false;
  try {
    const parsed = ScrapflyErrorSchema.parse(JSON.parse(text));
    code = parsed.result?.error?.code ?? parsed.code ?? "";
    message = parsed.result?.error?.message ?? parsed.message ?? "";
    retryable = parsed.result?.error?.retryable ?? false;
  } catch {
    message = text;
  }
  const detail = `${status}${code ? ` ${code}` : ""} ${detailOf(message, key) || "no detail"}`;
  if (code === "ERR::ASP::SHIELD_PROTECTION_FAILED") return { kind: "blocked", detail };
  if (code.startsWith("ERR::ACCOUNT::") || code === "ERR::SCRAPE::QUOTA_LIMIT_REACHED")
    return { kind: "account", detail };
  if (status === 429 || status >= 500 || retryable) return { kind: "retry", detail };
  return { kind: "account", detail };
}
