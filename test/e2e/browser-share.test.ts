/**
 * The browser sessions' per-account share (src/scraping/browser-gate.ts), through the real gate
 * object: one account's renders cannot hold every session while another account's runs are refused
 * (security review 2026-11, finding 9).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { browserGate, browserShare } from "../../src/scraping/browser-gate";

const TTL = 60_000;

beforeEach(async () => {
  await runInDurableObject(browserGate(env), async (_gate, state) => {
    state.storage.sql.exec("DELETE FROM slots");
    state.storage.sql.exec("DELETE FROM wants");
  });
});

describe("browser sessions per account", () => {
  it("lets an account alone use every session, then holds it to its share once another account waits", async () => {
    const gate = browserGate(env);
    // Alone, the heavy account takes both sessions.
    expect((await gate.acquire("heavy-1", 2, TTL, "acct-heavy")).granted).toBe(true);
    expect((await gate.acquire("heavy-2", 2, TTL, "acct-heavy")).granted).toBe(true);
    // The other account is refused (both are in use) and is now waiting.
    expect((await gate.acquire("light-1", 2, TTL, "acct-light")).granted).toBe(false);
    // One of the heavy account's renders ends: the freed session is not its own to take again...
    await gate.release("heavy-1");
    expect((await gate.acquire("heavy-3", 2, TTL, "acct-heavy")).granted).toBe(false);
    // ...it goes to the waiting account.
    expect((await gate.acquire("light-1", 2, TTL, "acct-light")).granted).toBe(true);
    expect(await gate.inUse()).toBe(2);
  });

  it("keeps a holder's own slot when it asks again, and gives the whole gate back to an account once the other stops waiting", async () => {
    const gate = browserGate(env);
    expect((await gate.acquire("a-1", 2, TTL, "acct-a")).granted).toBe(true);
    expect((await gate.acquire("a-1", 2, TTL, "acct-a")).granted).toBe(true);
    expect((await gate.acquire("b-1", 2, TTL, "acct-b")).granted).toBe(true);
    // Both accounts hold their share of one: a second for either is refused.
    expect((await gate.acquire("a-2", 2, TTL, "acct-a")).granted).toBe(false);
    await gate.release("b-1");
    // The other account no longer holds nor waits: the first may use both sessions again.
    await runInDurableObject(gate, async (_gate, state) => {
      state.storage.sql.exec("DELETE FROM wants");
    });
    expect((await gate.acquire("a-2", 2, TTL, "acct-a")).granted).toBe(true);
  });

  it("divides the sessions by the accounts holding or waiting, never below one each", () => {
    expect([browserShare(2, 1), browserShare(2, 2), browserShare(2, 5), browserShare(5, 2)]).toEqual([
      2, 1, 1, 3,
    ]);
  });
});
