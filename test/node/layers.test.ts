/**
 * The layer rule (lint/layers.js) that `npm run lint` runs over src/: an import against the layers
 * fails, one along them passes, and the project's own config turns it on.
 */
import { ESLint } from "eslint";
import { resolve } from "node:path";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import { layersConfig } from "../../lint/layers.js";

const root = resolve(import.meta.dirname, "../..");
// The layer rule alone (it needs no type information), on the project's TypeScript parser.
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: true,
  overrideConfig: [{ files: ["**/*.ts"], languageOptions: { parser: tseslint.parser } }, layersConfig],
});

async function findings(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe("layer rule", () => {
  it.each([
    [
      "src/core/crossing.ts",
      'import { database } from "../db/client";',
      "core may not import storage, db, queue, account",
    ],
    ["src/core/reviews/crossing.ts", 'export { log } from "../../log";', "core may not import shared"],
    [
      "src/publishers/yelp/crossing.ts",
      'import { ApiError } from "../../http/errors";',
      "publishers, scraping may not import http",
    ],
    [
      "src/scraping/crossing.ts",
      'import { runScrape } from "../app/scrape/run";',
      "publishers, scraping may not import app",
    ],
    [
      "src/storage/crossing.ts",
      'import { registry } from "../publishers/registry";',
      "storage, db, queue, account may not import publishers, scraping",
    ],
    ["src/app/crossing.ts", 'const m = await import("../http/app");', "app may not import http"],
  ])("refuses an upward import in %s", async (file, code, message) => {
    expect(await findings(file, code)).toEqual([
      expect.stringContaining(`layers/no-upward-import: ${message}`),
    ]);
  });

  it("keeps the core free of I/O packages", async () => {
    expect(await findings("src/core/crossing.ts", 'import { eq } from "drizzle-orm";')).toEqual([
      expect.stringContaining("The core is pure"),
    ]);
    expect(
      await findings("src/core/crossing.ts", 'import { DurableObject } from "cloudflare:workers";'),
    ).toEqual([expect.stringContaining("The core is pure")]);
  });

  it("keeps client/ self-contained", async () => {
    expect(await findings("client/crossing.ts", 'import { x } from "../src/core/webhooks/signing";')).toEqual(
      [expect.stringContaining("client/ is copied")],
    );
    expect(await findings("client/crossing.ts", 'import { x } from "./verify-webhook";')).toEqual([]);
  });

  it.each([
    // Resolved, not read as text: core/publishers/ is core, app/queue/ is app.
    ["src/core/reviews/ok.ts", 'import { isOnDomain } from "../publishers/canonical";'],
    ["src/app/scrape/ok.ts", 'import { dispatchTasks } from "../queue/dispatch";'],
    ["src/http/ok.ts", 'import { submit } from "../app/tasks/submit";'],
    ["src/publishers/ok.ts", 'import { permanentError } from "../scraping/errors";'],
    ["src/storage/ok.ts", 'import { database } from "../db/client";'],
    ["src/scraping/ok.ts", 'import { settings } from "../settings";'],
  ])("lets %s import along the layers", async (file, code) => {
    expect(await findings(file, code)).toEqual([]);
  });

  it("finds nothing in src/ as it is", async () => {
    const results = await eslint.lintFiles(["src/**/*.ts"]);
    expect(results.length).toBeGreaterThan(100);
    expect(
      results.flatMap((r) =>
        r.messages.filter((m) => m.ruleId?.startsWith("layers/")).map((m) => `${r.filePath}: ${m.message}`),
      ),
    ).toEqual([]);
  });

  it("is on in the project's lint config", async () => {
    const config = (await new ESLint({ cwd: root }).calculateConfigForFile("src/core/countries.ts")) as {
      rules: Record<string, unknown>;
    };
    expect(config.rules["layers/no-upward-import"]).toEqual([2]);
  });
});
