// npm run readme:publishers: rewrites docs/publishers.md's publisher table (between <!-- publishers:start -->
// and <!-- publishers:end -->) from the registry, src/publishers/registry.ts. The registry is
// TypeScript written for workerd, so esbuild bundles the table module for Node first; the
// workerd-only imports it pulls in through the adapters (cloudflare:workers, the browser binding's
// puppeteer) are never called while the table is built, so they are replaced by empty modules.
import { build } from "esbuild";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { fail, root } from "./lib/project.mjs";

const { values: options } = parseArgs({ options: { check: { type: "boolean", default: false } } });

const workerdOnly = {
  name: "workerd-only",
  setup(b) {
    b.onResolve({ filter: /^(cloudflare:|@cloudflare\/puppeteer$)/ }, (args) => ({
      path: args.path,
      namespace: "workerd-only",
    }));
    b.onLoad({ filter: /.*/, namespace: "workerd-only" }, () => ({
      contents:
        "export default {}; export class DurableObject {}; export class WorkerEntrypoint {}; export class TimeoutError extends Error {}; export const env = {};",
      loader: "js",
    }));
  },
};

const dir = mkdtempSync(join(tmpdir(), "readme-publishers-"));
try {
  const outfile = join(dir, "table.mjs");
  await build({
    entryPoints: [join(root, "src/publishers/table.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    logLevel: "error",
    plugins: [workerdOnly],
  });
  const { withPublisherTable } = await import(pathToFileURL(outfile).href);
  const path = join(root, "docs", "publishers.md");
  const before = readFileSync(path, "utf8");
  const after = withPublisherTable(before);
  if (options.check) {
    if (after !== before)
      fail("docs/publishers.md's publisher table is out of date: run npm run readme:publishers");
    console.log("docs/publishers.md's publisher table is up to date");
  } else if (after === before) console.log("docs/publishers.md's publisher table is already up to date");
  else {
    writeFileSync(path, after);
    console.log("docs/publishers.md's publisher table rewritten");
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
