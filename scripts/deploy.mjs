// Deploys the service to the Cloudflare account wrangler is logged in to:
//   npm run deploy                 create what is missing (D1, R2, queues, secrets), migrate, deploy
//   npm run deploy -- --dry-run    run the offline checks and print the commands instead
// Resources are found by the names in wrangler.toml and created only when missing; the D1 id is
// written into wrangler.toml. Existing secrets are never replaced: a new ENCRYPTION_KEY would make
// every stored cookie and webhook secret unreadable.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  localOnlySettingsProblems,
  presentSecrets,
  queueNames,
  withDatabaseId,
} from "./lib/deploy-config.mjs";
import { fail, root, runCaptured, runInherited } from "./lib/project.mjs";
import { DB_BINDING, WRANGLER, readConfig } from "./lib/wrangler.mjs";

// The checks, for tests: importing this module runs nothing.
export { localOnlySettingsProblems, presentSecrets, queueNames, withDatabaseId };

// Set from the command line when run as a script.
let dryRun = true;
const configPath = join(root, "wrangler.toml");

/** How each secret is made when the Worker does not have it yet (an operator may pass one in the environment). */
const SECRET_GENERATORS = {
  ENCRYPTION_KEY: () => randomBytes(32).toString("base64"),
  URL_SIGNING_KEY: () => randomBytes(32).toString("base64url"),
};

function show(args) {
  console.log(`$ wrangler ${args.join(" ")}`);
}

/** A read-only wrangler call whose output is parsed; failures stop the deploy. */
function query(args) {
  const result = runCaptured(WRANGLER, args);
  if (result.status !== 0)
    throw new Error(`wrangler ${args.join(" ")} failed:\n${result.stderr || result.stdout}`);
  return result.stdout;
}

/** A wrangler call that changes the account; printed only in a dry run. */
function change(args) {
  show(args);
  if (!dryRun) runInherited(WRANGLER, args);
}

function step(title) {
  console.log(`\n== ${title}`);
}

function listedNames(output) {
  // Both `r2 bucket list` ("name: x") and `queues list` (a table) print one resource per line.
  return new Set(output.split("\n").flatMap((line) => line.split(/[\s│|:]+/).filter(Boolean)));
}

function ensureDatabase(config) {
  const db = config.d1_databases.find((d) => d.binding === DB_BINDING);
  if (!db) throw new Error(`wrangler.toml has no D1 database bound as ${DB_BINDING}`);
  step(`D1 database ${db.database_name}`);
  const find = () => JSON.parse(query(["d1", "list", "--json"])).find((d) => d.name === db.database_name);
  if (dryRun) {
    show(["d1", "list", "--json"]);
    show(["d1", "create", db.database_name]);
    console.log(`(would write its id into wrangler.toml; now ${db.database_id})`);
    return;
  }
  let existing = find();
  if (!existing) {
    change(["d1", "create", db.database_name]);
    existing = find();
    if (!existing) throw new Error(`D1 database ${db.database_name} was not found after creating it`);
  } else {
    console.log(`exists: ${existing.uuid}`);
  }
  if (existing.uuid !== db.database_id) {
    writeFileSync(
      configPath,
      withDatabaseId(readFileSync(configPath, "utf8"), db.database_name, existing.uuid),
    );
    console.log(`wrangler.toml: database_id = "${existing.uuid}" (commit this change)`);
  }
}

function ensureByName(title, listArgs, createArgs, names) {
  step(title);
  if (dryRun) {
    show(listArgs);
    for (const name of names) show([...createArgs, name]);
    console.log("(each only when missing)");
    return;
  }
  const present = listedNames(query(listArgs));
  for (const name of names) {
    if (present.has(name)) console.log(`exists: ${name}`);
    else change([...createArgs, name]);
  }
}

/** Secrets the Worker lacks, generated (or taken from the environment) into a private temp file. */
function missingSecrets(config) {
  step("Secrets");
  const required = config.secrets?.required ?? Object.keys(SECRET_GENERATORS);
  let present = new Set();
  if (dryRun) {
    show(["secret", "list", "--format", "json"]);
  } else {
    // Only a Worker that does not exist yet may be treated as having no secrets (see presentSecrets).
    present = presentSecrets(runCaptured(WRANGLER, ["secret", "list", "--format", "json"]));
  }
  const secrets = {};
  for (const name of required) {
    if (present.has(name)) {
      console.log(`kept: ${name}`);
      continue;
    }
    const generate = SECRET_GENERATORS[name];
    if (!process.env[name] && !generate)
      throw new Error(`secret ${name} is required; set it in the environment for this run`);
    secrets[name] = process.env[name] || generate();
    console.log(
      `${dryRun ? "would set" : "setting"}: ${name} (${process.env[name] ? "from the environment" : "generated"})`,
    );
  }
  return secrets;
}

function main() {
  const config = readConfig();
  step("Configuration checks");
  const problems = localOnlySettingsProblems(config);
  if (problems.length) throw new Error(`wrangler.toml is not fit to deploy:\n- ${problems.join("\n- ")}`);
  console.log("local-only settings are off (ALLOW_PRIVATE_NETWORK=false, PUBLISHER_ORIGINS empty)");

  if (dryRun) {
    step("Bundle (offline)");
    runInherited("npm", ["run", "--silent", "build"]);
  } else {
    step("Account");
    runInherited(WRANGLER, ["whoami"]);
  }

  ensureDatabase(config);
  ensureByName(
    "R2 buckets",
    ["r2", "bucket", "list"],
    ["r2", "bucket", "create"],
    config.r2_buckets.map((b) => b.bucket_name),
  );
  ensureByName("Queues", ["queues", "list"], ["queues", "create"], queueNames(config));

  step("Migrations");
  change(["d1", "migrations", "apply", DB_BINDING, "--remote"]);

  const secrets = missingSecrets(config);
  step("Deploy");
  const names = Object.keys(secrets);
  if (names.length === 0 || dryRun) {
    change([
      "deploy",
      ...(names.length ? ["--secrets-file", "<temporary file with " + names.join(", ") + ">"] : []),
    ]);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "deploy-secrets-"));
  const file = join(dir, "secrets.json");
  try {
    writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
    change(["deploy", "--secrets-file", file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values: options } = parseArgs({
    options: {
      "dry-run": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (options.help) {
    console.log("usage: npm run deploy [-- --dry-run]");
    process.exit(0);
  }
  dryRun = options["dry-run"];
  try {
    main();
    console.log(dryRun ? "\nDry run: nothing was changed." : "\nDeployed.");
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
}
