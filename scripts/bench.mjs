// Load test through `wrangler dev`: npm run bench [-- --duration 10 --connections 50]
// Starts the Worker on a free loopback port with its own throwaway local state and no queue
// consumers (queued tasks stay queued, so scraping does not compete with the API for the CPU),
// creates an unlimited-plan key, then measures a baseline route, retrieve of a queued task, and
// submit. Figures are only comparable side by side within one run on one machine.
import autocannon from "autocannon";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createKey } from "./keys.mjs";
import { fail, root, startDetached } from "./lib/project.mjs";
import { WRANGLER, applyMigrationsQuietly } from "./lib/wrangler.mjs";
import { randomBytes } from "node:crypto";

const { values: options } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
  },
});
const duration = Number(options.duration);
const connections = Number(options.connections);
if (!(duration > 0 && duration <= 300) || !(Number.isInteger(connections) && connections > 0 && connections <= 1000)) {
  fail("--duration must be 1-300 seconds and --connections 1-1000");
}

// Same config as wrangler.toml minus queue consumers, like the tests' (vitest.config.ts). It has
// to sit next to wrangler.toml because the paths inside are relative to it.
const benchConfig = join(root, ".wrangler.bench.toml");
const JOB = "App\\Jobs\\RequestReviews";

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(base, child, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
    try {
      const res = await fetch(base, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("wrangler dev did not become ready in time");
}

function submitBody(apiKey) {
  return {
    job: JOB,
    data: {
      api_key: apiKey,
      foreign_key: "bench-1",
      business: {
        id: "bench-biz",
        name: "Blue Door Cafe",
        address: { street: "1 Market St", city: "San Francisco", state: "CA", zip: "94105", country: "USA" },
        phone: "+1 415 555 0100",
        description: "Neighbourhood cafe",
        tags: ["cafe"],
      },
      publishers: { "example.com": { profile_key: "https://example.com/biz/blue-door", last_review_hashes: [], first_page_only: true } },
    },
  };
}

function load(title, request) {
  return new Promise((resolve, reject) => {
    autocannon({ connections, duration, ...request }, (err, result) => {
      if (err) return reject(err);
      resolve({
        title,
        requests_per_second: Math.round(result.requests.average),
        latency_ms: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
        responses: result.requests.total,
        non_2xx: result.non2xx,
        errors: result.errors + result.timeouts,
      });
    });
  });
}

function printTable(results) {
  const rows = results.map((r) => [r.title, r.requests_per_second, r.latency_ms.p50, r.latency_ms.p90, r.latency_ms.p99, r.non_2xx, r.errors]);
  const header = ["scenario", "req/s", "p50 ms", "p90 ms", "p99 ms", "non-2xx", "errors"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  ");
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

async function main() {
  const state = mkdtempSync(join(tmpdir(), "bench-state-"));
  writeFileSync(benchConfig, readFileSync(join(root, "wrangler.toml"), "utf8").replace(/^\[\[queues\.consumers\]\][\s\S]*?(?=^\[)/gm, ""));
  let child;
  const stop = () => {
    if (child && child.exitCode === null) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    rmSync(benchConfig, { force: true });
    rmSync(state, { recursive: true, force: true });
  };
  process.once("SIGINT", () => {
    stop();
    process.exit(130);
  });
  try {
    applyMigrationsQuietly({ persistTo: state });
    const { key } = createKey({ account: "bench", plan: "unlimited", persistTo: state, log: () => {} });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = startDetached(WRANGLER, [
      "dev", "-c", benchConfig, "--ip", "127.0.0.1", "--port", String(port), "--persist-to", state, "--log-level", "error",
      // Throwaway secrets for this run, instead of whatever .dev.vars holds.
      "--var", `ENCRYPTION_KEY:${randomBytes(32).toString("base64")}`, "--var", `URL_SIGNING_KEY:${randomBytes(32).toString("base64url")}`,
    ]);
    let log = "";
    child.stdout.on("data", (d) => (log += d));
    child.stderr.on("data", (d) => (log += d));
    try {
      await waitUntilReady(`${base}/`, child);
    } catch (err) {
      throw new Error(`${err.message}\n${log.slice(-4000)}`);
    }
    const headers = { "content-type": "application/json" };
    const submitted = await fetch(`${base}/submit/request-reviews/`, { method: "POST", headers, body: JSON.stringify(submitBody(key)) });
    if (submitted.status !== 201) throw new Error(`submit answered ${submitted.status}: ${await submitted.text()}`);
    const task = await submitted.json();
    const retrieveBody = { api_key: key, foreign_key: "bench-1", publisher_key: task.publisher_key, task_id: task.tasks_id };

    console.log(`wrangler dev on ${base}; ${connections} connections, ${duration} s per scenario`);
    const results = [];
    results.push(await load("GET / (baseline)", { url: `${base}/` }));
    results.push(await load("POST /retrieve-task/ (queued task)", { url: `${base}/retrieve-task/`, method: "POST", headers, body: JSON.stringify(retrieveBody) }));
    results.push(await load("POST /submit/request-reviews/ (unlimited plan)", { url: `${base}/submit/request-reviews/`, method: "POST", headers, body: JSON.stringify(submitBody(key)) }));
    printTable(results);
    const outDir = join(root, "bench-results");
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, `${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), connections, duration, results }, null, 2));
    console.log(`results: ${file}`);
  } finally {
    stop();
  }
}

main().catch((err) => {
  fail(err instanceof Error ? err.message : String(err));
});
