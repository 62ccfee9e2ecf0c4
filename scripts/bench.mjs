// Load test through `wrangler dev`: npm run bench [-- --duration 5 --connections 20]
//
// Starts two Workers with the same wrangler, each on its own free loopback port: the service (its
// own throwaway local state, no queue consumers, so scraping never competes for the CPU) and a
// hello-world Worker script (scripts/bench/hello-worker.mjs; a Worker, not a static asset). Every
// scenario is measured right after a hello-world measurement of the same length and connections,
// and reported as a ratio to it, so the figures mean something on a busy shared machine.
//
// Round trips are measured, not inferred: the service runs with BENCH_COUNT_D1=true, which wraps its
// D1 and queue bindings (src/bench/round-trips.ts) and reports each request's D1 round trips and
// queue sends in response headers; the bench samples them per scenario (cold key cache first).
import autocannon from "autocannon";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { parse as parseToml, stringify as stringifyToml } from "smol-toml";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createKey } from "./keys.mjs";
import { newApiKey } from "./lib/api-keys.mjs";
import { fail, root, runCaptured } from "./lib/project.mjs";
import { sqlInteger, sqlText } from "./lib/sql.mjs";
import { DB_BINDING, WRANGLER, applyMigrationsQuietly } from "./lib/wrangler.mjs";
import { runBatchBench } from "./bench/batch.mjs";
import { runDrain } from "./bench/drain.mjs";
import { freePort, printTable, startWrangler, waitUntilReady } from "./bench/support.mjs";

const { values: options } = parseArgs({
  options: {
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "20" },
    // Comma-separated scenario kinds to run (submit, unfinished, p50-first, …); default all.
    only: { type: "string" },
    // Extra Worker vars for the service, e.g. --var LOG_REQUESTS:false (repeatable).
    var: { type: "string", multiple: true, default: [] },
    // The drain benchmark (--only drain): tasks of 5 pages, each page answered after --latency ms.
    tasks: { type: "string", default: "500" },
    // Records a CPU profile of the service's Worker during each timed load (bench-results/*.cpuprofile)
    // and prints the functions with the most self time.
    profile: { type: "boolean", default: false },
    latency: { type: "string", default: "200" },
    // The batch scenario (--only batch, docs/benchmarks.md): items per batch and rounds side by side.
    "batch-items": { type: "string", default: "500" },
    "batch-rounds": { type: "string", default: "3" },
  },
});
const duration = Number(options.duration);
const connections = Number(options.connections);
if (
  !(duration > 0 && duration <= 300) ||
  !(Number.isInteger(connections) && connections > 0 && connections <= 1000)
) {
  fail("--duration must be 1-300 seconds and --connections 1-1000");
}

// Same config as wrangler.toml minus queue consumers, like the tests' (vitest.config.ts). Both
// configs sit next to wrangler.toml because the paths inside are relative to it.
const benchConfig = join(root, ".wrangler.bench.toml");
const helloConfig = join(root, ".wrangler.bench-hello.toml");
const sinkConfig = join(root, ".wrangler.bench-sink.toml");
const floorConfig = join(root, ".wrangler.bench-floor.toml");
const JOB = "App\\Jobs\\RequestReviews";

// The seeded completed task: 10,000 reviews on 500 scraped pages (500 raw files, listed as 100 signed ranges).
const BIG = {
  requestId: "bench-request-10k",
  taskId: "bench-task-10k",
  siblingId: "bench-task-10k-b",
  foreignKey: "bench-10k",
  reviews: 10_000,
  pages: 500,
};

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
      publishers: {
        "example.com": {
          profile_key: "https://example.com/biz/blue-door",
          last_review_hashes: [],
          first_page_only: true,
        },
      },
    },
  };
}

/**
 * SQL for one completed task of BIG.reviews reviews, shaped like the ones scraping stores. The reviews
 * go in as rows of the pre-0010 table; the service's own move step (its cron, triggered once the
 * service is up) writes them to the task's R2 store, as an upgrade does.
 */
