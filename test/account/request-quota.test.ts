/** The per-account request limit as an isolate sees it: blocks leased from the account object. */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { accountStub } from "../../src/account/account-do";
import { LEASE_TTL_MS, blockSize, takeAccountRequest } from "../../src/account/request-quota";

/** The account object's lease log: one row per call that was granted requests. */
async function leases(accountId: string): Promise<number[]> {
  return runInDurableObject(accountStub(env, accountId), (_, state) =>
    state.storage.sql
      .exec<{ n: number }>("SELECT n FROM request_leases ORDER BY rowid")
      .toArray()
      .map((row) => row.n),
  );
}

/** Takes `count` requests one after another; returns the background work they started. */
async function take(accountId: string, limit: number, count: number): Promise<{ allowed: number; background: Promise<unknown>[] }> {
  const background: Promise<unknown>[] = [];
  let allowed = 0;
  for (let i = 0; i < count; i++) {
    const decision = await takeAccountRequest(env, accountId, limit, (p) => background.push(p));
    if (decision.allowed) allowed++;
  }
  return { allowed, background };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("per-account request quota", () => {
  it("sizes a block at a sixtieth of the limit, between 1 and 50", () => {
    expect([blockSize(10), blockSize(60), blockSize(600), blockSize(6_000), blockSize(1_000_000)]).toEqual([1, 1, 10, 50, 50]);
  });

  it("leases the next block in the background once half of the current one is used", async () => {
    const accountId = `quota-${crypto.randomUUID()}`;
    // Block of 10: the 1st request waits for the first lease; the 5th leaves 5 and starts the next.
    const first = await take(accountId, 600, 4);
    expect(first.allowed).toBe(4);
    expect(first.background).toHaveLength(0);
    expect(await leases(accountId)).toEqual([10]);
    const fifth = await take(accountId, 600, 1);
    expect(fifth.background).toHaveLength(1);
    await Promise.all(fifth.background);
    expect(await leases(accountId)).toEqual([10, 10]);
    // 15 tokens are now held: the next 15 requests need no call, and the prefetch keeps ahead.
    const more = await take(accountId, 600, 15);
    await Promise.all(more.background);
    expect(more.allowed).toBe(15);
    expect((await leases(accountId)).length).toBeLessThanOrEqual(4);
  });

  it("drops a block left unused for LEASE_TTL_MS and leases a fresh one", async () => {
    const accountId = `quota-${crypto.randomUUID()}`;
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    await take(accountId, 600, 1);
    expect(await leases(accountId)).toEqual([10]);
    vi.setSystemTime(Date.now() + LEASE_TTL_MS + 1);
    await take(accountId, 600, 1);
    expect(await leases(accountId)).toEqual([10, 10]);
  });

  it("refuses a full window with the seconds until it frees a slot, and admits again once it has", async () => {
    const accountId = `quota-${crypto.randomUUID()}`;
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const used = await take(accountId, 60, 60);
    expect(used.allowed).toBe(60);
    const refused = await takeAccountRequest(env, accountId, 60, () => undefined);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 60 });
    vi.setSystemTime(Date.now() + 30_000);
    expect(await takeAccountRequest(env, accountId, 60, () => undefined)).toEqual({ allowed: false, retryAfterSeconds: 30 });
    // A minute after the first grant, the window has room again.
    vi.setSystemTime(Date.now() + 30_001);
    expect(await takeAccountRequest(env, accountId, 60, () => undefined)).toEqual({ allowed: true });
  });
});
