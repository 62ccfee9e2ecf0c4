// Re-encrypts every secret stored at rest under the current ENCRYPTION_KEY, after a key rotation:
//   npm run secrets:reencrypt [-- --remote] [-- --persist-to <dir>] [-- --dry-run]
// Keys come from the environment (ENCRYPTION_KEY, and ENCRYPTION_KEY_PREVIOUS: one or more earlier
// keys, comma-separated); for the local database, values missing there are read from .dev.vars.
// What it rewrites: webhook signing secrets (webhooks.secret_enc) and the login cookies of
// unfinished tasks (tasks.cookies_enc). Each row is updated only if it still holds the value read
// (a concurrent create-webhook wins). Values no configured key opens are counted, left as they are
// and reported: create-webhook replaces such a secret, a task needing such cookies fails with
// `secret_unreadable`. Keys and plaintexts are never printed.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fail, root } from "./lib/project.mjs";
import { loadKey, open, seal, sealedKeyId } from "./lib/sealed.mjs";
import { sqlText } from "./lib/sql.mjs";
import { applyMigrationsQuietly, d1Execute } from "./lib/wrangler.mjs";

/** `NAME=value` lines of .dev.vars (the local secrets `wrangler dev` uses). */
function devVars() {
  const path = join(root, ".dev.vars");
  if (!existsSync(path)) return {};
  const vars = {};
  for (const line of readFileSync(path, "utf8").split(/\r?\n/)) {
    const m = line.match(/^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/);
    if (m) vars[m[1]] = m[2].replace(/^(["'])(.*)\1$/, "$2");
  }
  return vars;
}

export async function reencrypt({
  remote = false,
  persistTo,
  dryRun = false,
  env = process.env,
  log = console.log,
} = {}) {
  const local = remote ? {} : devVars();
  const current = env.ENCRYPTION_KEY || local.ENCRYPTION_KEY;
  if (!current) fail("ENCRYPTION_KEY is not set (environment, or .dev.vars for the local database)");
  const previous = (env.ENCRYPTION_KEY_PREVIOUS ?? local.ENCRYPTION_KEY_PREVIOUS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const currentKey = await loadKey(current);
  const keys = [currentKey, ...(await Promise.all(previous.map(loadKey)))];
  const where = { remote, persistTo };
  if (!remote) applyMigrationsQuietly(where);

  const [webhookRows, taskRows] = d1Execute(
    [
      "SELECT account_id AS id, secret_enc AS sealed FROM webhooks",
      "SELECT id, cookies_enc AS sealed FROM tasks WHERE cookies_enc IS NOT NULL AND status IN (100, 101)",
    ].join(";\n"),
    where,
  );
  const counts = { rewritten: 0, current: 0, unreadable: 0 };
  const updates = [];
  const plan = async (table, column, idColumn, rows) => {
    for (const row of rows) {
      if (sealedKeyId(row.sealed) === currentKey.id) {
        counts.current++;
        continue;
      }
      const plain = await open(keys, row.sealed);
      if (plain === null) {
        counts.unreadable++;
        continue;
      }
      counts.rewritten++;
      updates.push(
        `UPDATE ${table} SET ${column} = ${sqlText(await seal(currentKey, plain))} WHERE ${idColumn} = ${sqlText(row.id)} AND ${column} = ${sqlText(row.sealed)}`,
      );
    }
  };
  await plan("webhooks", "secret_enc", "account_id", webhookRows);
  await plan("tasks", "cookies_enc", "id", taskRows);
  // In groups, so one command stays well under the CLI's argument size.
  if (!dryRun)
    for (let i = 0; i < updates.length; i += 50) d1Execute(updates.slice(i, i + 50).join(";\n"), where);
  log(
    `secrets:reencrypt: ${counts.rewritten} ${dryRun ? "to rewrite" : "rewritten"} under key ${currentKey.id}, ${counts.current} already current, ${counts.unreadable} unreadable with the configured keys`,
  );
  return counts;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      remote: { type: "boolean" },
      "persist-to": { type: "string" },
      "dry-run": { type: "boolean" },
    },
  });
  await reencrypt({
    remote: values.remote ?? false,
    persistTo: values["persist-to"],
    dryRun: values["dry-run"] ?? false,
  });
}