function seedSql(coldKeys) {
  const now = Date.now();
  const business = JSON.stringify(submitBody("").data.business);
  const account = "(SELECT id FROM accounts WHERE name = 'bench')";
  const files = JSON.stringify(
    Array.from({ length: BIG.pages }, (_, i) => `tasks/${BIG.taskId}/pages/${i + 1}.jsonl`),
  );
  const task = (id, position, status, files, found) =>
    `INSERT INTO tasks (id, request_id, account_id, foreign_key, publisher_key, position, profile_key, profile_url, status, options, pages_scraped, reviews_found, files, created_at, updated_at, finished_at) VALUES (` +
    [
      sqlText(id),
      sqlText(BIG.requestId),
      account,
      sqlText(BIG.foreignKey),
      sqlText(position === 0 ? "example.com" : "example.org"),
      sqlInteger(position),
      sqlText(`https://example.com/biz/${id}`),
      "NULL",
      sqlInteger(status),
      sqlText('{"last_review_hashes":[],"first_page_only":false,"lazy":false}'),
      sqlInteger(found ? BIG.pages : 0),
      sqlInteger(found ? BIG.reviews : 0),
      sqlText(files),
      sqlInteger(now),
      sqlInteger(now),
      sqlInteger(now),
    ].join(", ") +
    ");";
  const lines = [
    `INSERT INTO requests (id, account_id, foreign_key, lazy, business, base_url, created_at) VALUES (${sqlText(BIG.requestId)}, ${account}, ${sqlText(BIG.foreignKey)}, 0, ${sqlText(business)}, 'http://127.0.0.1', ${sqlInteger(now)});`,
    task(BIG.taskId, 0, 200, files, true),
    task(BIG.siblingId, 1, 100, "[]", false),
    // One unused key per scenario, so its first request shows the round trips of a cold key cache.
    ...coldKeys.map(
      (k) =>
        `INSERT INTO api_keys (id, account_id, prefix, key_hash, created_at) VALUES (${sqlText(k.id)}, ${account}, ${sqlText(k.prefix)}, ${sqlText(k.hash)}, ${sqlInteger(now)});`,
    ),
  ];
  const text =
    "Lovely spot, the flat white is excellent and the staff are friendly. We came back twice in one week and would again. "
      .repeat(2)
      .trim();
  for (let start = 0; start < BIG.reviews; start += 100) {
    const values = [];
    for (let i = start; i < Math.min(start + 100, BIG.reviews); i++) {
      const reviewId = `bench-review-${String(i).padStart(5, "0")}`;
      const postedAt = now - i * 3_600_000;
      const data = {
        review_id: reviewId,
        author_name: `Reviewer ${i}`,
        author_id: null,
        rating: (i % 5) + 1,
        text,
        url: `https://example.com/reviews/${reviewId}`,
        posted_at: postedAt,
        review_hash: randomBytes(16).toString("hex"),
        language: "en",
        source_date: new Date(postedAt).toISOString().slice(0, 10),
        scraped_at: now,
      };
      values.push(
        `(${sqlText(BIG.taskId)}, ${sqlText(reviewId)}, ${sqlInteger(postedAt)}, ${sqlInteger(i + 1)}, ${sqlText(JSON.stringify(data))})`,
      );
    }
    lines.push(
      `INSERT INTO legacy_reviews (task_id, review_id, posted_at, position, data) VALUES ${values.join(",\n")};`,
    );
  }
  return lines.join("\n");
}

/** Bytes per position in a task's R2 index (src/storage/task-reviews.ts, RECORD_BYTES). */
const RECORD_BYTES = 20;

/**
 * The index range an unfiltered page reads (src/storage/task-reviews.ts, readPageJson): the records
 * of its positions and the one before, so the floor reads the same bytes of its own index.
 */
function pageIndexRange(serviceBody) {
  const { page, page_size: size } = JSON.parse(serviceBody).pagination;
  const start = (page - 1) * size;
  const first = Math.max(0, start - 1);
  const end = Math.min(BIG.reviews, start + size);
  return { offset: first * RECORD_BYTES, length: (end - first) * RECORD_BYTES };
}

