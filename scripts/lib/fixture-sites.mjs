// The fixture publisher sites (test/fixtures/server.ts, TypeScript shared with the tests), bundled
// for Node by the scripts that serve them outside vitest (npm run demo-sites, npm run chaos).
import { build } from "esbuild";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "./project.mjs";

/**
 * Vite's `?raw` imports (a file's text, as the tests import real captures byte for byte), which
 * esbuild does not know: the path without the suffix, loaded as text.
 */
const rawImports = {
  name: "raw-imports",
  setup(build) {
    build.onResolve({ filter: /\?raw$/ }, (args) => ({
      path: join(args.resolveDir, args.path.slice(0, -"?raw".length)),
      namespace: "raw",
    }));
    build.onLoad({ filter: /.*/, namespace: "raw" }, async (args) => ({
      contents: await readFile(args.path, "utf8"),
      loader: "text",
    }));
  },
};

/** Bundles the fixture server into `.cache/<name>.mjs` and returns its module. */
export async function fixtureServer(name) {
  const outfile = join(root, ".cache", `${name}.mjs`);
  await build({
    entryPoints: [join(root, "test/fixtures/server.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    logLevel: "warning",
    plugins: [rawImports],
  });
  return import(pathToFileURL(outfile).href);
}
