/**
 * Local fakes of the unblocking providers (Node side, started with the fixture sites): each one
 * takes requests in its provider's documented shape, checks the key the way the provider does,
 * relays the request to the fixture site of the target's domain (as the provider would fetch the
 * publisher) and answers in the provider's documented shape. Every request a fake receives is
 * recorded (method, path, query, headers, body) and listed by `GET /__received?contains=<text>`.
 *
 * A refused key is echoed in the error (an invented edge case, as some APIs do), so the tests see
 * that the routes keep keys out of error details.
 *
 * Scenarios by a marker in the target URL's path (so each test picks its own):
 * - `pban-`: the provider could not get past the publisher (Zyte 520, Bright Data 200 +
 *   x-brd-error-code reject_block, ScrapFly 422 ERR::ASP::SHIELD_PROTECTION_FAILED);
 * - `pquota-`: credit spent (Zyte 402, Bright Data 403 policy, ScrapFly 429 ERR::SCRAPE::QUOTA_LIMIT_REACHED);
 * - `pflaky-`: the first request for the URL gets a provider 503, later ones go through;
 * - `pdown-`: every request gets a provider 503;
 * - `pecho-`: pages 2 and later get an account failure whose text, past the first 180 characters,
 *   echoes the key in every form (plain, base64, URL-encoded) and a 12-character piece of it, as the
 *   security review's fake did (2026-11, finding 4).
 *
 * Shapes, from the providers' documentation (see src/scraping/routes/providers/*.ts):
 * - Zyte: POST /v1/extract, `Authorization: Basic base64(key + ":")`, JSON {url, httpResponseBody,
 *   httpResponseHeaders, httpRequestMethod, httpRequestText, customHttpRequestHeaders,
 *   requestCookies, followRedirect} → {url, statusCode, httpResponseBody (base64), httpResponseHeaders};
 *   errors as RFC 7807 {type, title, status, detail}.
 * - Bright Data: POST /request, `Authorization: Bearer key`, JSON {zone, url, format: "raw",
 *   method, body} → the raw body, outer 200 with `x-brd-status-code`; errors with `x-brd-error`
 *   (+ `x-brd-error-code`); a bad key is a real 401, an unknown zone a real 400.
 * - ScrapFly: GET|POST /scrape?key=&url=&headers[name]=value&asp=true, the body forwarded as is →
 *   {result: {status_code, content, response_headers, url, format}}; errors {result: {error: {code,
 *   message, retryable}}} with the documented HTTP status.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import { FAKE_BRIGHTDATA_ZONE, FAKE_KEYS, WALLED_DOMAIN } from "./keys";

export interface ReceivedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: string;
}

interface Relayed {
  status: number;
  headers: [string, string][];
  body: Buffer;
  url: string;
}

/** The fixture origin of a host: the longest matching domain wins (play.google.com over google.com), as in PUBLISHER_ORIGINS. */
function hostOrigin(origins: Record<string, string>, host: string): string | null {
  const h = host.toLowerCase();
  let best: [string, string] | null = null;
  for (const [domain, origin] of Object.entries(origins)) {
    if ((h === domain || h.endsWith(`.${domain}`)) && (!best || domain.length > best[0].length))
      best = [domain, origin];
  }
  return best?.[1] ?? null;
}

/** Fetches the target as the provider would, from the fixture site standing in for its host. */
async function relay(
  origins: Record<string, string>,
  target: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  follow: boolean,
  provider: string,
): Promise<Relayed | null> {
  let url = new URL(target);
  for (let hop = 0; hop < 6; hop++) {
    const origin = hostOrigin(origins, url.hostname);
    if (!origin) return null;
    const response = await fetch(new URL(url.pathname + url.search, origin), {
      method,
      headers: { ...headers, "X-Forwarded-Host": url.host, "X-Fake-Relay": provider },
      body: method === "GET" ? undefined : body,
      redirect: "manual",
    });
    const location = response.headers.get("location");
    if (follow && location && [301, 302, 303, 307, 308].includes(response.status)) {
      url = new URL(location, url);
      if (response.status !== 307 && response.status !== 308) {
        method = "GET";
        body = undefined;
      }
      continue;
    }
    return {
      status: response.status,
      headers: [...response.headers],
      body: Buffer.from(await response.arrayBuffer()),
      url: url.toString(),
    };
  }
  return null;
}

