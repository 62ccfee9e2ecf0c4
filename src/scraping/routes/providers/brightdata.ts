/**
 * Bright Data Web Unlocker, direct API access
 * (https://docs.brightdata.com/scraping-automation/web-unlocker/send-your-first-request, errors
 * https://docs.brightdata.com/scraping-automation/web-unlocker/error-codes): `POST /request` with
 * `Authorization: Bearer <key>` and `{zone, url, format: "raw", method, body}`; the answer is the
 * publisher's own body. Once the request reached the unlocker the outer status is 200 and the
 * publisher's status is in `x-brd-status-code`; an unlocker failure carries `x-brd-error` (and
 * `x-brd-error-code`), an answer without it is the publisher's. Requests refused before unlocking
 * get a real outer status: 401 for the key, 400 for the zone or the URL.
 *
 * The unlocker chooses headers and follows redirects itself; the documented body forwards no
 * request headers, so cookies and an API's own headers do not reach the publisher on this route.
 */
import { settings } from "../../../settings";
import type { RouteAnswer, RouteRequest } from "../types";
import { detailOf, ProviderFailed, providerUrl, ProviderRoute, type ProviderFailure } from "./common";

export class BrightDataRoute extends ProviderRoute {
  readonly name = "provider:brightdata";
  protected readonly provider = "brightdata";

  protected async call(request: RouteRequest, key: string): Promise<RouteAnswer> {
    const url = request.target.pageUrl;
    const body: Record<string, unknown> = {
      zone: settings(this.env).brightdataZone,
      url: url.toString(),
      format: "raw",
      method: request.method,
    };
    if (request.body !== undefined) body.body = request.body;
    const response = await fetch(providerUrl(this.env, "brightdata", "/request"), {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: request.signal,
    });
    const text = await request.read(response);
    const failure = brightDataFailure(response.status, response.headers, text, key);
    if (failure) throw new ProviderFailed(failure);
    const status = Number(response.headers.get("x-brd-status-code") ?? response.status);
    const headers = new Headers();
    for (const [name, value] of response.headers) {
      if (!name.startsWith("x-brd-") && name !== "content-encoding" && name !== "content-length")
        headers.append(name, value);
    }
    return { status: Number.isInteger(status) && status >= 100 ? status : 200, headers, text, url };
  }
}

/**
 * 401 (key), 400 (zone, URL), 403 and 407 (policy, zone credentials): the task fails with
 * `provider_error`. `x-brd-error-code: reject_block` is the publisher's block the unlocker could not
 * pass: `blocked`. 429 and the other unlock failures (502: peer, timeout, document_load_failed…)
 * are retried.
 */
export function brightDataFailure(
  outer: number,
  headers: Headers,
  text: string,
  key: string,
): ProviderFailure | null {
  const error = headers.get("x-brd-error");
  if (outer === 200 && error === null) return null;
  const code = headers.get("x-brd-error-code") ?? headers.get("x-brd-err-code") ?? "";
  const status = outer === 200 ? Number(headers.get("x-brd-status-code") ?? 502) : outer;
  const detail = `${status}${code ? ` ${code}` : ""} ${detailOf(error ?? text ?? "", key) || "no detail"}`;
  if (code === "reject_block") return { kind: "blocked", detail };
  if (status === 400 || status === 401 || status === 402 || status === 403 || status === 407)
    return { kind: "account", detail };
  return { kind: "retry", detail };
}
