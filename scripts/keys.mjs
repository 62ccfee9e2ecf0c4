// Manages accounts' API keys in D1 (local by default, --remote for the deployed database).
//   npm run keys -- create --account <name> [--plan <plan>] [--expires <ISO date>]
//   npm run keys -- list
//   npm run keys -- revoke <key id>
// Local commands take --persist-to <dir> to act on another local state directory.
// A new key is printed once, as the last line of stdout; only its SHA-256 hash is stored.
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { newApiKey } from "./lib/api-keys.mjs";
import { fail } from "./lib/project.mjs";
import { sqlInteger, sqlText } from "./lib/sql.mjs";
import { applyMigrationsQuietly, d1Execute, plans, readConfig } from "./lib/wrangler.mjs";

const USAGE = `usage:
  npm run keys -- create --account <name> [--plan <plan>] [--expires <ISO date>] [--remote]
  npm run keys -- list [--remote]
  npm run keys -- revoke <key id> [--remote]`;

// Any readable name; quotes are fine because every value is quoted by sqlText.
const ACCOUNT_NAME = /^(?!\s)[^\p{Cc}]{1,100}(?<!\s)$/u;
const KEY_ID = /^key_[0-9a-f]{4,64}$/;
// The service's own accounts (system:canary runs the health canaries, system:ops holds the operator
// alerts' outbox) are named this way: a client key attached to one would run as it.
const RESERVED_PREFIX = /^system:/i;

/** Checks create's options before anything touches a database; returns the expiry (ms) or null. */
function checkCreateOptions({ account, plan, expires }) {
  if (!account || !ACCOUNT_NAME.test(account)) {
    fail("--account needs a name of 1-100 characters, without control characters or surrounding spaces");
  }
  if (RESERVED_PREFIX.test(account)) {
    fail(`account names starting with "system:" are reserved for the service's own accounts`);
  }
  const known = plans();
  if (plan !== undefined && !Object.hasOwn(known, plan)) {
    fail(`unknown plan "${plan}"; plans in wrangler.toml (PLANS): ${Object.keys(known).join(", ")}`);
  }
  let expiresAt = null;
  if (expires !== undefined) {
    expiresAt = Date.parse(expires);
    if (!/^\d{4}-\d{2}-\d{2}/.test(expires) || Number.isNaN(expiresAt))
      fail(`--expires must be an ISO date, e.g. 2027-01-31 or 2027-01-31T12:00:00Z`);
    if (expiresAt <= Date.now()) fail("--expires must be in the future");
  }
  return expiresAt;
}

/** Creates the account if it is missing (changing its plan when --plan names another), then a key. */
export function createKey({ account, plan, expires, remote = false, persistTo, log = console.log }) {
  const expiresAt = checkCreateOptions({ account, plan, expires });
  const defaultPlan = readConfig().vars?.DEFAULT_PLAN || "free";
  const now = Date.now();
  const key = newApiKey();
  const name = sqlText(account);
  const onConflict = plan === undefined ? "DO NOTHING" : "DO UPDATE SET plan = excluded.plan";
  const [, , rows] = d1Execute(
    [
      `INSERT INTO accounts (id, name, plan, created_at) VALUES (${sqlText(randomUUID())}, ${name}, ${sqlText(plan ?? defaultPlan)}, ${sqlInteger(now)}) ON CONFLICT(name) ${onConflict}`,
      `INSERT INTO api_keys (id, account_id, prefix, key_hash, created_at, expires_at, revoked_at) SELECT ${sqlText(key.id)}, id, ${sqlText(key.prefix)}, ${sqlText(key.hash)}, ${sqlInteger(now)}, ${sqlInteger(expiresAt)}, NULL FROM accounts WHERE name = ${name}`,
      `SELECT a.id AS account_id, a.name, a.plan, a.created_at FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = ${sqlText(key.id)}`,
    ].join(";\n"),
    { remote, persistTo },
  );
  const created = rows[0];
  if (!created) fail("the key was not stored");
  const isNewAccount = created.created_at === now;
  log(
    `${isNewAccount ? "Created account" : "Account"} "${created.name}" (${created.account_id}), plan ${created.plan}.`,
  );
  log(
    `Key ${key.id} (${key.prefix}…)${expiresAt ? `, expires ${new Date(expiresAt).toISOString()}` : ", no expiry"}.`,
  );
  log("This is the only time the key is shown; store it now:");
  log(key.key);
  return key;
}

