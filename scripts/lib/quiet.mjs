// Runs npm scripts one after another and keeps the terminal short: one line per script that passes
// (with its time), the script's whole output only when it fails.
import { spawn } from "node:child_process";

function run(script) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn("npm", ["run", "--silent", script], { stdio: ["ignore", "pipe", "pipe"] });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("close", (code) => resolve({ code, seconds: (performance.now() - started) / 1000, output }));
  });
}

/** Runs `scripts` in order, stopping at the first that fails; resolves to its exit code (0: all passed). */
export async function runQuietly(scripts) {
  for (const script of scripts) {
    const { code, seconds, output } = await run(script);
    if (code !== 0) {
      process.stdout.write(Buffer.concat(output));
      console.log(`✗ ${script} failed (exit ${code}, ${seconds.toFixed(0)} s)`);
      return code ?? 1;
    }
    console.log(`✓ ${script} (${seconds.toFixed(0)} s)`);
  }
  return 0;
}
