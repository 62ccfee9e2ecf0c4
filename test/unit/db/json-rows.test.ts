/** insertJsonRows (src/db/json-rows.ts): rows stored exactly as drizzle stores them, one parameter per statement. */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { insertJsonRows } from "../../../src/db/json-rows";
import { accounts, requests } from "../../../src/db/schema";
import { business } from "../../helpers/api";

async function account(): Promise<string> {
  const id = crypto.randomUUID();
  await database(env.DB)
    .insert(accounts)
    .values({ id, name: `json-rows-${id}`, plan: "pro", createdAt: 1 });
  return id;
}

const row = (accountId: string, n: number) => ({
  id: crypto.randomUUID(),
  accountId,
  foreignKey: `k-${n} "quoted" ✓`,
  lazy: n % 2 === 0,
  business: { ...business(), tags: [`t${n}`, "ü"] },
  baseUrl: "https://api.test",
  createdAt: 1_800_000_000_000 + n,
  batchId: null,
  batchIndex: n,
});

describe("insertJsonRows", () => {
  it("stores each row as drizzle's own insert stores it (JSON, booleans, nulls, text)", async () => {
    const accountId = await account();
    const viaJson = row(accountId, 1);
    const viaDrizzle = { ...row(accountId, 1), id: crypto.randomUUID() };
    await env.DB.batch(insertJsonRows(env.DB, requests, [viaJson]));
    await database(env.DB).insert(requests).values(viaDrizzle);
    const raw = await env.DB.prepare(
      "SELECT foreign_key, lazy, business, base_url, created_at, batch_id, batch_index, typeof(lazy) AS t FROM requests WHERE id IN (?, ?) ORDER BY id = ?",
    )
      .bind(viaJson.id, viaDrizzle.id, viaDrizzle.id)
      .all();
    expect(raw.results[0]).toEqual(raw.results[1]);
    const [read] = await database(env.DB).select().from(requests).where(eq(requests.id, viaJson.id));
    expect(read).toEqual(viaJson);
  });

  it("splits the rows into statements under the byte bound, one bound parameter each, and stores them all", async () => {
    const accountId = await account();
    const rows = Array.from({ length: 40 }, (_, n) => row(accountId, n));
    const statements = insertJsonRows(env.DB, requests, rows, 2_000);
    expect(statements.length).toBeGreaterThan(5);
    for (const statement of statements)
      expect((statement as unknown as { params: string[] }).params).toEqual([expect.any(String)]);
    for (const statement of statements)
      expect(
        new TextEncoder().encode((statement as unknown as { params: string[] }).params[0]).length,
      ).toBeLessThanOrEqual(2_000);
    await env.DB.batch(statements);
    const stored = await database(env.DB).select().from(requests).where(eq(requests.accountId, accountId));
    expect(stored.sort((a, b) => a.batchIndex! - b.batchIndex!)).toEqual(rows);
  });
});