type Scenario = "ban" | "quota" | "flaky" | "down" | "echo" | null;
/** The scenario a marker asks of this provider: `p<kind>-` for every provider, `p<kind>_<provider>-` for one. */
function scenarioOf(provider: string, target: string, seen: Map<string, number>): Scenario {
  const path = URL.parse(target)?.pathname ?? "";
  const has = (kind: string) => path.includes(`p${kind}-`) || path.includes(`p${kind}_${provider}-`);
  if (has("ban")) return "ban";
  if (has("quota")) return "quota";
  if (has("down")) return "down";
  // Page 2 and later of a multi-page walk only, so the task has a page to complete with.
  if (has("echo") && /[?&]page=[2-9]/.test(target)) return "echo";
  if (has("flaky")) {
    const n = (seen.get(target) ?? 0) + 1;
    seen.set(target, n);
    return n === 1 ? "flaky" : null;
  }
  return null;
}

/** An error text that quotes the key after 180 characters: whole, base64, URL-encoded, and in part. */
export function echoedKey(key: string): string {
  return `${"y".repeat(180)} key=${key} basic=${Buffer.from(`${key}:`).toString("base64")} b64=${Buffer.from(key).toString("base64")} url=${encodeURIComponent(key)} masked=${key.slice(0, 12)}****`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

type Answer = { status: number; headers?: Record<string, string>; body: string | Buffer };
type Handler = (request: ReceivedRequest, seen: Map<string, number>) => Promise<Answer>;

const json = (status: number, data: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(data),
});

function zyte(origins: Record<string, string>): Handler {
  const problem = (status: number, type: string, title: string) =>
    json(
      status,
      { type: `/${type}`, title, status, detail: title },
      { "Content-Type": "application/problem+json" },
    );
  return async (request, seen) => {
    if (request.method !== "POST" || request.path !== "/v1/extract")
      return problem(404, "not-found", "Not found");
    if (request.headers.authorization !== `Basic ${Buffer.from(`${FAKE_KEYS.zyte}:`).toString("base64")}`) {
      // Echoing what it refused (as some APIs do) tests that the route keeps the key out of the detail.
      return problem(
        401,
        "auth/key-not-found",
        `Authentication Key Not Found: ${request.headers.authorization ?? ""}`,
      );
    }
    const input = JSON.parse(request.body) as {
      url: string;
      httpResponseBody?: boolean;
      httpRequestMethod?: string;
      httpRequestText?: string;
      customHttpRequestHeaders?: { name: string; value: string }[];
      requestCookies?: { name: string; value: string }[];
      followRedirect?: boolean;
    };
    if (input.httpResponseBody !== true)
      return problem(400, "request/invalid", "httpResponseBody must be true here");
    switch (scenarioOf("zyte", input.url, seen)) {
      case "ban":
        return problem(520, "download/temporary-error", "Website Ban");
      case "quota":
        return problem(402, "auth/account-suspended", "Account credit exhausted");
      case "echo":
        return problem(403, "auth/account-suspended", echoedKey(FAKE_KEYS.zyte));
      case "flaky":
      case "down":
        return problem(503, "download/internal-error", "Internal Server Error");
    }
    const headers: Record<string, string> = {};
    for (const { name, value } of input.customHttpRequestHeaders ?? []) headers[name] = value;
    if (input.requestCookies?.length)
      headers.Cookie = input.requestCookies.map((c) => `${c.name}=${c.value}`).join("; ");
    const answer = await relay(
      origins,
      input.url,
      input.httpRequestMethod ?? "GET",
      headers,
      input.httpRequestText,
      input.followRedirect !== false,
      "zyte",
    );
    if (!answer) return problem(422, "download/domain-not-found", "Domain not found");
    return json(200, {
      url: answer.url,
      statusCode: answer.status,
      httpResponseBody: answer.body.toString("base64"),
      httpResponseHeaders: answer.headers.map(([name, value]) => ({ name, value })),
    });
  };
}

function brightdata(origins: Record<string, string>): Handler {
  const failed = (status: number, code: string, message: string): Answer => ({
    status: 200,
    headers: { "x-brd-error": message, "x-brd-error-code": code, "x-brd-status-code": String(status) },
    body: "",
  });
  return async (request, seen) => {
    if (request.method !== "POST" || request.path !== "/request") return { status: 404, body: "Not found" };
    if (request.headers.authorization !== `Bearer ${FAKE_KEYS.brightdata}`)
      return {
        status: 401,
        headers: { "Content-Type": "text/plain" },
        body: `Invalid API key ${request.headers.authorization ?? ""}`,
      };
    const input = JSON.parse(request.body) as {
      zone?: string;
      url?: string;
      format?: string;
      method?: string;
      body?: string;
    };
    if (input.zone !== FAKE_BRIGHTDATA_ZONE || !input.url || input.format !== "raw")
      return { status: 400, body: "zone, url and format are required" };
    switch (scenarioOf("brightdata", input.url, seen)) {
      case "ban":
        return failed(502, "reject_block", "Request blocked by the target site");
      case "echo":
        return {
          status: 401,
          headers: { "Content-Type": "text/plain" },
          body: echoedKey(FAKE_KEYS.brightdata),
        };
      case "quota":
        return {
          status: 403,
          headers: { "x-brd-error": "Zone has no remaining balance", "x-brd-err-code": "policy_20050" },
          body: "",
        };
      case "flaky":
      case "down":
        return failed(502, "document_load_failed", "Document failed to load");
    }
    const answer = await relay(
      origins,
      input.url,
      input.method ?? "GET",
      input.body ? { "Content-Type": "application/json" } : {},
      input.body,
      true,
      "brightdata",
    );
    if (!answer) return failed(502, "resolve_failed_host", "Could not resolve the target host");
    const headers: Record<string, string> = { "x-brd-status-code": String(answer.status) };
    for (const [name, value] of answer.headers)
      if (name !== "content-length" && name !== "transfer-encoding" && name !== "connection")
        headers[name] = value;
    return { status: 200, headers, body: answer.body };
  };
}

