// Points miniflare's Browser Rendering at a local Chromium, offline.
// miniflare looks for a Chrome build of one pinned version in wrangler's cache and downloads it when
// missing, which cannot work without the internet. A small launcher at that path runs a Chromium we
// already have instead:
//   1. CHROMIUM_PATH, when set: a system Chromium or a developer's own Chrome;
//   2. on Linux (x64, arm64), the Chromium that ships inside the @sparticuz/chromium devDependency
//      (a brotli-compressed binary in the npm package: nothing is downloaded at install or run time),
//      decompressed once into the project's cache, so parallel clones never share a /tmp copy;
//   3. elsewhere (macOS, Windows), nothing: miniflare downloads its own Chrome on first use.
// The version is read from every installed miniflare, since it moves with miniflare.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const cacheHome = process.env.XDG_CACHE_HOME || join(root, ".cache");

function miniflareDirs(dir, found = [], depth = 0) {
  if (depth > 6 || !existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    if (entry.name === "miniflare" && existsSync(join(path, "dist/src/index.js"))) found.push(path);
    else if (entry.name === "node_modules" || entry.name.startsWith("@") || depth > 0) {
      miniflareDirs(path, found, depth + 1);
    } else if (depth === 0) {
      miniflareDirs(join(path, "node_modules"), found, depth + 1);
    }
  }
  return found;
}

/**
 * The packaged Chromium, decompressed under the cache (once: later calls find it there). The package
 * extracts into os.tmpdir(), which Node reads from TMPDIR at call time, so pointing TMPDIR at a folder
 * of the cache for the one call puts the binary, its SwiftShader libraries and its fonts there.
 * Returns the binary, or null where the package has no build.
 */
async function packagedChromium() {
  if (process.platform !== "linux" || !["x64", "arm64"].includes(process.arch)) return null;
  const require = createRequire(import.meta.url);
  // The package exports only its entry (build/index.js); its package.json is one folder up.
  const pkg = JSON.parse(
    readFileSync(join(dirname(require.resolve("@sparticuz/chromium")), "..", "package.json"), "utf8"),
  );
  const dir = join(cacheHome, "chromium", `${pkg.version}-${process.arch}`);
  const binary = join(dir, "chromium");
  // Extracted into a folder of its own and renamed into place when whole: an interrupted run never
  // leaves a half-written binary that a later run would take for the real one.
  if (existsSync(join(dir, ".complete"))) return { binary, packaged: true };
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = partial;
  try {
    const { default: Chromium } = await import("@sparticuz/chromium");
    const extracted = await Chromium.executablePath();
    if (dirname(extracted) !== partial)
      throw new Error(`@sparticuz/chromium extracted to ${extracted}, outside ${partial}`);
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
  writeFileSync(join(partial, ".complete"), "");
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  return { binary, packaged: true };
}

/**
 * The launcher's flags. Every Chromium here runs as root in a container without user namespaces
 * (--no-sandbox). The packaged one is a headless shell built for serverless hosts: it has no zygote
 * helper to fork from (--no-zygote) and no GPU stack of its own, so it renders through SwiftShader,
 * which ships beside it (--use-gl=angle --use-angle=swiftshader). Background networking, component
 * updates and sync are off so that nothing tries to reach the internet. The package's own fontconfig
 * (FONTCONFIG_PATH at its fonts folder) is left out on purpose: with it, pages here stopped rendering
 * (the /docs reference never drew); the system's fontconfig serves the tests, which read text, not pixels.
 */
function launcherScript({ binary, packaged }) {
  const common =
    "--no-sandbox --disable-background-networking --disable-component-update --disable-sync --no-first-run";
  const headlessShell = packaged
    ? " --headless=shell --no-zygote --use-gl=angle --use-angle=swiftshader"
    : "";
  return `#!/bin/sh\nexec "${binary}" ${common}${headlessShell} "$@"\n`;
}

const versions = new Set();
for (const dir of miniflareDirs(join(root, "node_modules"))) {
  const match = readFileSync(join(dir, "dist/src/index.js"), "utf8").match(/BROWSER_VERSION = "([\d.]+)"/);
  if (match) versions.add(match[1]);
}
if (versions.size === 0) {
  console.error("setup-browser: no miniflare found; run npm install first");
  process.exit(1);
}

const chromium = process.env.CHROMIUM_PATH
  ? { binary: process.env.CHROMIUM_PATH, packaged: false }
  : await packagedChromium();
if (!chromium) {
  console.log(
    `setup-browser: no packaged Chromium for ${process.platform}-${process.arch}; miniflare downloads Chrome on first use (or set CHROMIUM_PATH).`,
  );
  process.exit(0);
}
if (!existsSync(chromium.binary)) {
  console.error(`setup-browser: CHROMIUM_PATH=${chromium.binary} does not exist`);
  process.exit(1);
}
for (const version of versions) {
  const dir = join(cacheHome, ".wrangler", "chrome", `linux-${version}`, "chrome-linux64");
  mkdirSync(dir, { recursive: true });
  const launcher = join(dir, "chrome");
  writeFileSync(launcher, launcherScript(chromium));
  chmodSync(launcher, 0o755);
}
console.log(`setup-browser: Chrome ${[...versions].join(", ")} -> ${chromium.binary} under ${cacheHome}`);
