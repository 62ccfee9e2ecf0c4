import type { OpenAPIHono } from "@hono/zod-openapi";
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { loadHealth, UNKNOWN_HEALTH, type HealthView } from "../../../app/health/read";
import { MODULES, listPublishers } from "../../../publishers/registry";
import type { AppEnv } from "../../context";
import { methodNotAllowed } from "../../middleware/method-guard";
import { settings } from "../../../settings";

/**
 * GET /status: one row per publisher (every dedicated module, and any other publisher with tasks in
 * the last 30 days) with its health and a 24-hour sparkline of the hourly success rate. Plain HTML
 * with its style inline and the sparklines as inline SVG: no script, no asset from anywhere, so it
 * renders offline and under a CSP that allows nothing but that one style block.
 */
const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#1d1d1f}
table{border-collapse:collapse;width:100%}th,td{padding:.35rem .6rem;border-bottom:1px solid #ddd;text-align:left;white-space:nowrap}
th{font-weight:600;background:#f6f6f7}.status{font-weight:600;text-transform:capitalize}
.operational{color:#137333}.degraded{color:#b06000}.failing{color:#c5221f}.unknown{color:#5f6368}
.notice{border:1px solid #b06000;background:#fef7e0;padding:.5rem 1rem;margin:1rem 0}
svg{display:block}rect.none{fill:#e8eaed}rect.ok{fill:#34a853}rect.mid{fill:#fbbc04}rect.bad{fill:#ea4335}`;

let styleHash: Promise<string> | undefined;

async function sha256Base64(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

const STATUS_ORDER = { failing: 0, degraded: 1, operational: 2, unknown: 3 } as const;

function sparkline(hourly: (number | null)[]): HtmlEscapedString | Promise<HtmlEscapedString> {
  const bars = hourly.map((rate, i) => {
    const height = rate === null ? 2 : Math.max(2, Math.round(rate * 20));
    const kind = rate === null ? "none" : rate >= 0.9 ? "ok" : rate >= 0.5 ? "mid" : "bad";
    const title = rate === null ? "no tasks" : `${Math.round(rate * 100)}% succeeded`;
    return `<rect class="${kind}" x="${i * 5}" y="${20 - height}" width="4" height="${height}"><title>${23 - i} h ago: ${title}</title></rect>`;
  });
  return html`<svg
    width="120"
    height="20"
    viewBox="0 0 120 20"
    role="img"
    aria-label="success rate per hour, last 24 hours"
  >
    ${raw(bars.join(""))}
  </svg>`;
}

function when(ms: number | null): string {
  return ms === null ? "—" : new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");
}

export function mountStatus(app: OpenAPIHono<AppEnv>) {
  app.get("/status", async (c) => {
    const now = Date.now();
    const health = await loadHealth(c.env, now);
    const dedicated = new Set(MODULES.flatMap((m) => m.domains.slice(0, 1)));
    const rows = listPublishers()
      .filter((p) => dedicated.has(p.domain) || health.has(p.domain))
      .map((p) => ({
        publisher: p,
        view:
          health.get(p.domain) ??
          ({ health: UNKNOWN_HEALTH, hourly: Array<number | null>(24).fill(null) } satisfies HealthView),
      }))
      .sort(
        (a, b) =>
          STATUS_ORDER[a.view.health.status] - STATUS_ORDER[b.view.health.status] ||
          a.publisher.domain.localeCompare(b.publisher.domain),
      );
    // Optional settings that are missing (docs/configuration.md): said here without naming a
    // provider or a secret, since the page is public; the log has the names.
    const notices = [...new Set(settings(c.env).incomplete.map((i) => i.notice))];
    styleHash ??= sha256Base64(STYLE);
    const csp = `default-src 'none'; style-src 'sha256-${await styleHash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
    const page = html`<!doctype html>
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <title>Publisher status</title>
          ${raw(`<style>${STYLE}</style>`)}
        </head>
        <body>
          <h1>Publisher status</h1>
          <p>As of ${when(now)}. Health rule: docs/health.md.</p>
          ${
            notices.length
              ? html`<section class="notice" id="operator-notice">
                  <h2>Operator notice</h2>
                  <p>
                    Some optional settings are incomplete; the service log ("settings incomplete") names them.
                  </p>
                  <ul>
                    ${notices.map((notice) => html`<li>${notice}</li>`)}
                  </ul>
                </section>`
              : ""
          }
          <table>
            <thead>
              <tr>
                <th>Publisher</th>
                <th>Status</th>
                <th>Success (24 h)</th>
                <th>Tasks (24 h)</th>
                <th>Last success</th>
                <th>Last failure</th>
                <th>Last 24 hours</th>
              </tr>
            </thead>
            <tbody>
              ${rows.map(
                ({ publisher, view: { health: h, hourly } }) =>
                  html`<tr data-publisher="${publisher.domain}">
                    <td>${publisher.displayName} <small>${publisher.domain}</small></td>
                    <td class="status ${h.status}">${h.status}</td>
                    <td>${h.success_rate_24h === null ? "—" : `${Math.round(h.success_rate_24h * 100)}%`}</td>
                    <td>${h.tasks_24h}</td>
                    <td>${when(h.last_success_at)}</td>
                    <td>${h.last_failure_reason ?? "—"}</td>
                    <td>${sparkline(hourly)}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
        </body>
      </html>`;
    return c.html(page, 200, { "Content-Security-Policy": csp, "Cache-Control": "no-store" });
  });
  app.all("/status", methodNotAllowed(["GET", "HEAD"]));
}
