// Runs npm scripts one after another and keeps the terminal short: one line per script that passes
// (with its time), the script's whole output only when it fails. `npm test` and `npm run check` use
// it for the steps before vitest, whose wrangler banners and bindings tables would otherwise make up
// most of a green run's output.
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

for (const script of process.argv.slice(2)) {
  const { code, seconds, output } = await run(script);
  if (code !== 0) {
    process.stdout.write(Buffer.concat(output));
    console.log(`✗ ${script} failed (exit ${code}, ${seconds.toFixed(0)} s)`);
    process.exit(code ?? 1);
  }
  console.log(`✓ ${script} (${seconds.toFixed(0)} s)`);
}
