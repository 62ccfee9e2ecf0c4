/**
 * `npm run secrets:reencrypt` end to end against a throwaway local state: webhook secrets sealed
 * under the previous key (and one from before key ids) are rewritten under the current key, values
 * already current are left alone, a value no configured key opens is counted and kept, and nothing
 * secret is printed.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { loadKey, open, seal } from "../../scripts/lib/sealed.mjs";

const state = mkdtempSync(join(tmpdir(), "reencrypt-"));
afterAll(() => rmSync(state, { recursive: true, force: true }));

function database(readOnly: boolean): DatabaseSync {
  const dir = join(state, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite");
  return new DatabaseSync(join(dir, file!), { readOnly });
}

function run(env: Record<string, string>, ...args: string[]) {
  const result = spawnSync(process.execPath, ["scripts/reencrypt.mjs", "--persist-to", state, ...args], {
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  return { status: result.status, out: result.stdout + result.stderr };
}

describe("npm run secrets:reencrypt", () => {
  it("rewrites what the previous key sealed under the current one, keeps what no key opens", async () => {
    const oldKey = randomBytes(32).toString("base64");
    const newKey = randomBytes(32).toString("base64");
    const otherKey = randomBytes(32).toString("base64");
    const [oldLoaded, newLoaded, otherLoaded] = await Promise.all([oldKey, newKey, otherKey].map(loadKey));
    // An empty run first creates the database (migrations) and finds nothing.
    const keys = { ENCRYPTION_KEY: newKey, ENCRYPTION_KEY_PREVIOUS: oldKey };
    expect(run(keys).status).toBe(0);

    const secrets = {
      a: "whsec_YWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWE=",
      b: "whsec_YmJi",
      c: "whsec_Y2Nj",
      d: "whsec_ZGRk",
    };
    const legacy = (await seal(oldLoaded, secrets.b)).split(".");
    const rows: Record<string, string> = {
      a: await seal(oldLoaded, secrets.a),
      b: `v1.${legacy[2]}.${legacy[3]}`,
      c: await seal(newLoaded, secrets.c),
      d: await seal(otherLoaded, secrets.d),
    };
    const db = database(false);
    for (const [id, sealed] of Object.entries(rows)) {
      db.prepare("INSERT INTO accounts (id, name, plan, created_at) VALUES (?, ?, 'free', 0)").run(
        id,
        `acct-${id}`,
      );
      db.prepare(
        "INSERT INTO webhooks (account_id, url, secret_enc, created_at, updated_at) VALUES (?, 'https://hooks.example.com/x', ?, 0, 0)",
      ).run(id, sealed);
    }
    db.close();

    const dry = run(keys, "--dry-run");
    expect(dry.out).toContain(`2 to rewrite under key ${newLoaded.id}, 1 already current, 1 unreadable`);
    const result = run(keys);
    expect(result.status).toBe(0);
    expect(result.out).toContain(`2 rewritten under key ${newLoaded.id}, 1 already current, 1 unreadable`);
    for (const secret of Object.values(secrets)) expect(result.out).not.toContain(secret);
    expect(result.out).not.toContain(newKey);

    const after = database(true);
    const stored = Object.fromEntries(
      (
        after.prepare("SELECT account_id, secret_enc FROM webhooks").all() as {
          account_id: string;
          secret_enc: string;
        }[]
      ).map((r) => [r.account_id, r.secret_enc]),
    );
    after.close();
    for (const id of ["a", "b", "c"]) {
      expect(stored[id].startsWith(`v2.${newLoaded.id}.`)).toBe(true);
      // Opened with the current key alone: the previous one can be removed now.
      expect(await open([newLoaded], stored[id])).toBe(secrets[id as keyof typeof secrets]);
    }
    expect(stored.c).toBe(rows.c);
    expect(stored.d).toBe(rows.d);
    // Run again: nothing left to rewrite.
    expect(run(keys).out).toContain("0 rewritten");
  });
});
