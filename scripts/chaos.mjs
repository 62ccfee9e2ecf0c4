// A hostile night for a local service, proven from outside: npm run chaos [-- --tasks 200 --accounts 5 --kills 3]
//
// Starts the service with `wrangler dev` (its own throwaway state, queue consumers on, loopback
// only) and the test suite's fixture publisher sites, submits tasks across accounts (multi-page,
// one-page, slow and failing ones; some accounts with a webhook that fails each event's first
// deliveries), and kills the whole service process group with SIGKILL at random moments while
// pages are being scraped and webhooks delivered, restarting it each time on the same state. The
// platform's cron is played by calling the scheduled handler every 30 s (wrangler dev
// --test-scheduled). Then it waits and checks, through the API and the webhook receiver:
// - every task ended exactly once: completed with every page's reviews, or failed with the right
//   reason; never both events, never a wrong failure;
// - no task holds a review twice;
// - every webhook event was delivered (2xx) at least once, every attempt of an event carried the
//   same event id and body, and the delivery log holds nothing pending or given up.
// Prints one summary line and exits non-zero on any loss or duplicate. Bounded by --timeout (s).
import { randomBytes } from "node:crypto";
import { freePort } from "./lib/dev-server.mjs";
import { fixtureServer } from "./lib/fixture-sites.mjs";
import { createServer as createHttpServer } from "node:http";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { parse as parseToml, stringify as stringifyToml } from "smol-toml";
import { createKey } from "./keys.mjs";
import { fail, root, startDetached, toolEnv } from "./lib/project.mjs";
import { WRANGLER, applyMigrationsQuietly } from "./lib/wrangler.mjs";

const JOB = "App\\Jobs\\RequestReviews";
/** What each kind of task must end as (the fixture sites' content, test/fixtures/sites.ts). */
const KINDS = {
  multi: { status: 200, reviews: 36, files: 12 },
  single: { status: 200, reviews: 3, files: 1 },
  slow: { status: 200, reviews: 2, files: 1 },
  gone: { status: 500, reason: "profile_not_found" },
};
/** A flaky receiver answers 503 to each event's first deliveries. */
const FLAKY_FAILURES = 2;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Records every delivery by event id; a flaky account's receiver fails each event's first attempts. */
function startReceiver() {
  const events = new Map();
  const server = createHttpServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const account = req.url.split("/")[2] ?? "";
      const flaky = req.url.includes("/flaky");
      const id = req.headers["x-webhook-id"] ?? "";
      const body = Buffer.concat(chunks).toString("utf8");
      const record = events.get(id) ?? { account, attempts: [], delivered: 0 };
      const ok = !flaky || record.attempts.length >= FLAKY_FAILURES;
      record.attempts.push({
        id,
        standardId: req.headers["webhook-id"],
        body,
        status: ok ? 204 : 503,
        at: Date.now(),
      });
      if (ok) record.delivered++;
      events.set(id, record);
      res.writeHead(ok ? 204 : 503).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, events, port: server.address().port })),
  );
}