/** Runs the service's cron (wrangler dev --test-scheduled) until the seeded rows are in R2. */
async function moveSeededReviews(base, state) {
  for (let tick = 0; tick < 10; tick++) {
    const res = await fetch(`${base}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
    await res.text();
    const left = runCaptured(WRANGLER, [
      "d1",
      "execute",
      DB_BINDING,
      "--local",
      "--persist-to",
      state,
      "--json",
      "--command",
      `SELECT count(*) AS n FROM sqlite_master WHERE name = 'legacy_reviews'`,
    ]);
    if (left.status === 0 && JSON.parse(left.stdout)[0].results[0].n === 0) return;
  }
  throw new Error("the move step did not move the seeded reviews to R2 within 10 cron ticks");
}

function load(url, request) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, ...request }, (err, result) => {
      if (err) return reject(err);
      resolve({
        requests_per_second: Math.round(result.requests.average),
        latency_ms: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99 },
        responses: result.requests.total,
        non_2xx: result.non2xx,
        errors: result.errors + result.timeouts,
      });
    });
  });
}

/**
 * Sends a scenario's request a few times, checks the answers and reads the measured round trips:
 * first with a key the service has not seen (cold key cache), then with the bench key (warm).
 */
async function sample(url, requestFor, coldKey, key, check) {
  const counts = [];
  for (const k of [coldKey, key, key]) {
    const request = requestFor(k);
    // Only these sampling requests ask to be counted; the timed load runs without the counting wrappers.
    const res = await fetch(url, {
      method: request.method ?? "GET",
      headers: { ...request.headers, "X-Bench-Count": "1" },
      body: request.body,
    });
    const text = await res.text();
    const problem = check(res.status, text);
    if (problem) throw new Error(`${url}: ${problem} (HTTP ${res.status}: ${text.slice(0, 300)})`);
    counts.push({
      d1: Number(res.headers.get("x-bench-d1-round-trips")),
      queue: Number(res.headers.get("x-bench-queue-sends")),
      r2: Number(res.headers.get("x-bench-r2-reads")),
      bytes: text.length,
      text,
    });
  }
  const strip = ({ text: _text, ...count }) => count;
  return {
    cold: strip(counts[0]),
    warm: strip(counts[counts.length - 1]),
    body: counts[counts.length - 1].text,
  };
}

/**
 * Starts a CPU profile of the service's Worker through its inspector port (wrangler dev proxies the
 * DevTools protocol to the Worker). `stop` saves it under bench-results/ and prints the functions
 * with the most self time, by script and function.
 */
async function startProfile(inspectorPort) {
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
  const target = targets.find((t) => t.webSocketDebuggerUrl) ?? targets[0];
  // The `ws` client (wrangler's own dependency): the inspector proxy refuses undici's WebSocket handshake.
  const { default: WebSocket } = await import("ws");
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  let id = 0;
  const pending = new Map();
  ws.on("message", (data) => {
    const message = JSON.parse(String(data));
    if (message.id && pending.has(message.id)) {
      pending.get(message.id)(message.result);
      pending.delete(message.id);
    }
  });
  const call = (method, params = {}) =>
    new Promise((resolve) => {
      pending.set(++id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: 200 });
  await call("Profiler.start");
  return {
    async stop(kind) {
      const { profile } = await call("Profiler.stop");
      ws.close();
      const outDir = join(root, "bench-results");
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, `${kind}.cpuprofile`), JSON.stringify(profile));
      const self = new Map();
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      let total = 0;
      profile.samples.forEach((sampleId, i) => {
        const node = byId.get(sampleId);
        const dt = profile.timeDeltas[i] ?? 0;
        total += dt;
        const { functionName, url, lineNumber } = node.callFrame;
        const name = `${functionName || "(anonymous)"} ${url.split("/").slice(-2).join("/")}:${lineNumber + 1}`;
        self.set(name, (self.get(name) ?? 0) + dt);
      });
      const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);
      console.log(`  profile of ${kind} (self time, top 25 of ${(total / 1000).toFixed(0)} ms sampled):`);
      for (const [name, us] of top)
        console.log(`    ${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`);
    },
  };
}

/**
 * Gets the binding floor ready for a scenario and returns the URL to load: for a retrieve, the
 * service's answer is stored in the floor's D1 and read back once to check that the floor answers
 * it byte for byte; for a submit, the floor's answer must be as long as the service's.
 */
async function prepareFloor(floorBase, scenario, serviceBody, request) {
  const isSubmit = scenario.kind === "submit";
  const isPage = scenario.kind.startsWith("p");
  const url = isSubmit
    ? `${floorBase}/submit`
    : `${floorBase}/${isPage ? "retrieve-r2" : "retrieve"}/${scenario.kind}`;
  if (!isSubmit) {
    const index = isPage ? (scenario.floorIndex ?? pageIndexRange(serviceBody)) : null;
    const query = index ? `?index_offset=${index.offset}&index_length=${index.length}` : "";
    const stored = await fetch(`${floorBase}/__answer/${scenario.kind}${query}`, {
      method: "PUT",
      body: serviceBody,
    });
    if (!stored.ok) throw new Error(`floor: storing the ${scenario.kind} answer failed (${stored.status})`);
  }
  const res = await fetch(url, {
    method: request.method ?? "GET",
    headers: request.headers,
    body: request.body,
  });
  const text = await res.text();
  const expected = isSubmit ? 201 : 200;
  if (res.status !== expected) throw new Error(`floor ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  if (isSubmit ? text.length !== serviceBody.length : text !== serviceBody) {
    throw new Error(
      `floor ${url}: its answer (${text.length} bytes) is not the service's (${serviceBody.length} bytes)`,
    );
  }
  return url;
}

/**
 * CPU seconds used so far by every process of a detached child's process group (wrangler, its
 * workerd), read from /proc; null where there is no /proc. Divided by a measurement's responses it
 * gives the CPU each request costs that Worker, which explains a ratio where req/s only states it.
 */
function groupCpuSeconds(pgid) {
  let ticks = 0;
  try {
    for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
      let stat;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      } catch {
        continue; // gone meanwhile
      }
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // After the command: state, ppid, pgrp (index 2), …, utime (11), stime (12), in clock ticks.
      if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
    }
  } catch {
    return null;
  }
  return ticks / 100;
}

/** Runs a load and adds the CPU milliseconds per response of the Worker that served it. */
async function loadMeasured(url, request, pgid) {
  const before = groupCpuSeconds(pgid);
  const result = await load(url, request);
  const after = groupCpuSeconds(pgid);
  const cpuMsPerRequest =
    before === null || after === null || !result.responses
      ? null
      : ((after - before) * 1000) / result.responses;
  return { ...result, cpu_ms_per_request: cpuMsPerRequest };
}

async function main() {
  const only = options.only?.split(",");
  const results = {};
  if (!only || only.some((kind) => kind !== "drain")) results.requests = await requestBench(only);
  if (!only || only.includes("drain")) {
    results.drain = await runDrain({
      tasks: Number(options.tasks),
      latencyMs: Number(options.latency),
      vars: options.var,
    });
  }
  const outDir = join(root, "bench-results");
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        cpus: cpus().length,
        cpu: cpus()[0]?.model,
        connections,
        duration,
        ...results,
      },
      null,
      2,
    ),
  );
  console.log(`results: ${file}`);
}

