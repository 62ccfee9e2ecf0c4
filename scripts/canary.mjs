// npm run canary -- --publisher yelp.com --profile <url> [--route <route>] [--origins <json>]
// Runs one first-page scrape now, with the service's own publisher module, client and checks, and
// prints each step: every request with its answer status, what the adapter parsed, and the verdict.
// By default it reaches the real publisher (PUBLISHER_ORIGINS empty, private networks refused, as
// deployed); --origins points publishers at other origins (fixture sites), --route picks a fetch route
// (FETCH_ROUTES for that publisher). Exits 0 when the first page held reviews, 1 otherwise.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { parse as parseToml, stringify as stringifyToml } from "smol-toml";
import { fail, root, startDetached, toolEnv } from "./lib/project.mjs";
import { freePort, waitUntilReady } from "./lib/dev-server.mjs";
import { WRANGLER } from "./lib/wrangler.mjs";

const { values } = parseArgs({
  options: {
    publisher: { type: "string" },
    profile: { type: "string" },
    route: { type: "string" },
    origins: { type: "string" },
    "allow-private-network": { type: "boolean", default: false },
  },
});
if (!values.publisher || !values.profile) fail("usage: npm run canary -- --publisher <domain> --profile <url or id> [--route <route>] [--origins <json>]");

const state = mkdtempSync(join(tmpdir(), "canary-"));
const configPath = join(root, ".wrangler", `canary-${process.pid}.toml`);
// The service's wrangler.toml with the canary Worker as entry and no queue consumers: the run needs
// the service's bindings (browser, settings) but none of its background work.
const config = parseToml(readFileSync(join(root, "wrangler.toml"), "utf8"));
config.main = "../scripts/canary/worker.ts";
config.assets = { ...config.assets, directory: `../${config.assets.directory.replace(/^\.\//, "")}` };
config.d1_databases = config.d1_databases.map((db) => ({ ...db, migrations_dir: `../${db.migrations_dir.replace(/^\.\//, "")}` }));
config.queues = { producers: config.queues.producers };
delete config.triggers;
writeFileSync(configPath, stringifyToml(config));

const vars = [`ALLOW_PRIVATE_NETWORK:${values["allow-private-network"] || values.origins ? "true" : "false"}`, `PUBLISHER_ORIGINS:${values.origins ?? ""}`];
if (values.route) vars.push(`FETCH_ROUTES:${JSON.stringify({ [values.publisher]: [values.route] })}`);
const port = await freePort();
const child = startDetached(
  WRANGLER,
  [
    "dev",
    "--config",
    configPath,
    "--port",
    String(port),
    "--ip",
    "127.0.0.1",
    "--persist-to",
    state,
    "--inspector-port",
    String(await freePort()),
    ...vars.flatMap((v) => ["--var", v]),
  ],
  { env: toolEnv({ ENCRYPTION_KEY: "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=", URL_SIGNING_KEY: "canary" }) },
);
let output = "";
child.stdout.on("data", (d) => (output = (output + d).slice(-8000)));
child.stderr.on("data", (d) => (output = (output + d).slice(-8000)));
const stop = () => {
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // already gone
  }
  rmSync(configPath, { force: true });
  rmSync(state, { recursive: true, force: true });
};
process.once("SIGINT", () => {
  stop();
  process.exit(130);
});

let ok = false;
try {
  const base = `http://127.0.0.1:${port}`;
  // The canary Worker answers 404 outside /run: any answer means it is listening.
  await waitUntilReady(
    `${base}/`,
    child,
    () => output,
    90_000,
    () => true,
  );
  console.log(`canary: ${values.publisher} ${values.profile}${values.route ? ` via ${values.route}` : ""}`);
  const res = await fetch(`${base}/run?${new URLSearchParams({ publisher: values.publisher, profile: values.profile })}`);
  const result = await res.json();
  for (const { step, detail } of result.steps) {
    if (step === "request" || step === "render") {
      const answer = detail.error
        ? `-> ${detail.error}`
        : `-> ${detail.status}, ${detail.bytes} bytes${detail.final_url !== detail.url ? ` (at ${detail.final_url})` : ""}`;
      console.log(`  ${step === "render" ? "RENDER" : detail.method.padEnd(6)} ${detail.url} ${answer}, ${detail.ms} ms`);
    } else console.log(`  ${step}: ${JSON.stringify(detail)}`);
  }
  console.log(`verdict: ${result.verdict}`);
  ok = result.ok;
} catch (err) {
  console.error(`canary: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  stop();
}
process.exit(ok ? 0 : 1);
