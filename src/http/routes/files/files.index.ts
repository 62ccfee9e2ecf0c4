import type { OpenAPIHono } from "@hono/zod-openapi";
import { verifyFileUrl } from "../../../crypto/signed-url";
import { openRangeFile, parseRangeFileKey } from "../../../domain/scrape/page-files";
import type { AppEnv } from "../../context";
import { methodNotAllowed } from "../../middleware/method-guard";

/** Serves raw review files (JSON Lines) from R2 to holders of a valid, unexpired signed URL. */
export function mountFiles(app: OpenAPIHono<AppEnv>) {
  app.get("/files/*", async (c) => {
    const check = await verifyFileUrl(c.env.URL_SIGNING_KEY, new URL(c.req.url), Math.floor(Date.now() / 1000));
    if (!check.ok) {
      return c.json({ error: check.reason === "expired" ? "This link has expired" : "Invalid signature" }, 403);
    }
    // The file holds page-controlled text: a browser that opens the link must neither sniff it into
    // HTML nor render it inline, and nothing in it may load or run anything.
    const headers: Record<string, string> = {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Cache-Control": "private, max-age=300",
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": "attachment",
      "Content-Security-Policy": "default-src 'none'",
    };
    // A range of a large task's page files (see MAX_REVIEWS_URLS), served as one file.
    const range = parseRangeFileKey(check.objectKey);
    if (range) {
      const body = await openRangeFile(c.env, range);
      return body ? new Response(body, { headers }) : c.json({ error: "Not found" }, 404);
    }
    const object = await c.env.REVIEW_FILES.get(check.objectKey);
    if (!object) return c.json({ error: "Not found" }, 404);
    return new Response(object.body, { headers: { ...headers, ETag: object.httpEtag } });
  });
  app.all("/files/*", methodNotAllowed(["GET", "HEAD"]));
}