function scrapfly(origins: Record<string, string>): Handler {
  const error = (status: number, code: string, message: string, retryable: boolean) =>
    json(status, {
      result: { success: false, status: "DONE", error: { http_code: status, code, message, retryable } },
    });
  return async (request, seen) => {
    if (request.path !== "/scrape") return json(404, { message: "Not found" });
    if (request.query.key !== FAKE_KEYS.scrapfly)
      return error(401, "ERR::SCRAPE::UNAUTHORIZED", `Invalid API key ${request.query.key ?? ""}`, false);
    const target = request.query.url;
    if (!target) return error(400, "ERR::SCRAPE::INVALID_PARAMETER", "url is required", false);
    switch (scenarioOf("scrapfly", target, seen)) {
      case "ban":
        return error(
          422,
          "ERR::ASP::SHIELD_PROTECTION_FAILED",
          "The ASP shield failed to solve the challenge",
          true,
        );
      case "quota":
        return error(429, "ERR::SCRAPE::QUOTA_LIMIT_REACHED", "You reached your scrape quota", false);
      case "echo":
        return error(401, "ERR::AUTH::BAD_KEY", echoedKey(FAKE_KEYS.scrapfly), false);
      case "flaky":
      case "down":
        return error(503, "ERR::SCRAPE::NETWORK_ERROR", "Network error", true);
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.query)) {
      const match = /^headers\[(.+)\]$/.exec(name);
      if (match) headers[match[1]] = value;
    }
    if (request.method === "POST" && request.headers["content-type"])
      headers["Content-Type"] = request.headers["content-type"];
    const answer = await relay(
      origins,
      target,
      request.method,
      headers,
      request.method === "POST" ? request.body : undefined,
      true,
      "scrapfly",
    );
    if (!answer)
      return error(422, "ERR::SCRAPE::DNS_NAME_NOT_RESOLVED", "Could not resolve the target host", false);
    return json(200, {
      config: { url: target },
      context: {},
      result: {
        success: answer.status < 400,
        status: "DONE",
        status_code: answer.status,
        url: answer.url,
        format: "text",
        content: answer.body.toString("utf8"),
        response_headers: Object.fromEntries(answer.headers),
      },
    });
  };
}

/**
 * The walled site (WALLED_DOMAIN): a publisher page only a provider gets (a request without the
 * fakes' X-Fake-Relay header is refused with 403, as a bot wall refuses a Worker), and two helpers
 * for the cookie jar: /set-cookie sets a host cookie and a domain cookie, /echo answers what the
 * request carried.
 */
const WALLED_REVIEWS = [
  { author: "Ada W.", rating: 5, text: "Worth the climb over the wall.", date: "2026-10-03" },
  { author: "Ben O.", rating: 4, text: "Good coffee, slow service.", date: "2026-09-21" },
  { author: "Cleo R.", rating: 2, text: "Too crowded on Sundays.", date: "2026-08-30" },
];
export const WALLED_REVIEW_TEXTS = WALLED_REVIEWS.map((r) => r.text);

