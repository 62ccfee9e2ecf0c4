import type { OpenAPIHono } from "@hono/zod-openapi";
import { verifyFileUrl } from "../../../storage/signed-url";
import { openReviewFile } from "../../../storage/review-files";
import type { AppEnv } from "../../context";
import { methodNotAllowed } from "../../middleware/method-guard";

/** Serves raw review files (JSON Lines) and whole-task exports (CSV, NDJSON) from R2 to holders of a valid, unexpired signed URL. */
export function mountFiles(app: OpenAPIHono<AppEnv>) {
  app.get("/files/*", async (c) => {
    const check = await verifyFileUrl(
      c.env.URL_SIGNING_KEY,
      new URL(c.req.url),
      Math.floor(Date.now() / 1000),
    );
    if (!check.ok) {
      return c.json(
        { error: check.reason === "expired" ? "This link has expired" : "Invalid signature" },
        403,
      );
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
    const file = await openReviewFile(c.env, check.objectKey);
    if (!file) return c.json({ error: "Not found" }, 404);
    if (file.contentType) headers["Content-Type"] = file.contentType;
    if (file.fileName) headers["Content-Disposition"] = `attachment; filename="${file.fileName}"`;
    return new Response(file.body, { headers: file.etag ? { ...headers, ETag: file.etag } : headers });
  });
  app.all("/files/*", methodNotAllowed(["GET", "HEAD"]));
}
