/** The per-account request limit as isolates see it: blocks leased from the account object. */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { accountStub } from "../../src/account/account-do";
import type { RequestLease } from "../../src/account/rate-limiter";
import {
  IsolateQuotas,
  LEASE_TTL_MS,
  OBJECT_RETRY_MS,
  blockSize,
  takeAccountRequest,
  type LeaseCall,
} from "../../src/account/request-quota";

/** The account object's lease log: one row per call that was granted requests. */
async function leases(accountId: string): Promise<number[]> {
  return runInDurableObject(accountStub(env, accountId), (_, state) =>
    state.storage.sql
      .exec<{ n: number }>("SELECT n FROM request_leases ORDER BY rowid")
      .toArray()
      .map((row) => row.n),
  );
}

/** The real account object's lease call, as the Worker makes it. */
const objectLease =
  (accountId: string, limit: number): LeaseCall =>
  (want) =>
    accountStub(env, accountId).leaseRequests(limit, want);

/** Takes `count` requests one after another in one isolate; returns the background work they started. */
async function take(accountId: string, limit: number, count: number, isolate?: IsolateQuotas) {
  const background: Promise<unknown>[] = [];
  let allowed = 0;
  for (let i = 0; i < count; i++) {
    const decision = isolate
      ? await isolate.take(accountId, limit, objectLease(accountId, limit), (p) => background.push(p))
      : await takeAccountRequest(env, accountId, limit, (p) => background.push(p));
    if (decision.allowed) allowed++;
  }
  await Promise.all(background);
  return { allowed, background };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

afterEach(() => {
  vi.useRealTimers();
});

describe("per-account request quota", () => {
  it("caps a block at a sixtieth of the limit, between 1 and 50", () => {
    expect([blockSize(10), blockSize(60), blockSize(600), blockSize(6_000), blockSize(1_000_000)]).toEqual([
      1, 1, 10, 50, 50,
    ]);
  });

  it("100 isolates at a low rate get the full limit between them: nothing is leased unused", async () => {
    const accountId = `quota-${crypto.randomUUID()}`;
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const isolates = Array.from({ length: 100 }, () => new IsolateQuotas());
    // 600 requests over 50 seconds, round robin over 100 isolates: each sees one every ~8 s.
    let allowed = 0;
    for (let i = 0; i < 600; i++) {
      vi.setSystemTime(Date.now() + 83);
      const decision = await isolates[i % 100].take(
        accountId,
        600,
        objectLease(accountId, 600),
        () => undefined,
      );
      if (decision.allowed) allowed++;
    }
    expect(allowed).toBe(600);
    // Every lease was one request, used by the request that asked for it.
    expect(sum(await leases(accountId))).toBe(600);
    expect(new Set(await leases(accountId))).toEqual(new Set([1]));
    // ... and the 601st inside the minute is refused.
    expect(
      await isolates[0].take(accountId, 600, objectLease(accountId, 600), () => undefined),
    ).toMatchObject({ allowed: false });
  });

  it("grows an isolate's block with its demand, up to the cap, and leases ahead once demand is high", async () => {
    const accountId = `quota-${crypto.randomUUID()}`;
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const isolate = new IsolateQuotas();
    await take(accountId, 600, 40, isolate);
    const grants = await leases(accountId);
    // A burst in one second: blocks of 1, 1, 2, 4, 8, then the cap of 10.
    expect(grants.slice(0, 4)).toEqual([1, 1, 2, 4]);
    expect(Math.max(...grants)).toBe(10);
    expect(grants.length).toBeLessThan(15);
    // Never more leased than used plus what is left of the current blocks.
    expect(sum(grants) - 40).toBeLessThanOrEqual(2 * blockSize(600));
  });

  it("a refill never extends the tokens left from an earlier grant: each grant expires LEASE_TTL_MS after its own time", async () => {
    const accountId = `quota-${crypto.randomUUID()}`;
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const start = Date.now();
    const calls: number[] = [];
    // A stand-in object that grants 10 whatever is asked, twice, then finds the window full: the
    // token counts are exact.
    const lease: LeaseCall = async () => {
      calls.push(Date.now() - start);
      return { granted: calls.length <= 2 ? 10 : 0, resetSeconds: 60 } satisfies RequestLease;
    };
    const isolate = new IsolateQuotas();
    const admit = async () => (await isolate.take(accountId, 600, lease, () => undefined)).allowed;
    // t = 0: one request leases 10 and uses 1 (9 left, expiring at LEASE_TTL_MS).
    expect(await admit()).toBe(true);
    // t = 9 s: a burst of 6 uses 6 of them; with 3 left and demand at 6 the next block is leased ahead.
    vi.setSystemTime(start + 9_000);
    for (let i = 0; i < 6; i++) expect(await admit()).toBe(true);
    await vi.waitFor(() => expect(calls).toEqual([0, 9_000]));
    // Past the first grant's expiry its 3 tokens are gone; the second grant's 10 remain, no more
    // (had the refill extended the old tokens, 13 would pass).
    vi.setSystemTime(start + LEASE_TTL_MS + 1);
    let admitted = 0;
    for (let i = 0; i < 20; i++) if (await admit()) admitted++;
    expect(admitted).toBe(10);
  });

  it("refuses a full window with the seconds until it frees a slot, and admits again once it has", async () => {
    const accountId = `quota-${crypto.randomUUID()}`;
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const used = await take(accountId, 60, 60);
    expect(used.allowed).toBe(60);
    const refused = await takeAccountRequest(env, accountId, 60, () => undefined);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 60 });
    vi.setSystemTime(Date.now() + 30_000);
    expect(await takeAccountRequest(env, accountId, 60, () => undefined)).toEqual({
      allowed: false,
      retryAfterSeconds: 30,
    });
    // A minute after the first grant, the window has room again.
    vi.setSystemTime(Date.now() + 30_001);
    expect(await takeAccountRequest(env, accountId, 60, () => undefined)).toEqual({ allowed: true });
  });

  it("when the account object cannot answer, serves requests (fail open) up to the limit per isolate and asks the object again later", async () => {
    const accountId = `quota-${crypto.randomUUID()}`;
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    let up = false;
    let calls = 0;
    // Not async: the first failure is thrown at once, as a stub that cannot be made would.
    const lease: LeaseCall = (want) => {
      calls++;
      if (!up) throw new Error("Durable Object reset because its code was updated");
      return Promise.resolve({ granted: want, resetSeconds: 60 });
    };
    const isolate = new IsolateQuotas();
    const decisions = [];
    for (let i = 0; i < 12; i++) decisions.push(await isolate.take(accountId, 10, lease, () => undefined));
    // Ten admitted on the isolate's own count, then refused with a Retry-After; the object was asked once.
    expect(decisions.slice(0, 10).every((d) => d.allowed)).toBe(true);
    expect(decisions[10]).toEqual({ allowed: false, retryAfterSeconds: 60 });
    expect(calls).toBe(1);
    // Once OBJECT_RETRY_MS has passed, the object is asked again, and counts again when it answers.
    up = true;
    vi.setSystemTime(Date.now() + OBJECT_RETRY_MS + 1);
    expect(await isolate.take(accountId, 10, lease, () => undefined)).toEqual({ allowed: true });
    expect(calls).toBe(2);
  });
});
