import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../context";

export const OPENAPI_INFO = {
  openapi: "3.1.0",
  info: {
    title: "Review Collection API",
    version: "1.0.0",
    description:
      "Collects customer reviews of one business from review publishers. Submit a request, then retrieve each publisher task's reviews page by page or receive signed webhook notifications. Or register a monitor to collect on a schedule and receive each new, edited or deleted review as a signed event. The API key travels in the JSON body; no authentication header is used.",
  },
  servers: [{ url: "/" }],
};

/** The reference page loads only assets the Worker serves itself, so it works offline and under this CSP. */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * Scalar settings that keep the page self-contained: no font CDN, no telemetry, and none of the
 * hosted extras (AI agent, MCP generator, developer toolbar) that call scalar.com services.
 */
const SCALAR_CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
};

/** Escapes a JSON text for a single-quoted HTML attribute. */
const attribute = (value: unknown) => JSON.stringify(value).replace(/&/g, "&amp;").replace(/'/g, "&#39;");

const DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Review Collection API reference</title>
  </head>
  <body>
    <script id="api-reference" data-url="/openapi.json" data-configuration='${attribute(SCALAR_CONFIGURATION)}'></script>
    <script src="/assets/scalar/standalone.js"></script>
  </body>
</html>`;

export function mountDocs(app: OpenAPIHono<AppEnv>) {
  app.doc31("/openapi.json", OPENAPI_INFO);
  app.get("/docs", (c) => c.html(DOCS_HTML, 200, { "Content-Security-Policy": DOCS_CSP }));
  app.get("/docs/", (c) => c.redirect("/docs", 301));
}
