/**
 * `npm run keys` end to end, against a throwaway local state (--persist-to): the real CLI, the real
 * wrangler and local D1, checked by reading the database file it wrote.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";

const state = mkdtempSync(join(tmpdir(), "keys-cli-"));
afterAll(() => rmSync(state, { recursive: true, force: true }));

function keys(...args: string[]) {
  const result = spawnSync(process.execPath, ["scripts/keys.mjs", ...args, "--persist-to", state], {
    encoding: "utf8",
  });
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    lines: result.stdout.trimEnd().split("\n"),
  };
}

/** The local D1 database file wrangler wrote under the state directory. */
function database(): DatabaseSync {
  const dir = join(state, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite");
  return new DatabaseSync(join(dir, file!), { readOnly: true });
}

interface KeyRow {
  id: string;
  account_id: string;
  prefix: string;
  key_hash: string;
  expires_at: number | null;
  revoked_at: number | null;
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

describe("npm run keys", () => {
  it("creates accounts and keys, lists them without the keys, and revokes", () => {
    // A new account on a chosen plan, with a key that expires.
    const first = keys("create", "--account", "Acme O'Brien", "--plan", "basic", "--expires", "2099-01-31");
    expect(first.status, first.stderr).toBe(0);
    const firstKey = first.lines.at(-1)!;
    expect(firstKey).toMatch(/^rk_[A-Za-z0-9_-]{43}$/);
    expect(first.stdout).toMatch(/^Created account "Acme O'Brien" \([0-9a-f-]{36}\), plan basic\.$/m);
    expect(first.stdout).toContain(`(${firstKey.slice(0, 11)}…), expires 2099-01-31T00:00:00.000Z.`);

    // Another key for the same account: no new account; --plan changes its plan.
    const second = keys("create", "--account", "Acme O'Brien", "--plan", "pro");
    expect(second.status, second.stderr).toBe(0);
    const secondKey = second.lines.at(-1)!;
    expect(secondKey).toMatch(/^rk_[A-Za-z0-9_-]{43}$/);
    expect(secondKey).not.toBe(firstKey);
    expect(second.stdout).toMatch(/^Account "Acme O'Brien" \([0-9a-f-]{36}\), plan pro\.$/m);
    expect(second.stdout).toContain(", no expiry.");

    const db = database();
    const rows = db.prepare("SELECT * FROM api_keys ORDER BY created_at, id").all() as unknown as KeyRow[];
    expect(db.prepare("SELECT name, plan FROM accounts").all()).toEqual([
      { name: "Acme O'Brien", plan: "pro" },
    ]);
    // Only the hash and an 11-character prefix are stored, never the key.
    const byKey = [firstKey, secondKey].map((key) => rows.find((row) => row.key_hash === sha256(key))!);
    expect(byKey.map((row) => [row.prefix, row.expires_at, row.revoked_at])).toEqual([
      [firstKey.slice(0, 11), Date.parse("2099-01-31T00:00:00Z"), null],
      [secondKey.slice(0, 11), null, null],
    ]);
    expect(JSON.stringify(db.prepare("SELECT * FROM api_keys").all())).not.toContain(firstKey.slice(11));
    db.close();

    const [revokedId, keptId] = [byKey[1].id, byKey[0].id];
    const revoked = keys("revoke", revokedId);
    expect(revoked.status, revoked.stderr).toBe(0);
    expect(revoked.lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Key ${revokedId} of account "Acme O'Brien" is revoked \\(since \\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z\\)\\.$`,
        ),
      ),
    ]);

    const listed = keys("list");
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).not.toContain(firstKey);
    expect(listed.stdout).not.toContain(secondKey);
    const table = listed.lines.map((line) => line.split(/\s{2,}/));
    expect(table[0]).toEqual(["key_id", "account", "plan", "prefix", "status", "created", "expires"]);
    expect(
      table
        .slice(1)
        .map(([id, account, plan, prefix, status, , expires]) => [id, account, plan, prefix, status, expires])
        .sort(),
    ).toEqual(
      [
        [keptId, "Acme O'Brien", "pro", `${firstKey.slice(0, 11)}…`, "active", "2099-01-31T00:00:00Z"],
        [revokedId, "Acme O'Brien", "pro", `${secondKey.slice(0, 11)}…`, "revoked", "-"],
      ].sort(),
    );
  });

  it("refuses an unknown plan and a past expiry, storing nothing", () => {
    const plan = keys("create", "--account", "refused", "--plan", "gold");
    expect({ status: plan.status, stderr: plan.stderr.trim() }).toEqual({
      status: 1,
      stderr: 'error: unknown plan "gold"; plans in wrangler.toml (PLANS): free, basic, pro, unlimited',
    });
    const past = keys("create", "--account", "refused", "--expires", "2020-01-01");
    expect({ status: past.status, stderr: past.stderr.trim() }).toEqual({
      status: 1,
      stderr: "error: --expires must be in the future",
    });
    const db = database();
    expect(db.prepare("SELECT count(*) AS n FROM accounts WHERE name = 'refused'").get()).toEqual({ n: 0 });
    db.close();
  });

  it("refuses the service's reserved system: names, so no client key runs as the canary account", () => {
    for (const name of ["system:canary", "system:ops", "SYSTEM:anything"]) {
      const refused = keys("create", "--account", name);
      expect({ status: refused.status, stderr: refused.stderr.trim() }, name).toEqual({
        status: 1,
        stderr: 'error: account names starting with "system:" are reserved for the service\'s own accounts',
      });
    }
    const db = database();
    expect(db.prepare("SELECT count(*) AS n FROM accounts WHERE name LIKE 'system:%'").get()).toEqual({
      n: 0,
    });
    db.close();
  });
});