export async function chaos({
  tasks = 200,
  accounts = 5,
  kills = 3,
  timeoutSeconds = 1200,
  log = console.log,
} = {}) {
  const started = Date.now();
  const deadline = started + timeoutSeconds * 1000;
  const state = mkdtempSync(join(tmpdir(), "chaos-state-"));
  const configPath = join(state, "wrangler.toml");
  const registry = join(state, "dev-registry");
  const children = new Set();
  let sites;
  let receiver;
  const stopAll = () => {
    for (const child of children) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  };
  const onSignal = () => {
    stopAll();
    process.exit(130);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    // The fixture sites the tests use, bundled for Node (as scripts/demo-sites.mjs does).
    const { startFixtureSites } = await fixtureServer("chaos-sites");
    sites = await startFixtureSites({});
    receiver = await startReceiver();

    // wrangler.toml with absolute paths, in the state folder (so no developer .dev.vars is read),
    // its rate limits opened up (one client on one address on purpose). Queue consumers stay on.
    const config = parseToml(readFileSync(join(root, "wrangler.toml"), "utf8"));
    config.main = join(root, config.main);
    config.assets = { ...config.assets, directory: join(root, config.assets.directory) };
    config.d1_databases = config.d1_databases.map((db) => ({
      ...db,
      migrations_dir: join(root, db.migrations_dir),
    }));
    config.ratelimits = config.ratelimits.map((l) => ({
      ...l,
      simple: { ...l.simple, limit: 1_000_000_000 },
    }));
    writeFileSync(configPath, stringifyToml(config));

    applyMigrationsQuietly({ persistTo: state });
    const keys = Array.from(
      { length: accounts },
      (_, i) => createKey({ account: `chaos-${i}`, plan: "unlimited", persistTo: state, log: () => {} }).key,
    );

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const vars = {
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      URL_SIGNING_KEY: randomBytes(32).toString("base64url"),
      ALLOW_PRIVATE_NETWORK: "true",
      PUBLISHER_ORIGINS: JSON.stringify(sites.origins),
      WEBHOOK_RETRY_SCHEDULE: "1,2,3,5,5,5,5,5,10,10",
      // Short leases: a killed run's task is taken up again within about a minute, not minutes.
      RUN_LEASE_SECONDS: "10",
      PAGES_PER_RUN: "3",
      ACCOUNT_REQUESTS_PER_MINUTE: "1000000000",
      LOG_REQUESTS: "false",
    };
    let service = null;
    let output = "";
    const start = async () => {
      const inspector = await freePort();
      const args = [
        "dev",
        "-c",
        configPath,
        "--port",
        String(port),
        "--ip",
        "127.0.0.1",
        "--inspector-port",
        String(inspector),
      ];
      args.push(
        "--persist-to",
        state,
        "--log-level",
        "error",
        "--show-interactive-dev-session=false",
        "--test-scheduled",
      );
      for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
      const child = startDetached(WRANGLER, args, {
        env: toolEnv({ CLOUDFLARE_DEV_REGISTRY_PATH: registry }),
      });
      const keep = (d) => (output = (output + d).slice(-8000));
      child.stdout.on("data", keep);
      child.stderr.on("data", keep);
      children.add(child);
      service = child;
      const ready = Date.now() + 120_000;
      while (Date.now() < ready) {
        if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}\n${output}`);
        try {
          if ((await fetch(`${base}/openapi.json`, { signal: AbortSignal.timeout(2000) })).ok) return;
        } catch {
          // not listening yet
        }
        await sleep(250);
      }
      throw new Error(`wrangler dev did not become ready\n${output}`);
    };
    const kill = async () => {
      process.kill(-service.pid, "SIGKILL");
      await new Promise((resolve) => (service.exitCode !== null ? resolve() : service.once("exit", resolve)));
      children.delete(service);
    };
    const cron = () =>
      fetch(`${base}/__scheduled?cron=*/5+*+*+*+*`, { signal: AbortSignal.timeout(30_000) }).catch(
        () => undefined,
      );
    const post = async (path, body) => {
      for (let attempt = 1; ; attempt++) {
        try {
          const res = await fetch(`${base}${path}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
            signal: AbortSignal.timeout(30_000),
          });
          return { status: res.status, body: await res.json() };
        } catch (err) {
          // The service is being restarted: try again shortly.
          if (attempt >= 60) throw err;
          await sleep(1000);
        }
      }
    };

    await start();
    // Webhooks: the first accounts', half of them flaky.
    const hooked = Math.ceil(accounts / 2);
    for (let a = 0; a < hooked; a++) {
      const url = `http://127.0.0.1:${receiver.port}/hook/${a}/${a % 2 === 0 ? "flaky" : "steady"}`;
      const res = await post("/webhooks/create-webhook/", { api_key: keys[a], webhook: url });
      if (res.status !== 201)
        throw new Error(`create-webhook answered ${res.status}: ${JSON.stringify(res.body)}`);
    }

    // Tasks, spread over the accounts and kinds.
    const kinds = ["multi", "single", "multi", "slow", "single", "gone", "multi", "single"];
    const all = [];
    for (let i = 0; i < tasks; i++) {
      const account = i % accounts;
      const kind = kinds[i % kinds.length];
      const name = `chaos-${i}-${randomBytes(3).toString("hex")}`;
      const publisher = kind === "gone" ? "status.test" : kind === "slow" ? "slow.test" : "multipage.test";
      const profile =
        kind === "gone"
          ? `https://status.test/gone/${name}`
          : kind === "slow"
            ? `https://slow.test/biz/${name}?ms=400`
            : `https://multipage.test/biz/${name}`;
      const res = await post("/submit/request-reviews/", {
        job: JOB,
        data: {
          api_key: keys[account],
          foreign_key: name,
          business: {
            id: name,
            name: "Blue Door Cafe",
            address: {
              street: "1 Market St",
              city: "San Francisco",
              state: "CA",
              zip: "94105",
              country: "USA",
            },
            phone: "+1 415 555 0100",
            description: "Neighbourhood cafe",
            tags: ["cafe"],
          },
          publishers: {
            [publisher]: { profile_key: profile, last_review_hashes: [], first_page_only: kind === "single" },
          },
        },
      });
      if (res.status !== 201) throw new Error(`submit answered ${res.status}: ${JSON.stringify(res.body)}`);
      all.push({ id: res.body.tasks_id, account, kind, publisher, foreignKey: name });
    }
    log(
      `chaos: ${tasks} tasks submitted across ${accounts} accounts (${hooked} with webhooks); ${kills} kills to come`,
    );

    const retrieve = (t, page = 1) =>
      post("/retrieve-task/", {
        api_key: keys[t.account],
        foreign_key: t.foreignKey,
        publisher_key: t.publisher,
        task_id: t.id,
        page,
        page_size: 1000,
      });
    const finished = new Map();
    /** When the poll first saw each task ended (this process's clock, like the restarts'). */
    const endedSeenAt = new Map();
    let inProgress = 0;
    const poll = async () => {
      const open = all.filter((t) => !finished.has(t.id));
      let running = 0;
      for (let i = 0; i < open.length; i += 8) {
        await Promise.all(
          open.slice(i, i + 8).map(async (t) => {
            const res = await retrieve(t);
            const status = res.body.task_status ?? res.body.response_message?.[0]?.task_status;
            if (status === 200 || status === 500) {
              finished.set(t.id, res.body);
              endedSeenAt.set(t.id, Date.now());
            }
            if (status === 101) running++;
          }),
        );
      }
      inProgress = running;
      return finished.size;
    };

    // Kills at random moments while tasks are being scraped and events delivered: each once a
    // random share of the remaining work is done, a few seconds into it.
    let lastCron = Date.now();
    /** When each restart was spawned and when it answered, for the time to its first page. */
    const restarts = [];
    for (let k = 0; k < kills; k++) {
      const target = Math.floor(tasks * ((k + 1) / (kills + 1)) * (0.6 + Math.random() * 0.4));
      while ((await poll()) < target && Date.now() < deadline) {
        if (Date.now() - lastCron > 30_000) {
          await cron();
          lastCron = Date.now();
        }
        await sleep(1000);
      }
      await sleep(Math.random() * 3000);
      // Mid-scrape and mid-delivery: tasks in progress and an event whose delivery failed so far
      // (a flaky receiver's first answers), waiting a few seconds at most for both.
      const awaiting = () => [...receiver.events.values()].filter((e) => e.delivered === 0).length;
      for (let i = 0; i < 40 && (awaiting() === 0 || inProgress === 0) && Date.now() < deadline; i++) {
        await sleep(250);
        if (i % 8 === 7) await poll();
      }
      await poll();
      const openAtKill = all.filter((t) => !finished.has(t.id)).map((t) => t.id);
      log(
        `chaos: kill ${k + 1} (SIGKILL to the process group) with ${finished.size}/${tasks} tasks ended, ${inProgress} in progress, ${awaiting()} events awaiting delivery`,
      );
      await kill();
      await sleep(500 + Math.random() * 2000);
      const spawnedAt = Date.now();
      await start();
      restarts.push({ spawnedAt, readyAt: Date.now(), openAtKill });
      // The platform's cron after a restart: wakes the queues' gates and the sweeper.
      await cron();
      lastCron = Date.now();
    }

    // Wait for every task and every event to settle.
    let settled = false;
    while (Date.now() < deadline) {
      if (Date.now() - lastCron > 30_000) {
        await cron();
        lastCron = Date.now();
      }
      if ((await poll()) === tasks) {
        const undelivered = [...receiver.events.values()].filter((e) => e.delivered === 0).length;
        const expected = all.filter((t) => t.account < hooked).length * 2;
        if (undelivered === 0 && receiver.events.size >= expected) {
          settled = true;
          break;
        }
      }
      await sleep(2000);
    }

    // Checks.
    const problems = [];
    let reviews = 0;
    let lost = 0;
    let duplicated = 0;
    for (const t of all) {
      const body = finished.get(t.id);
      const want = KINDS[t.kind];
      if (!body) {
        lost++;
        problems.push(`${t.id} (${t.kind}) never ended`);
        continue;
      }
      const status = body.task_status ?? body.response_message?.[0]?.task_status;
      if (status !== want.status) {
        lost++;
        problems.push(
          `${t.id} (${t.kind}) ended ${status} ${body.response_message?.[0]?.reason ?? ""}, expected ${want.status}`,
        );
        continue;
      }
      if (want.status === 500) {
        if (body.response_message[0].reason !== want.reason) {
          lost++;
          problems.push(`${t.id} failed with ${body.response_message[0].reason}, expected ${want.reason}`);
        }
        continue;
      }
      const ids = body.reviews.map((r) => r.review_id);
      const distinct = new Set(ids).size;
      reviews += distinct;
      if (distinct !== ids.length || body.pagination.total_reviews !== ids.length) {
        duplicated += ids.length - distinct;
        problems.push(`${t.id} holds ${ids.length - distinct} duplicate reviews`);
      }
      if (distinct < want.reviews || body.business.reviews_urls.length < 1) {
        lost += want.reviews - distinct;
        problems.push(`${t.id} (${t.kind}) has ${distinct} of ${want.reviews} reviews`);
      }
    }
    // Webhook events: every event of every hooked task delivered, each event id with one body.
    let deliveries = 0;
    for (const t of all.filter((x) => x.account < hooked)) {
      const body = finished.get(t.id);
      if (!body) continue;
      const terminal =
        (body.task_status ?? body.response_message?.[0]?.task_status) === 200 ? "completed" : "failed";
      const other = terminal === "completed" ? "failed" : "completed";
      if (receiver.events.has(`evt_${t.id}_${other}`)) {
        duplicated++;
        problems.push(`${t.id} sent both task.completed and task.failed`);
      }
      for (const event of ["in_progress", terminal]) {
        // A task that fails before it starts (never) or at once still sends in_progress first.
        const id = `evt_${t.id}_${event}`;
        const record = receiver.events.get(id);
        if (!record || record.delivered === 0) {
          lost++;
          problems.push(`${id} was never delivered`);
          continue;
        }
        deliveries += record.attempts.length;
        if (
          record.attempts.some(
            (a) => a.id !== id || a.standardId !== id || a.body !== record.attempts[0].body,
          )
        ) {
          problems.push(`${id}: attempts differ in event id or body`);
          duplicated++;
        }
      }
    }
    // The delivery log: nothing pending, nothing given up.
    for (let a = 0; a < hooked; a++) {
      for (const t of all.filter((x) => x.account === a)) {
        const res = await post("/webhooks/deliveries/", { api_key: keys[a], task_id: t.id, limit: 10 });
        for (const d of res.body.deliveries ?? []) {
          if (d.state !== "delivered") {
            lost++;
            problems.push(`delivery ${d.id} is ${d.state} (${d.attempts} attempts, ${d.last_error})`);
          }
        }
      }
    }
    // Time from each restart to the service's next progress: the earliest review scraped after the
    // restarted service answered (reviews carry scraped_at, the moment their page was fetched), or
    // the first task seen ended after it, where the kill came when only completions were left.
    // A task counts if it was open at the kill (polled just before it) and seen ended after the
    // restart: a dead service ends nothing, so it ended after the restart answered.
    const scrapedAt = [...finished.values()]
      .flatMap((body) => body.reviews ?? [])
      .map((review) => review.scraped_at)
      .filter((at) => typeof at === "number");
    const firstPageSeconds = restarts.map(({ spawnedAt, readyAt, openAtKill }, i) => {
      const endedAfter = openAtKill.map((id) => endedSeenAt.get(id)).filter((at) => at !== undefined);
      // A kill can also land when every task has ended and only webhook deliveries are left.
      const deliveredAt = [...receiver.events.values()].flatMap((e) => e.attempts.map((a) => a.at));
      const next = [...scrapedAt, ...endedAfter, ...deliveredAt]
        .filter((at) => at >= readyAt)
        .sort((a, b) => a - b)[0];
      const after = next === undefined ? null : Math.round((next - readyAt) / 100) / 10;
      log(
        `chaos: restart ${i + 1}: the service answered ${Math.round((readyAt - spawnedAt) / 100) / 10} s after it was started, its next page, ended task or delivery ${after === null ? "never came" : `${after} s after that`}`,
      );
      return after;
    });
    const seconds = Math.round((Date.now() - started) / 1000);
    const line = `chaos: tasks ${tasks} (${finished.size} ended), reviews ${reviews}, deliveries ${deliveries} (${receiver.events.size} events), kills ${kills}, lost ${lost}, duplicated ${duplicated}, ${seconds} s${settled ? "" : " (timed out)"}`;
    for (const p of problems.slice(0, 20)) log(`  ${p}`);
    log(line);
    return {
      ok: settled && lost === 0 && duplicated === 0 && problems.length === 0,
      line,
      lost,
      duplicated,
      reviews,
      deliveries,
      firstPageSeconds,
    };
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    stopAll();
    await sites?.close().catch(() => undefined);
    receiver?.server.close();
    rmSync(state, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      tasks: { type: "string", default: "200" },
      accounts: { type: "string", default: "5" },
      kills: { type: "string", default: "3" },
      timeout: { type: "string", default: "1200" },
    },
  });
  const [tasks, accounts, kills, timeoutSeconds] = [
    values.tasks,
    values.accounts,
    values.kills,
    values.timeout,
  ].map(Number);
  if (
    ![tasks, accounts, kills, timeoutSeconds].every((n) => Number.isInteger(n) && n >= 0) ||
    tasks < 1 ||
    accounts < 1
  ) {
    fail("--tasks, --accounts, --kills and --timeout must be whole numbers (tasks and accounts at least 1)");
  }
  const result = await chaos({ tasks, accounts, kills, timeoutSeconds }).catch((err) => {
    console.error(`chaos: ${err.stack ?? err}`);
    return { ok: false };
  });
  process.exit(result.ok ? 0 : 1);
}
