/**
 * `npm start` as an operator runs it, with optional secrets in .dev.vars (issue 34, item 5): the real
 * start script (prestart included) in a throwaway copy of the project, a provider route through the
 * local Zyte fake (test/providers/fakes.ts), and the settings' report when a key is missing.
 *
 * wrangler's `[secrets] required` makes `wrangler dev` load only the listed keys from .dev.vars;
 * `npm start` runs a generated config that lists every secret the file holds (scripts/dev-vars.mjs).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProviderFakes, type ProviderFakes } from "../providers/fakes";
import { FAKE_KEYS, WALLED_DOMAIN } from "../providers/keys";

const ROOT = resolve(import.meta.dirname, "../..");
const OPS_SECRET = "whsec_dGVzdC1vcHMtd2ViaG9vay1zZWNyZXQtMzItYnl0ZXM=";

let fakes: ProviderFakes;
const cleanups: (() => void)[] = [];
beforeAll(async () => {
  fakes = await startProviderFakes({});
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) cleanup();
  await fakes.close();
});

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** A copy of the project to start: its own scripts, config, .dev.vars and local state; the rest linked. */
function project(devVars: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "npm-start-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  for (const file of ["package.json", "wrangler.toml"]) cpSync(join(ROOT, file), join(dir, file));
  cpSync(join(ROOT, "scripts"), join(dir, "scripts"), { recursive: true });
  for (const linked of ["node_modules", "src", "migrations", "public", ".cache"])
    if (existsSync(join(ROOT, linked))) symlinkSync(join(ROOT, linked), join(dir, linked));
  writeFileSync(
    join(dir, ".dev.vars"),
    Object.entries(devVars)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n") + "\n",
  );
  return dir;
}

interface Started {
  base: string;
  apiKey: string;
  output: () => string;
}

/** `npm start` in `dir`, on a free port, until it answers; the key the first start printed. */
async function npmStart(dir: string): Promise<Started> {
  const [port, inspector] = [await freePort(), await freePort()];
  let output = "";
  const child: ChildProcess = spawn(
    "npm",
    ["start", "--", "--port", String(port), "--ip", "127.0.0.1", "--inspector-port", String(inspector)],
    {
      cwd: dir,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      // Its own registry of local Workers, so no other `wrangler dev` on this machine is seen.
      env: {
        ...process.env,
        CLOUDFLARE_DEV_REGISTRY_PATH: join(dir, ".registry"),
        WRANGLER_SEND_METRICS: "false",
      },
    },
  );
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  cleanups.push(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}\n${output}`);
    try {
      if ((await fetch(`${base}/openapi.json`, { signal: AbortSignal.timeout(2000) })).ok) {
        const apiKey = output.match(/^(rk_[A-Za-z0-9_-]{20,})$/m)?.[1];
        if (!apiKey) throw new Error(`no API key in the start output\n${output}`);
        return { base, apiKey, output: () => output };
      }
    } catch (err) {
      if (err instanceof Error && err.message.startsWith("no API key")) throw err;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`npm start did not answer\n${output}`);
}

async function post(base: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function submit(started: Started, name: string): Promise<string> {
  const res = await post(started.base, "/submit/request-reviews/", {
    job: "App\\Jobs\\RequestReviews",
    data: {
      api_key: started.apiKey,
      foreign_key: name,
      business: {
        id: name,
        name: "Walled Cafe",
        address: { street: "1 Market St", city: "San Francisco", state: "CA", zip: "94105", country: "USA" },
        phone: "+1 415 555 0100",
        description: "Cafe behind a wall",
        tags: [],
      },
      publishers: {
        [WALLED_DOMAIN]: {
          profile_key: `https://${WALLED_DOMAIN}/page/${name}`,
          last_review_hashes: [],
          first_page_only: false,
        },
      },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.tasks_id as string;
}

