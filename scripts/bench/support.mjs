// Helpers the bench's parts share (scripts/bench.mjs and scripts/bench/drain.mjs).
import { createServer } from "node:net";
import { WRANGLER } from "../lib/wrangler.mjs";
import { startDetached, toolEnv } from "../lib/project.mjs";

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function waitUntilReady(url, child, output, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}\n${output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`wrangler dev did not become ready in time\n${output()}`);
}

export function printTable(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  ");
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

/** `wrangler dev` (or another wrangler command) in its own process group, its last output kept for errors. */
export function startWrangler(args, registry) {
  const child = startDetached(WRANGLER, args, { env: toolEnv({ CLOUDFLARE_DEV_REGISTRY_PATH: registry }) });
  let output = "";
  const keep = (d) => (output = (output + d).slice(-8000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  return { child, output: () => output };
}