function walledPage(): string {
  const business = {
    "@context": "https://schema.org",
    "@type": "LocalBusiness",
    name: "Walled Cafe",
    review: WALLED_REVIEWS.map((r) => ({
      "@type": "Review",
      author: { "@type": "Person", name: r.author },
      reviewRating: { "@type": "Rating", ratingValue: r.rating, bestRating: 5 },
      reviewBody: r.text,
      datePublished: r.date,
    })),
  };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Walled Cafe</title><script type="application/ld+json">${JSON.stringify(business)}</script></head><body><h1>Walled Cafe</h1></body></html>`;
}

/**
 * `/session/<slug>?page=N`, three pages of two reviews, open to any client: page 1 sets a session
 * cookie and the later pages refuse (403) a request without it, like a publisher's session or CSRF
 * flow. With one page per run, only a jar carried from run to run reaches page 3.
 */
function sessionPage(req: IncomingMessage, url: URL): Answer {
  const page = Number(url.searchParams.get("page") ?? "1");
  const token = `wsid=${url.pathname.split("/")[2]}-session-token`;
  const headers: Record<string, string> = { "Content-Type": "text/html; charset=utf-8" };
  if (page === 1) headers["Set-Cookie"] = `${token}; Path=/session; HttpOnly`;
  else if (!(req.headers.cookie ?? "").split(/;\s*/).includes(token))
    return { status: 403, headers, body: "<h1>Session expired</h1>" };
  const business = {
    "@context": "https://schema.org",
    "@type": "LocalBusiness",
    name: "Session Cafe",
    review: [1, 2].map((i) => ({
      "@type": "Review",
      author: { "@type": "Person", name: `Guest ${page}-${i}` },
      reviewRating: { "@type": "Rating", ratingValue: 4, bestRating: 5 },
      reviewBody: `Session page ${page}, review ${i}.`,
      datePublished: `2026-0${9 - page}-1${i}`,
    })),
  };
  const next = page < 3 ? `<link rel="next" href="${url.pathname}?page=${page + 1}">` : "";
  return {
    status: 200,
    headers,
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8">${next}<script type="application/ld+json">${JSON.stringify(business)}</script></head><body></body></html>`,
  };
}

function walledSite(req: IncomingMessage, body: string): Answer {
  const url = new URL(req.url ?? "/", "http://walled");
  if (url.pathname === "/set-cookie") {
    return {
      status: 200,
      headers: { "Content-Type": "application/json", "Set-Cookie": "sid=run-session-1; Path=/; HttpOnly" },
      body: "{}",
    };
  }
  if (url.pathname === "/set-domain-cookie") {
    return {
      status: 200,
      headers: {
        "Content-Type": "application/json",
        "Set-Cookie": `consent=yes; Domain=.${WALLED_DOMAIN}; Path=/`,
      },
      body: "{}",
    };
  }
  if (url.pathname.startsWith("/session/")) return sessionPage(req, url);
  if (url.pathname === "/echo") {
    return json(200, { method: req.method, headers: req.headers, body });
  }
  if (!req.headers["x-fake-relay"]) {
    return {
      status: 403,
      headers: { "Content-Type": "text/html" },
      body: "<html><body><h1>Access denied</h1><p>Bot protection</p></body></html>",
    };
  }
  if (url.pathname.startsWith("/gone/"))
    return { status: 404, headers: { "Content-Type": "text/html" }, body: "<h1>Not found</h1>" };
  return { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" }, body: walledPage() };
}

export interface ProviderFakes {
  /** Provider name → origin (PROVIDER_ORIGINS). */
  origins: Record<string, string>;
  /** Publisher domains the fakes serve themselves (WALLED_DOMAIN) → origin, for PUBLISHER_ORIGINS. */
  sites: Record<string, string>;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** node:http wants a listener that returns nothing: the async handler runs, and a throw answers 500. */
function listener(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  };
}

export async function startProviderFakes(fixtureOrigins: Record<string, string>): Promise<ProviderFakes> {
  const servers: Server[] = [];
  const walled = createServer(
    listener(async (req, res) => {
      const answer = walledSite(req, await readBody(req));
      res.writeHead(answer.status, { "Cache-Control": "no-store", ...answer.headers }).end(answer.body);
    }),
  );
  servers.push(walled);
  const sites = { [WALLED_DOMAIN]: await listen(walled) };
  const targets = { ...fixtureOrigins, ...sites };
  const handlers: Record<string, Handler> = {
    zyte: zyte(targets),
    brightdata: brightdata(targets),
    scrapfly: scrapfly(targets),
  };
  const origins: Record<string, string> = {};
  for (const [name, handle] of Object.entries(handlers)) {
    const received: ReceivedRequest[] = [];
    const seen = new Map<string, number>();
    const server = createServer(
      listener(async (req, res) => {
        const url = new URL(req.url ?? "/", "http://fake");
        if (url.pathname === "/__received") {
          const contains = url.searchParams.get("contains") ?? "";
          const matching = received.filter((r) => JSON.stringify(r).includes(contains));
          res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(matching));
          return;
        }
        const request: ReceivedRequest = {
          method: req.method ?? "GET",
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: req.headers as Record<string, string>,
          body: await readBody(req),
        };
        received.push(request);
        try {
          const answer = await handle(request, seen);
          res.writeHead(answer.status, answer.headers).end(answer.body);
        } catch (err) {
          res.writeHead(500, { "Content-Type": "text/plain" }).end(`fake ${name} failed: ${String(err)}`);
        }
      }),
    );
    servers.push(server);
    origins[name] = await listen(server);
  }
  return {
    origins,
    sites,
    close: () =>
      Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      ).then(() => undefined),
  };
}