async function requestBench(only) {
  const state = mkdtempSync(join(tmpdir(), "bench-state-"));
  const seedFile = join(state, "seed.sql");
  const toml = readFileSync(join(root, "wrangler.toml"), "utf8");
  // Parsed, not edited as text: no queue consumers, and the rate-limiting bindings opened up, since
  // the bench is one client on one address sending thousands of requests a minute on purpose.
  const config = parseToml(toml);
  config.queues = { producers: config.queues.producers };
  // The bench's own entry: the production Worker plus the round-trip counter, which production never loads.
  config.main = "src/bench/entry.ts";
  config.ratelimits = config.ratelimits.map((limiter) => ({
    ...limiter,
    simple: { ...limiter.simple, limit: 1_000_000_000 },
  }));
  writeFileSync(benchConfig, stringifyToml(config));
  const compatibilityDate = /^compatibility_date = "([^"]+)"/m.exec(toml)?.[1];
  // Every queue the service sends to is consumed by the sink Worker in the same session.
  const sink = {
    name: "bench-queue-sink",
    main: "scripts/bench/queue-sink.mjs",
    compatibility_date: config.compatibility_date,
    queues: {
      consumers: config.queues.producers.map(({ queue }) => ({
        queue,
        max_batch_size: 100,
        max_batch_timeout: 1,
      })),
    },
  };
  writeFileSync(sinkConfig, stringifyToml(sink));
  writeFileSync(
    helloConfig,
    `name = "bench-hello"\nmain = "scripts/bench/hello-worker.mjs"\ncompatibility_date = "${compatibilityDate}"\n`,
  );
  // The binding floor (scripts/bench/floor-worker.mjs): the service's compatibility settings, a local
  // D1 with the service's migrations (a state directory of its own), and a queue whose consumer
  // acknowledges every batch with the sink's batch settings.
  const submitAnswerTemplate = JSON.stringify({
    status: "success",
    tasks_id: crypto.randomUUID(),
    request_id: crypto.randomUUID(),
    foreign_key: "bench-1",
    publisher_key: "example.com",
    tasks: [{ publisher_key: "example.com", tasks_id: crypto.randomUUID() }],
  });
  const floor = {
    name: "bench-floor",
    main: "scripts/bench/floor-worker.mjs",
    compatibility_date: config.compatibility_date,
    compatibility_flags: config.compatibility_flags,
    keep_names: config.keep_names,
    d1_databases: config.d1_databases,
    r2_buckets: [{ binding: "FLOOR_FILES", bucket_name: "bench-floor-files" }],
    queues: {
      producers: [{ binding: "FLOOR_QUEUE", queue: "bench-floor" }],
      consumers: [{ queue: "bench-floor", max_batch_size: 100, max_batch_timeout: 1 }],
    },
    vars: {
      FLOOR_BUSINESS: JSON.stringify(submitBody("").data.business),
      FLOOR_SUBMIT_ANSWER: submitAnswerTemplate,
    },
  };
  writeFileSync(floorConfig, stringifyToml(floor));
  const children = [];
  const stop = () => {
    for (const { child } of children) {
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // already gone
        }
      }
    }
    rmSync(benchConfig, { force: true });
    rmSync(helloConfig, { force: true });
    rmSync(sinkConfig, { force: true });
    rmSync(floorConfig, { force: true });
    rmSync(state, { recursive: true, force: true });
  };
  // Interrupted or timed out: take both wrangler process groups down too, never leave them running.
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ]) {
    process.once(signal, () => {
      stop();
      process.exit(code);
    });
  }
  try {
    applyMigrationsQuietly({ persistTo: state });
    const floorState = join(state, "floor");
    applyMigrationsQuietly({ persistTo: floorState });
    const { key } = createKey({ account: "bench", plan: "unlimited", persistTo: state, log: () => {} });
    const coldKeys = Array.from({ length: 16 }, () => newApiKey());
    writeFileSync(seedFile, seedSql(coldKeys));
    const seeded = runCaptured(WRANGLER, [
      "d1",
      "execute",
      DB_BINDING,
      "--local",
      "--persist-to",
      state,
      "--file",
      seedFile,
      "--yes",
    ]);
    if (seeded.status !== 0) throw new Error(`seeding failed:\n${seeded.stderr || seeded.stdout}`);

    const [port, helloPort, floorPort, inspector, helloInspector, floorInspector] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const floorBase = `http://127.0.0.1:${floorPort}`;
    const base = `http://127.0.0.1:${port}`;
    const hello = `http://127.0.0.1:${helloPort}/`;
    // A dev registry of this run's own: with the shared one, another dev session on the machine
    // that consumes queues of the same names (an `npm start`) could be handed the bench's messages.
    const registry = join(state, "dev-registry");
    const common = ["--ip", "127.0.0.1", "--log-level", "error", "--show-interactive-dev-session=false"];
    const service = startWrangler(
      [
        "dev",
        "-c",
        benchConfig,
        "-c",
        sinkConfig,
        "--port",
        String(port),
        "--inspector-port",
        String(inspector),
        "--persist-to",
        state,
        ...common,
        // Throwaway secrets for this run, instead of whatever .dev.vars holds; round-trip counting on.
        "--var",
        `ENCRYPTION_KEY:${randomBytes(32).toString("base64")}`,
        "--var",
        `URL_SIGNING_KEY:${randomBytes(32).toString("base64url")}`,
        "--test-scheduled",
        "--var",
        "BENCH_COUNT_D1:true",
        // Opened up like the [[ratelimits]] bindings above (a block is then 50 requests).
        "--var",
        "ACCOUNT_REQUESTS_PER_MINUTE:1000000000",
        ...options.var.flatMap((v) => ["--var", v]),
      ],
      registry,
    );
    children.push(service);
    const helloWorker = startWrangler(
      [
        "dev",
        "-c",
        helloConfig,
        "--port",
        String(helloPort),
        "--inspector-port",
        String(helloInspector),
        "--persist-to",
        join(state, "hello"),
        ...common,
      ],
      registry,
    );
    children.push(helloWorker);
    const floorWorker = startWrangler(
      [
        "dev",
        "-c",
        floorConfig,
        "--port",
        String(floorPort),
        "--inspector-port",
        String(floorInspector),
        "--persist-to",
        floorState,
        ...common,
      ],
      registry,
    );
    children.push(floorWorker);
    await waitUntilReady(`${base}/`, service.child, service.output);
    await waitUntilReady(hello, helloWorker.child, helloWorker.output);
    await waitUntilReady(`${floorBase}/`, floorWorker.child, floorWorker.output);
    const floorSetup = await fetch(`${floorBase}/__setup`, { method: "POST" });
    if (!floorSetup.ok)
      throw new Error(`floor set-up answered ${floorSetup.status}: ${await floorSetup.text()}`);

    await moveSeededReviews(base, state);

    const headers = { "content-type": "application/json" };
    const post = (body) => ({ method: "POST", headers, body: JSON.stringify(body) });
    const submitted = await fetch(`${base}/submit/request-reviews/`, post(submitBody(key)));
    if (submitted.status !== 201)
      throw new Error(`submit answered ${submitted.status}: ${await submitted.text()}`);
    const queued = await submitted.json();
    const retrieve = (page, pageSize) => (k) => ({
      api_key: k,
      foreign_key: BIG.foreignKey,
      publisher_key: "example.com",
      task_id: BIG.taskId,
      page,
      page_size: pageSize,
    });
    const expectReviews = (n) => (status, text) => {
      if (status !== 200) return "expected 200";
      const body = JSON.parse(text);
      if (body.reviews?.length !== n) return `expected ${n} reviews, got ${body.reviews?.length}`;
      // 500 page files are listed as 100 signed ranges of 5 (MAX_REVIEWS_URLS).
      if (body.business?.reviews_urls?.length !== 100)
        return `expected 100 reviews_urls, got ${body.business?.reviews_urls?.length}`;
      return null;
    };
    const scenarios = [
      {
        name: "submit (1 publisher)",
        kind: "submit",
        path: "/submit/request-reviews/",
        request: (k) => post(submitBody(k)),
        check: (s) => (s === 201 ? null : "expected 201"),
      },
      {
        name: "retrieve unfinished task",
        kind: "unfinished",
        path: "/retrieve-task/",
        request: (k) =>
          post({
            api_key: k,
            foreign_key: "bench-1",
            publisher_key: queued.publisher_key,
            task_id: queued.tasks_id,
          }),
        check: (s, t) => (s === 200 && JSON.parse(t).response_message ? null : "expected a response_message"),
      },
      {
        name: "retrieve 50/page, page 1",
        kind: "p50-first",
        path: "/retrieve-task/",
        request: (k) => post(retrieve(1, 50)(k)),
        check: expectReviews(50),
      },
      {
        name: "retrieve 50/page, page 100",
        kind: "p50-middle",
        path: "/retrieve-task/",
        request: (k) => post(retrieve(100, 50)(k)),
        check: expectReviews(50),
      },
      {
        name: "retrieve 50/page, page 200 (last)",
        kind: "p50-last",
        path: "/retrieve-task/",
        request: (k) => post(retrieve(200, 50)(k)),
        check: expectReviews(50),
      },
      {
        name: "retrieve 50/page, page 20, min_rating 4 (filtered)",
        kind: "p50-filtered",
        path: "/retrieve-task/",
        request: (k) => post({ ...retrieve(20, 50)(k), min_rating: 4 }),
        check: expectReviews(50),
        floorIndex: { offset: 0, length: BIG.reviews * RECORD_BYTES },
      },
      {
        name: "retrieve 1000/page, page 1",
        kind: "p1000-first",
        path: "/retrieve-task/",
        request: (k) => post(retrieve(1, 1000)(k)),
        check: expectReviews(1000),
      },
      {
        name: "retrieve 1000/page, page 5",
        kind: "p1000-middle",
        path: "/retrieve-task/",
        request: (k) => post(retrieve(5, 1000)(k)),
        check: expectReviews(1000),
      },
      {
        name: "retrieve 1000/page, page 10 (last)",
        kind: "p1000-last",
        path: "/retrieve-task/",
        request: (k) => post(retrieve(10, 1000)(k)),
        check: expectReviews(1000),
      },
    ];

    console.log(
      `wrangler dev (service ${base}, hello-world Worker ${hello}); ${connections} connections, ${duration} s per measurement; ${cpus().length} CPUs`,
    );
    const results = [];
    for (const [i, scenario] of scenarios.filter((s) => !only || only.includes(s.kind)).entries()) {
      const url = `${base}${scenario.path}`;
      const { body, ...trips } = await sample(url, scenario.request, coldKeys[i].key, key, scenario.check);
      const floorUrl = await prepareFloor(floorBase, scenario, body, scenario.request(key));
      // One chain per scenario: hello-world, the binding floor, then the service, back to back.
      const baseline = await loadMeasured(hello, {}, helloWorker.child.pid);
      const floorRun = await loadMeasured(floorUrl, scenario.request(key), floorWorker.child.pid);
      const profiling = options.profile ? await startProfile(inspector) : null;
      const measured = await loadMeasured(url, scenario.request(key), service.child.pid);
      if (profiling) await profiling.stop(scenario.kind);
      const ratio = baseline.requests_per_second
        ? measured.requests_per_second / baseline.requests_per_second
        : 0;
      const floorRatio = floorRun.requests_per_second
        ? measured.requests_per_second / floorRun.requests_per_second
        : 0;
      results.push({
        ...scenario,
        request: undefined,
        check: undefined,
        trips,
        baseline,
        floor: floorRun,
        measured,
        ratio,
        floorRatio,
      });
      console.log(
        `  ${scenario.name}: ${measured.requests_per_second} req/s vs floor ${floorRun.requests_per_second} (${floorRatio.toFixed(2)}x), hello-world ${baseline.requests_per_second} (${ratio.toFixed(2)}x)`,
      );
    }

    const batch =
      !only || only.includes("batch")
        ? await runBatchBench({
            base,
            key,
            business: submitBody("").data.business,
            items: Number(options["batch-items"]),
            rounds: Number(options["batch-rounds"]),
            connections,
          })
        : null;
    const by = Object.fromEntries(results.map((r) => [r.kind, r]));
    console.log("");
    printTable(
      [
        "scenario",
        "req/s",
        "floor req/s",
        "hello req/s",
        "÷ floor",
        "÷ hello",
        "p50 ms",
        "p99 ms",
        "CPU ms/req",
        "floor CPU ms/req",
        "hello CPU ms/req",
        "D1 trips (warm/cold)",
        "R2 reads",
        "queue sends",
        "KiB",
        "non-2xx",
        "errors",
      ],
      results.map((r) => [
        r.name,
        r.measured.requests_per_second,
        r.floor.requests_per_second,
        r.baseline.requests_per_second,
        r.floorRatio.toFixed(2),
        r.ratio.toFixed(2),
        r.measured.latency_ms.p50,
        r.measured.latency_ms.p99,
        r.measured.cpu_ms_per_request?.toFixed(1) ?? "-",
        r.floor.cpu_ms_per_request?.toFixed(1) ?? "-",
        r.baseline.cpu_ms_per_request?.toFixed(1) ?? "-",
        `${r.trips.warm.d1}/${r.trips.cold.d1}`,
        r.trips.warm.r2,
        r.trips.warm.queue,
        (r.trips.warm.bytes / 1024).toFixed(1),
        r.measured.non_2xx + r.floor.non_2xx,
        r.measured.errors + r.floor.errors,
      ]),
    );
    const targets = [];
    const target = (name, kind, check, value) => {
      if (by[kind]) targets.push([name, check(by[kind]), value(by[kind])]);
    };
    // Goals of issue 22: the service against the binding floor of each scenario.
    target(
      "submit >= 0.8x its binding floor",
      "submit",
      (r) => r.floorRatio >= 0.8,
      (r) => r.floorRatio.toFixed(2),
    );
    target(
      "retrieve 50/page >= 0.85x its binding floor",
      "p50-first",
      (r) => r.floorRatio >= 0.85,
      (r) => r.floorRatio.toFixed(2),
    );
    target(
      "retrieve 1000/page >= 0.8x its binding floor",
      "p1000-first",
      (r) => r.floorRatio >= 0.8,
      (r) => r.floorRatio.toFixed(2),
    );
    // Cost of the last page relative to page 1: per-request time is 1/throughput, each against its own hello-world pair.
    for (const size of [50, 1000]) {
      const first = by[`p${size}-first`];
      const last = by[`p${size}-last`];
      if (first && last)
        targets.push([
          `last page vs page 1 <= 1.1x (${size}/page)`,
          first.ratio / last.ratio <= 1.1,
          (first.ratio / last.ratio).toFixed(2),
        ]);
    }
    const pages = results.filter((r) => r.kind.startsWith("p"));
    if (pages.length) {
      targets.push([
        "D1 round trips: completed retrieve 1",
        pages.every((r) => r.trips.warm.d1 === 1),
        pages.map((r) => r.trips.warm.d1).join(", "),
      ]);
      targets.push([
        "R2 reads: completed retrieve 2 (index range + data range)",
        pages.every((r) => r.trips.warm.r2 === 2),
        pages.map((r) => r.trips.warm.r2).join(", "),
      ]);
    }
    // A filtered page of 50 reads the whole compact index: it should cost about what page 100 does.
    const [filtered, unfiltered] = [by["p50-filtered"], by["p50-middle"]];
    if (filtered && unfiltered)
      targets.push([
        "filtered page of 50 >= 0.8x the unfiltered one (req/s)",
        filtered.measured.requests_per_second >= 0.8 * unfiltered.measured.requests_per_second,
        (filtered.measured.requests_per_second / unfiltered.measured.requests_per_second).toFixed(2),
      ]);
    target(
      "D1 round trips: unfinished retrieve 1",
      "unfinished",
      (r) => r.trips.warm.d1 === 1,
      (r) => r.trips.warm.d1,
    );
    target(
      "D1 round trips: submit 1 (+1 queue send)",
      "submit",
      (r) => r.trips.warm.d1 === 1 && r.trips.warm.queue === 1,
      (r) => `${r.trips.warm.d1} + ${r.trips.warm.queue} queue`,
    );
    if (batch)
      targets.push([
        "batch: time per business below a single submit's",
        batch.ratio > 1,
        `${batch.ratio.toFixed(2)}x`,
      ]);
    console.log("");
    printTable(
      ["target", "met", "measured"],
      targets.map(([name, ok, value]) => [name, ok ? "yes" : "NO", value]),
    );
    return { results, targets, batch };
  } finally {
    stop();
  }
}

main().catch((err) => {
  fail(err instanceof Error ? err.message : String(err));
});
