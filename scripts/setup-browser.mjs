// Points miniflare's Browser Rendering at Debian's Chromium.
// miniflare looks for a Chrome build of one pinned version in wrangler's cache and downloads it
// when missing, which cannot work offline. A small launcher at that path runs /usr/bin/chromium
// instead. The version is read from every installed miniflare, since it moves with miniflare.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const cacheHome = process.env.XDG_CACHE_HOME || join(root, ".cache");
const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

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

const versions = new Set();
for (const dir of miniflareDirs(join(root, "node_modules"))) {
  const match = readFileSync(join(dir, "dist/src/index.js"), "utf8").match(/BROWSER_VERSION = "([\d.]+)"/);
  if (match) versions.add(match[1]);
}
if (versions.size === 0) {
  console.error("setup-browser: no miniflare found; run npm install first");
  process.exit(1);
}
if (!existsSync(chromium)) {
  console.warn(`setup-browser: ${chromium} is missing; install it with 'apt-get install chromium'.`);
}
for (const version of versions) {
  const dir = join(cacheHome, ".wrangler", "chrome", `linux-${version}`, "chrome-linux64");
  mkdirSync(dir, { recursive: true });
  const launcher = join(dir, "chrome");
  writeFileSync(
    launcher,
    `#!/bin/sh\nexec ${chromium} --no-sandbox --disable-background-networking --disable-component-update --disable-sync --no-first-run "$@"\n`,
  );
  chmodSync(launcher, 0o755);
}
console.log(`setup-browser: Chrome ${[...versions].join(", ")} -> ${chromium} under ${cacheHome}`);
