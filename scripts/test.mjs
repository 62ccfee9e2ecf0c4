// `npm test`: the checks and the three vitest projects, arranged for a two-core machine.
//
// Vitest runs one test file at a time there (its default is one worker fewer than the cores), and it
// runs a project whose files may not overlap after all the others. The npm scripts' own tests
// (project `scripts`: chaos, keys, canary, npm start) spend most of their time waiting for wrangler,
// so run in one vitest they added ~3 minutes after the Worker tests. Here they run in a second vitest
// beside the first, after the checks (lint, binding types, TypeScript, the bundle), which themselves
// overlap the Worker tests. Each part's failures print in full; a green run ends with one line,
// `tests: N passed, N failed, N skipped`, over both vitest runs.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runQuietly } from "./lib/quiet.mjs";

const vitestBin = join(import.meta.dirname, "../node_modules/vitest/vitest.mjs");
const counts = mkdtempSync(join(tmpdir(), "npm-test-"));

/** One vitest run over `projects`; its output is held back until it ends, so the two never interleave. */
function vitest(projects, name) {
  return new Promise((resolve) => {
    const args = [vitestBin, "run", ...projects.flatMap((p) => ["--project", p])];
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
  for (const name of ["workers", "scripts"]) {
    try {
      const part = JSON.parse(readFileSync(join(counts, `${name}.json`), "utf8"));
      for (const key of Object.keys(sum)) sum[key] += part[key];
    } catch {
      sum.failed += 1; // that vitest never reached its end
    }
  }
  return sum;
}

// The Worker tests start at once; the scripts' tests wait for the checks, which also keeps the two
// vitest processes from writing the generated test config (.wrangler/test) at the same moment.
const [workers, scripts] = await Promise.all([
  vitest(["workers", "unit"], "workers"),
  runQuietly(["lint", "types:check", "typecheck", "build"]).then((code) =>
    code === 0 ? vitest(["scripts"], "scripts") : code,
  ),
]);
const sum = total();
rmSync(counts, { recursive: true, force: true });
console.log(`tests: ${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped`);
process.exitCode = workers || scripts || (sum.failed ? 1 : 0);
