// Prepares .dev.vars (read by `wrangler dev`) for local development: the two secrets, random and
// made once, and the local-only settings. Values already in the file are kept as they are, so a
// developer's own PUBLISHER_ORIGINS or keys survive every start.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./lib/project.mjs";

const path = join(root, ".dev.vars");

const defaults = {
  ENCRYPTION_KEY: () => randomBytes(32).toString("base64"),
  URL_SIGNING_KEY: () => randomBytes(32).toString("base64url"),
  ALLOW_PRIVATE_NETWORK: () => "true",
  PUBLISHER_ORIGINS: () => "{}",
};

const existing = existsSync(path) ? readFileSync(path, "utf8") : "";
const present = new Set(
  existing
    .split(/\r?\n/)
    .map((line) => line.match(/^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/)?.[1])
    .filter(Boolean),
);
const missing = Object.keys(defaults).filter((name) => !present.has(name));

if (missing.length === 0) {
  console.log("dev-vars: .dev.vars is complete");
} else {
  const header = existing
    ? ""
    : "# Local development settings for `wrangler dev` (git-ignored). Made by scripts/dev-vars.mjs.\n";
  const separator = existing && !existing.endsWith("\n") ? "\n" : "";
  const added = missing.map((name) => `${name}=${defaults[name]()}`).join("\n");
  writeFileSync(path, `${existing}${separator}${header}${added}\n`, { mode: 0o600 });
  chmodSync(path, 0o600); // it holds secrets, even if only local ones
  console.log(`dev-vars: added ${missing.join(", ")} to .dev.vars`);
}
