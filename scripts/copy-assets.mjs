// Copies the API reference page's script from node_modules into the Worker's static assets, so
// /docs needs no CDN. The copy is generated (git-ignored) and redone on every start, test and deploy.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const pkgDir = join(root, "node_modules", "@scalar", "api-reference");
const target = join(root, "public", "assets", "scalar");
mkdirSync(target, { recursive: true });
copyFileSync(join(pkgDir, "dist", "browser", "standalone.js"), join(target, "standalone.js"));
console.log("copy-assets: public/assets/scalar/standalone.js");
