// Helpers the bench's parts share (scripts/bench.mjs and scripts/bench/drain.mjs).
import { WRANGLER } from "../lib/wrangler.mjs";
import { startDetached, toolEnv } from "../lib/project.mjs";

export { freePort, waitUntilReady } from "../lib/dev-server.mjs";

export function printTable(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  ");
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
