// Serves the test suite's fixture publisher sites (multipage.test, graph.test, jsrendered.test, ...)
// on fixed loopback ports and points the local Worker at them through PUBLISHER_ORIGINS in
// .dev.vars, so `npm start` can scrape them like real publishers. Stop with Ctrl-C.
import { fixtureServer } from "./lib/fixture-sites.mjs";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const basePort = Number(process.argv.find((a) => a.startsWith("--base-port="))?.split("=")[1] ?? 9101);

// The fixture server is TypeScript shared with the tests: bundle it once for Node.
const { startFixtureSites } = await fixtureServer("demo-sites");
const sites = await startFixtureSites({ basePort });

const devVars = join(root, ".dev.vars");
const line = `PUBLISHER_ORIGINS=${JSON.stringify(sites.origins)}`;
const current = existsSync(devVars) ? readFileSync(devVars, "utf8") : "";
const updated = /^PUBLISHER_ORIGINS=.*$/m.test(current)
  ? current.replace(/^PUBLISHER_ORIGINS=.*$/m, line)
  : `${current.replace(/\n?$/, "\n")}${line}\n`;
if (updated !== current) {
  writeFileSync(devVars, updated, { mode: 0o600 });
  console.log("demo-sites: wrote PUBLISHER_ORIGINS to .dev.vars (restart `npm start` to pick it up)");
}
for (const [domain, origin] of Object.entries(sites.origins)) console.log(`  ${domain.padEnd(18)} ${origin}`);
console.log('demo-sites: try profile_key "https://multipage.test/biz/demo" with publisher "multipage.test"');

const stop = () => sites.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
