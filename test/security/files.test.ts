import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signFileUrl } from "../../src/storage/signed-url";
import { call } from "../helpers/api";

describe("GET /files/…", () => {
  it("answers 403 for a path whose percent-encoding is malformed, signed or not", async () => {
    for (const path of [
      "/files/%E0%A4%A?expires=9999999999&signature=x",
      "/files/tasks/%ZZ/pages/1.jsonl?expires=9999999999&signature=x",
      "/files/%?expires=1&signature=x",
    ]) {
      const res = await call(path);
      expect(res.status, path).toBe(403);
      expect(await res.json()).toEqual({ error: "Invalid signature" });
    }
  });

  it("serves page-controlled content as a download that is never sniffed, rendered inline or allowed to load anything", async () => {
    const key = `tasks/${crypto.randomUUID()}/pages/1.jsonl`;
    await env.REVIEW_FILES.put(key, '{"text":"<script>alert(1)</script><html>"}\n');
    const url = new URL(
      await signFileUrl(env.URL_SIGNING_KEY, "https://api.test", key, Math.floor(Date.now() / 1000) + 600),
    );
    const res = await call(url.pathname + url.search);
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Content-Disposition")).toBe("attachment");
    expect(res.headers.get("Content-Security-Policy")).toBe("default-src 'none'");
    expect(await res.text()).toBe('{"text":"<script>alert(1)</script><html>"}\n');
  });
});
