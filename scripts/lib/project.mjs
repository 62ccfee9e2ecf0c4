// Paths and process helpers shared by the npm scripts.
import { spawn, spawnSync } from "node:child_process";
import { delimiter, join } from "node:path";

export const root = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

/**
 * The environment for the project's CLIs. node_modules/.bin comes first so that wrangler's
 * `#!/usr/bin/env node` finds the project's Node 22 even when a script is started with an older
 * system `node`; metrics stay off because these machines may be offline.
 */
export function toolEnv(extra = {}) {
  return {
    ...process.env,
    PATH: [join(root, "node_modules", ".bin"), process.env.PATH].join(delimiter),
    XDG_CACHE_HOME: process.env.XDG_CACHE_HOME || join(root, ".cache"),
    WRANGLER_SEND_METRICS: "false",
    // miniflare otherwise fetches a Request.cf sample from the internet on every start and prints an
    // error offline; the built-in placeholder serves local runs.
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    ...extra,
  };
}

/** Runs a command to completion; returns its exit status and captured output. */
export function runCaptured(command, args, options = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    env: toolEnv(),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
  if (result.error) throw result.error;
  return { status: result.status ?? 1, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
}

/** Runs a command with the terminal attached; throws when it fails. */
export function runInherited(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, env: toolEnv(), stdio: "inherit", ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.status}`);
}

/** Starts a long-running child in its own process group, so that stopping it stops its children too. */
export function startDetached(command, args, options = {}) {
  return spawn(command, args, {
    cwd: root,
    env: toolEnv(),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    ...options,
  });
}

export function fail(message) {
  console.error(`error: ${message}`);
  process.exit(1);
}
