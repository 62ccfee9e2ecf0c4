// Loads the Worker's TypeScript in Node: esbuild bundles an entry for Node and the bundle is
// imported. The workerd-only imports the adapters pull in (cloudflare:workers, the browser binding's
// puppeteer) are never called while publisher data is read, so they are empty modules here.
import { build } from "esbuild";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

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

/** The module `contents` (TypeScript, its imports resolved from `resolveDir`), bundled and imported. */
export async function loadForNode(contents, resolveDir, plugins = []) {
  const dir = mkdtempSync(join(tmpdir(), "bundle-"));
  try {
    const outfile = join(dir, "bundle.mjs");
    await build({
      stdin: { contents, resolveDir, loader: "ts" },
      bundle: true,
      platform: "node",
      format: "esm",
      outfile,
      logLevel: "error",
      plugins: [workerdOnly, ...plugins],
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
