// Thin wrappers over the wrangler CLI and its config reader.
import { unstable_readConfig } from "wrangler";
import { join } from "node:path";
import { root, runCaptured } from "./project.mjs";

export const WRANGLER = join(root, "node_modules", ".bin", "wrangler");
export const DB_BINDING = "DB";

/** wrangler.toml as wrangler itself reads it (top-level environment). */
export function readConfig() {
  return unstable_readConfig({ config: join(root, "wrangler.toml") });
}

/** Plan names and their per-minute limits, from the PLANS var. */
export function plans() {
  const raw = readConfig().vars?.PLANS;
  const parsed = typeof raw === "string" ? JSON.parse(raw) : raw;
  if (!parsed || typeof parsed !== "object") throw new Error("wrangler.toml has no PLANS var");
  return parsed;
}

/** Where a D1 command acts: the deployed database, or a local one (optionally in another state directory). */
function target({ remote = false, persistTo } = {}) {
  if (remote) return ["--remote"];
  return persistTo ? ["--local", "--persist-to", persistTo] : ["--local"];
}

/** Applies migrations without echoing wrangler's progress (for scripts whose stdout is read by others). */
export function applyMigrationsQuietly(where = {}) {
  const result = runCaptured(WRANGLER, ["d1", "migrations", "apply", DB_BINDING, ...target(where)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (result.status !== 0) throw new Error(`Applying migrations failed:\n${result.stdout}${result.stderr}`);
}

/**
 * Runs SQL (one or more statements) against D1 and returns one result set per statement.
 * The SQL goes in through a command argument; callers build it with scripts/lib/sql.mjs.
 */
export function d1Execute(sql, where = {}) {
  const result = runCaptured(WRANGLER, [
    "d1",
    "execute",
    DB_BINDING,
    ...target(where),
    "--json",
    "--command",
    sql,
  ]);
  let parsed;
  try {
    parsed = JSON.parse(result.stdout);
  } catch {
    throw new Error(`wrangler d1 execute failed:\n${result.stderr || result.stdout}`);
  }
  if (result.status !== 0 || !Array.isArray(parsed)) {
    throw new Error(`D1 query failed: ${parsed?.error?.text ?? (result.stderr || result.stdout)}`);
  }
  return parsed.map((set) => set.results ?? []);
}