/** Retrieves the task until it has ended (the local queue consumer runs it by itself). */
async function ended(started: Started, name: string, taskId: string): Promise<any> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const res = await post(started.base, "/retrieve-task/", {
      api_key: started.apiKey,
      foreign_key: name,
      publisher_key: WALLED_DOMAIN,
      task_id: taskId,
    });
    const status = res.body.task_status ?? res.body.response_message?.[0]?.task_status;
    if (status === 200 || status === 500) return res.body;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`task ${taskId} did not end\n${started.output()}`);
}

/** The settings an operator writes to .dev.vars for a provider route and operator alerts. */
function operatorVars(extra: Record<string, string>): Record<string, string> {
  return {
    ALLOW_PRIVATE_NETWORK: "true",
    PUBLISHER_ORIGINS: JSON.stringify(fakes.sites),
    PROVIDER_ORIGINS: JSON.stringify({ zyte: fakes.origins.zyte }),
    FETCH_ROUTES: JSON.stringify({ [WALLED_DOMAIN]: ["provider:zyte"] }),
    OPS_WEBHOOK_URL: "http://127.0.0.1:9/ops",
    ...extra,
  };
}

describe("npm start with optional secrets in .dev.vars", () => {
  it("passes ZYTE_API_KEY and OPS_WEBHOOK_SECRET from .dev.vars to the Worker: requests are served and the provider route is used", async () => {
    const started = await npmStart(
      project(operatorVars({ ZYTE_API_KEY: FAKE_KEYS.zyte, OPS_WEBHOOK_SECRET: OPS_SECRET })),
    );
    expect(started.output()).toMatch(/optional secrets from \.dev\.vars: .*ZYTE_API_KEY/);
    expect(started.output()).not.toContain("incomplete setting");
    const status = await fetch(`${started.base}/status`);
    expect(status.status).toBe(200);
    expect(await status.text()).not.toContain("Operator notice");

    const name = `start-${Date.now().toString(36)}`;
    const body = await ended(started, name, await submit(started, name));
    expect(body.task_status).toBe(200);
    expect(body.reviews.length).toBeGreaterThan(0);
    expect(body.requests).toMatchObject({ direct: 0, provider: 1 });
    // The Zyte fake was asked for the page, with the key from .dev.vars (it refuses any other).
    const answer = await fetch(`${fakes.origins.zyte}/__received?contains=${encodeURIComponent(name)}`);
    const received: { headers: Record<string, string> }[] = await answer.json();
    expect(received.length).toBeGreaterThan(0);
    expect(received[0].headers.authorization).toBe(
      `Basic ${Buffer.from(`${FAKE_KEYS.zyte}:`).toString("base64")}`,
    );
  });

  it("without the key, serves every request that does not need it and reports the missing setting once at start and on /status", async () => {
    const started = await npmStart(project(operatorVars({})));
    // At start, from the start script, naming the secrets.
    expect(started.output()).toMatch(/incomplete setting .*ZYTE_API_KEY/);
    expect(started.output()).toMatch(/incomplete setting .*OPS_WEBHOOK_SECRET/);
    expect((await fetch(`${started.base}/publishers`)).status).toBe(200);
    const status = await fetch(`${started.base}/status`);
    expect(status.status).toBe(200);
    const page = await status.text();
    expect(page).toContain("Operator notice");
    expect(page).not.toMatch(/zyte|ZYTE_API_KEY/i);
    // A task routed to the provider fails with provider_error; submit and retrieve work.
    const name = `nokey-${Date.now().toString(36)}`;
    const body = await ended(started, name, await submit(started, name));
    expect(body.response_message[0]).toMatchObject({ task_status: 500, reason: "provider_error" });
    // The Worker's own report: one log line per isolate, naming the secret.
    const lines = started
      .output()
      .split("\n")
      .filter((line) => line.includes('"settings incomplete"'));
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines[0]).toContain("ZYTE_API_KEY");
  });
});
