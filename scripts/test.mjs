// `npm test`: the checks and the three vitest projects, arranged for a two-core machine.
//
// Vitest runs one test file at a time there (its default is one worker fewer than the cores), and it
// runs a project whose files may not overlap after all the others, so one vitest run left much of
// the machine idle: the Worker tests wait on fixture sites, timers and the browser, and the npm
// scripts' own tests (project `scripts`: chaos, keys, canary, npm start) mostly on wrangler. Here
// three vitest processes run side by side: the Worker and unit tests in two halves (`--shard`, each
// with its own runtime, fixture sites and D1), and the scripts' tests after the checks (lint,
// binding types, TypeScript, the bundle). Each part's failures print in full; a green run ends with
// one line, `tests: N passed, N failed, N skipped`, over all three.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runQuietly } from "./lib/quiet.mjs";

const vitestBin = join(import.meta.dirname, "../node_modules/vitest/vitest.mjs");
const counts = mkdtempSync(join(tmpdir(), "npm-test-"));

/** One vitest run over `projects`; its output is held back until it ends, so the two never interleave. */
function vitest(projects, name, shard) {
  return new Promise((resolve) => {
    const args = [vitestBin, "run", ...projects.flatMap((p) => ["--project", p])];
    if (shard) args.push(`--shard=${shard}`);
    args.push("--reporter=minimal", "--reporter=./test/setup/closing-line.ts");
    const env = { ...process.env, CLOSING_LINE_FILE: join(counts, `${name}.json`) };
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("close", (code) => {
      process.stdout.write(Buffer.concat(output));
      resolve(code ?? 1);
    });
  });
}

function total() {
  const sum = { passed: 0, failed: 0, skipped: 0 };
  for (const name of PARTS) {
    try {
      const part = JSON.parse(readFileSync(join(counts, `${name}.json`), "utf8"));
      for (const key of Object.keys(sum)) sum[key] += part[key];
    } catch {
      sum.failed += 1; // that vitest never reached its end
    }
  }
  return sum;
}

const PARTS = ["workers-1", "workers-2", "scripts"];
// The Worker tests start at once; the scripts' tests wait for the checks.
const codes = await Promise.all([
  vitest(["workers", "unit"], "workers-1", "1/2"),
  vitest(["workers", "unit"], "workers-2", "2/2"),
  runQuietly(["lint", "types:check", "typecheck", "build"]).then((code) =>
    code === 0 ? vitest(["scripts"], "scripts") : code,
  ),
]);
const sum = total();
rmSync(counts, { recursive: true, force: true });
console.log(`tests: ${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped`);
process.exitCode = codes.find((code) => code !== 0) ?? (sum.failed ? 1 : 0);
