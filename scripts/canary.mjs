// npm run canary -- --publisher yelp.com --profile <url> [--route <route>] [--origins <json>] [--save <dir>]
// Runs one first-page scrape now, with the service's own publisher module, client and checks, and
// prints each step: every request with its answer status, what the adapter parsed, and the verdict.
// By default it reaches the real publisher (PUBLISHER_ORIGINS empty, private networks refused, as
// deployed); --origins points publishers at other origins (fixture sites), --route picks a fetch route
// (FETCH_ROUTES for that publisher). Exits 0 when the first page held reviews, 1 otherwise.
// --save <dir> writes every answer's body as the client received it into <dir>, with a SOURCE.md
// naming each URL, status, content type, size and sha256: a real capture for a module's tests.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
    save: { type: "string" },
  },
});
if (!values.publisher || !values.profile)
  fail(
    "usage: npm run canary -- --publisher <domain> --profile <url or id> [--route <route>] [--origins <json>] [--save <dir>]",
  );

const state = mkdtempSync(join(tmpdir(), "canary-"));
const configPath = join(root, ".wrangler", `canary-${process.pid}.toml`);
// The service's wrangler.toml with the canary Worker as entry and no queue consumers: the run needs
// the service's bindings (browser, settings) but none of its background work.
const config = parseToml(readFileSync(join(root, "wrangler.toml"), "utf8"));
config.main = "../scripts/canary/worker.ts";
config.assets = { ...config.assets, directory: `../${config.assets.directory.replace(/^\.\//, "")}` };
config.d1_databases = config.d1_databases.map((db) => ({
  ...db,
  migrations_dir: `../${db.migrations_dir.replace(/^\.\//, "")}`,
}));
config.queues = { producers: config.queues.producers };
delete config.triggers;
writeFileSync(configPath, stringifyToml(config));

const vars = [
  `ALLOW_PRIVATE_NETWORK:${values["allow-private-network"] || values.origins ? "true" : "false"}`,
  `PUBLISHER_ORIGINS:${values.origins ?? ""}`,
];
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
  {
    env: toolEnv({
      ENCRYPTION_KEY: "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
      URL_SIGNING_KEY: "canary",
    }),
  },
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

/** The file extension of an answer: what its Content-Type says, else what its body starts with. */
function extensionOf(contentType, body) {
  const type = (contentType ?? "").toLowerCase();
  if (type.includes("json")) return "json";
  if (type.includes("html")) return "html";
  const start = body.trimStart()[0];
  return start === "{" || start === "[" ? "json" : start === "<" ? "html" : "txt";
}

/** Writes each answer byte for byte (as UTF-8) and a SOURCE.md describing them. */
function saveCaptures(dir, result) {
  mkdirSync(dir, { recursive: true });
  const date = new Date().toISOString();
  const lines = [
    `# Captured by npm run canary`,
    ``,
    `- **Publisher:** ${values.publisher}; **profile:** ${values.profile}${values.route ? `; **route:** ${values.route}` : ""}`,
    `- **Captured:** ${date} (UTC), by the service's own client (its headers, cookies and checks).`,
    `- **Verdict of the module on it:** ${result.verdict}`,
    `- **Changed:** nothing; each body as the client received it, decoded as UTF-8.`,
    `- **Licence:** a capture of a publicly served page by this project; check the publisher's terms`,
    `  before committing it, and remove personal data the tests do not need.`,
    ``,
    `| File | Method | URL | Final URL | Status | Content-Type | Bytes | sha256 |`,
    `|---|---|---|---|---|---|---|---|`,
  ];
  (result.captures ?? []).forEach((capture, i) => {
    const host = new URL(capture.url).hostname.replace(/[^a-z0-9.-]/gi, "_");
    const name = `${String(i + 1).padStart(2, "0")}-${host}.${extensionOf(capture.content_type, capture.body)}`;
    const bytes = Buffer.from(capture.body, "utf8");
    writeFileSync(join(dir, name), bytes);
    const sha = createHash("sha256").update(bytes).digest("hex");
    lines.push(
      `| ${name} | ${capture.method} | ${capture.url} | ${capture.final_url} | ${capture.status} | ${capture.content_type ?? "-"} | ${bytes.length} | \`${sha}\` |`,
    );
    console.log(`saved: ${join(dir, name)} (${bytes.length} bytes)`);
  });
  writeFileSync(join(dir, "SOURCE.md"), `${lines.join("\n")}\n`);
  console.log(`saved: ${join(dir, "SOURCE.md")}`);
}

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
  const query = new URLSearchParams({
    publisher: values.publisher,
    profile: values.profile,
    ...(values.save ? { save: "1" } : {}),
  });
  const res = await fetch(`${base}/run?${query}`);
  const result = await res.json();
  for (const { step, detail } of result.steps) {
    if (step === "request" || step === "render") {
      const answer = detail.error
        ? `-> ${detail.error}`
        : `-> ${detail.status}, ${detail.bytes} bytes${detail.final_url !== detail.url ? ` (at ${detail.final_url})` : ""}`;
      console.log(
        `  ${step === "render" ? "RENDER" : detail.method.padEnd(6)} ${detail.url} ${answer}, ${detail.ms} ms`,
      );
    } else console.log(`  ${step}: ${JSON.stringify(detail)}`);
  }
  console.log(`verdict: ${result.verdict}`);
  if (values.save) saveCaptures(values.save, result);
  ok = result.ok;
} catch (err) {
  console.error(`canary: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  stop();
}
process.exit(ok ? 0 : 1);