function status(row, now) {
  if (row.revoked_at !== null) return "revoked";
  if (row.expires_at !== null && row.expires_at <= now) return "expired";
  return "active";
}

const iso = (ms) => (ms === null ? "-" : new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z"));

function listKeys({ remote, persistTo }) {
  const [rows] = d1Execute(
    "SELECT k.id, a.name AS account, a.plan, k.prefix, k.created_at, k.expires_at, k.revoked_at FROM api_keys k JOIN accounts a ON a.id = k.account_id ORDER BY a.name, k.created_at",
    { remote, persistTo },
  );
  if (rows.length === 0) {
    console.log("No keys. Make one with: npm run keys -- create --account <name>");
    return;
  }
  const now = Date.now();
  const table = rows.map((row) => ({
    key_id: row.id,
    account: row.account,
    plan: row.plan,
    prefix: `${row.prefix}…`,
    status: status(row, now),
    created: iso(row.created_at),
    expires: iso(row.expires_at),
  }));
  const columns = Object.keys(table[0]);
  const widths = columns.map((col) => Math.max(col.length, ...table.map((row) => String(row[col]).length)));
  const line = (cells) =>
    cells
      .map((cell, i) => String(cell).padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  console.log(line(columns));
  for (const row of table) console.log(line(columns.map((col) => row[col])));
}

function revokeKey(keyId, { remote, persistTo }) {
  if (!keyId || !KEY_ID.test(keyId))
    fail("revoke needs a key id like key_0123abcd (see: npm run keys -- list)");
  const id = sqlText(keyId);
  const [, rows] = d1Execute(
    [
      `UPDATE api_keys SET revoked_at = ${sqlInteger(Date.now())} WHERE id = ${id} AND revoked_at IS NULL`,
      `SELECT k.id, k.revoked_at, a.name AS account FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = ${id}`,
    ].join(";\n"),
    { remote, persistTo },
  );
  const row = rows[0];
  if (!row) fail(`no key ${keyId}`);
  console.log(`Key ${row.id} of account "${row.account}" is revoked (since ${iso(row.revoked_at)}).`);
}

function main(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        account: { type: "string" },
        plan: { type: "string" },
        expires: { type: "string" },
        remote: { type: "boolean", default: false },
        local: { type: "boolean", default: false },
        // Another local state directory (wrangler's --persist-to); the tests use a throwaway one.
        "persist-to": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (err) {
    fail(`${err.message}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  if (values.remote && values.local) fail("choose --local or --remote, not both");
  const remote = values.remote;
  const persistTo = values["persist-to"];
  if (remote && persistTo) fail("--persist-to names local state; it does not go with --remote");
  try {
    // Bad options are refused before any wrangler call.
    if (command === "create") checkCreateOptions(values);
    // Local databases are brought up to date first, so a fresh checkout works without extra steps.
    if (!remote) applyMigrationsQuietly({ persistTo });
    switch (command) {
      case "create":
        if (rest.length) fail(`unexpected argument "${rest[0]}"\n${USAGE}`);
        createKey({ account: values.account, plan: values.plan, expires: values.expires, remote, persistTo });
        break;
      case "list":
        listKeys({ remote, persistTo });
        break;
      case "revoke":
        if (rest.length !== 1) fail(`revoke takes one key id\n${USAGE}`);
        revokeKey(rest[0], { remote, persistTo });
        break;
      default:
        fail(`unknown command "${command}"\n${USAGE}`);
    }
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
