/**
 * `npm run canary` as an operator runs it, against fixture sites instead of the real publisher
 * (--origins): one first-page scrape with the service's own module and client, every step printed,
 * and the verdict as exit status.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixtureSites, type FixtureSites } from "../fixtures/server";

const run = promisify(execFile);
let sites: FixtureSites;
beforeAll(async () => {
  sites = await startFixtureSites();
});
afterAll(() => sites.close());

async function canary(args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(
      process.execPath,
      ["scripts/canary.mjs", ...args, "--origins", JSON.stringify(sites.origins)],
      { timeout: 240_000 },
    );
    return { code: 0, stdout };
  } catch (err) {
    const failed = err as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

describe("npm run canary", () => {
  it("prints each request with its answer, what was parsed, and an ok verdict for a working profile", async () => {
    const { code, stdout } = await canary([
      "--publisher",
      "trustpilot.com",
      "--profile",
      "https://www.trustpilot.com/review/multi-0ca0a1e5.com",
    ]);
    expect(stdout).toMatch(
      /^canary: trustpilot\.com https:\/\/www\.trustpilot\.com\/review\/multi-0ca0a1e5\.com$/m,
    );
    expect(stdout).toMatch(
      /^ {2}GET +https:\/\/www\.trustpilot\.com\/review\/multi-0ca0a1e5\.com\S* -> 200, \d+ bytes/m,
    );
    expect(stdout).toMatch(/^ {2}parsed: \{"reviews":\d+,"more_pages":true/m);
    expect(stdout).toMatch(/^verdict: ok: \d+ reviews on the first page$/m);
    expect(code).toBe(0);
  });

  it("names the failure and exits 1 when the profile does not exist", async () => {
    const { code, stdout } = await canary([
      "--publisher",
      "status.test",
      "--profile",
      "https://status.test/gone/canary",
    ]);
    expect(stdout).toMatch(/^verdict: failed: profile_not_found: /m);
    expect(code).toBe(1);
  });

  it("--save writes every answer byte for byte with a SOURCE.md naming its URL, status, size and sha256", async () => {
    const dir = mkdtempSync(join(tmpdir(), "canary-save-"));
    try {
      const profile = "https://www.trustpilot.com/review/multi-0ca0a1e5.com";
      const { code, stdout } = await canary([
        "--publisher",
        "trustpilot.com",
        "--profile",
        profile,
        "--save",
        dir,
      ]);
      expect(code, stdout).toBe(0);
      const files = readdirSync(dir).sort();
      expect(files).toContain("SOURCE.md");
      const saved = files.filter((f) => f !== "SOURCE.md");
      expect(saved[0]).toMatch(/^01-www\.trustpilot\.com\.html$/);
      expect(stdout).toContain(`saved: ${join(dir, saved[0])}`);
      const source = readFileSync(join(dir, "SOURCE.md"), "utf8");
      const row = source.split("\n").find((line) => line.startsWith(`| ${saved[0]} | GET | `));
      expect(row).toBeDefined();
      // The same URL straight from the fixture site: the saved file is exactly its body.
      const url = new URL(row!.split(" | ")[2]);
      expect(url.href.startsWith(profile)).toBe(true);
      const origin = sites.origins["trustpilot.com"];
      const direct = await fetch(`${origin}${url.pathname}${url.search}`, {
        headers: { "X-Forwarded-Host": url.host },
      });
      const served = Buffer.from(await direct.arrayBuffer());
      const file = readFileSync(join(dir, saved[0]));
      expect(file.equals(served)).toBe(true);
      const sha = createHash("sha256").update(file).digest("hex");
      expect(source).toContain(`| 200 | text/html`);
      expect(source).toContain(`| ${file.length} | \`${sha}\` |`);
      expect(source).toMatch(/^- \*\*Verdict of the module on it:\*\* ok: \d+ reviews on the first page$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
