/** Limits beyond the submit plan rate: per client IP and on invalid keys (Workers rate limiting), and per account (the account object). */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { accountStub } from "../../src/account/account-do";
import { leaseRequests } from "../../src/account/rate-limiter";
import { createAccount, post } from "../helpers/api";

/**
 * The limiter's windows are whole wall-clock minutes (as the platform's are): a test that needs
 * `seconds` starts in a window with at least that much left, so its requests all fall in one window.
 */
async function windowWithRoom(seconds: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

const retrieveBody = (apiKey: string) => ({
  api_key: apiKey,
  foreign_key: "none",
  publisher_key: "example.com",
  task_id: "none",
});

describe("abuse limits", () => {
  it(
    "answers 429 instead of 401 once an address has sent 20 invalid keys in a minute; other addresses are unaffected",
    { timeout: 90_000 },
    async () => {
      await windowWithRoom(15);
      const ip = "203.0.113.7";
      for (let i = 0; i < 20; i++) {
        const res = await post("/retrieve-task/", retrieveBody(`rk_wrong_${i}`), { "CF-Connecting-IP": ip });
        expect(res.status).toBe(401);
      }
      const limited = await post(
        "/webhooks/create-webhook/",
        { api_key: "rk_wrong_x", webhook: "https://example.com/hook" },
        { "CF-Connecting-IP": ip },
      );
      expect(limited.status).toBe(429);
      expect(limited.headers.get("Retry-After")).toBe("60");
      expect(await limited.json()).toEqual({
        error: "Too Many Requests",
        details: {
          rate_limit: [
            "Too many requests with an invalid API key from this address. Retry after 60 seconds.",
          ],
        },
      });
      const elsewhere = await post("/retrieve-task/", retrieveBody("rk_wrong_y"), {
        "CF-Connecting-IP": "203.0.113.8",
      });
      expect(elsewhere.status).toBe(401);
    },
  );

  it(
    "limits retrieve per account to 600 requests a minute, whatever the address, leasing them from the account object in blocks of up to 10",
    { timeout: 120_000 },
    async () => {
      const { accountId, apiKey } = await createAccount({ plan: "unlimited" });
      const statuses: number[] = [];
      for (let i = 0; i < 600; i += 50) {
        const batch = await Promise.all(
          Array.from({ length: 50 }, (_, j) =>
            post("/retrieve-task/", retrieveBody(apiKey), {
              "CF-Connecting-IP": `198.51.100.${(i + j) % 200}`,
            }),
          ),
        );
        statuses.push(...batch.map((r) => r.status));
      }
      expect(new Set(statuses)).toEqual(new Set([404]));
      const over = await post("/retrieve-task/", retrieveBody(apiKey), {
        "CF-Connecting-IP": "198.51.100.250",
      });
      expect(over.status).toBe(429);
      // The sliding window frees its first slot a minute after the first block was granted.
      const retryAfter = Number(over.headers.get("Retry-After"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(await over.json()).toEqual({
        error: "Too Many Requests",
        details: { rate_limit: [`Too many requests for this account. Retry after ${retryAfter} seconds.`] },
      });
      // 600 requests cost about 60 calls to the account object (blocks grow to 10 with demand), not 600.
      const leases = await runInDurableObject(accountStub(env, accountId), (_, state) =>
        state.storage.sql
          .exec<{ calls: number; granted: number }>(
            "SELECT COUNT(*) AS calls, SUM(n) AS granted FROM request_leases",
          )
          .one(),
      );
      expect(leases.granted).toBe(600);
      expect(leases.calls).toBeGreaterThanOrEqual(60);
      expect(leases.calls).toBeLessThanOrEqual(66);
    },
  );

  it("serves retrieve (fail open, never a 500) when the account object cannot answer", async () => {
    const { apiKey } = await createAccount({ plan: "unlimited" });
    // Every call to an account object fails, as during an outage of the objects.
    const spy = vi.spyOn(env.ACCOUNT, "get").mockImplementation(() => {
      throw new Error("Durable Object is overloaded");
    });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await post("/retrieve-task/", retrieveBody(apiKey));
        expect(res.status).toBe(404);
      }
    } finally {
      spy.mockRestore();
    }
  });

  it("never grants more of the per-account limit than the sliding minute has left", async () => {
    const stub = accountStub(env, `lease-${crypto.randomUUID()}`);
    await runInDurableObject(stub, (_, state) => {
      const sql = state.storage.sql;
      const t0 = 1_000_000;
      expect(leaseRequests(sql, 25, 10, t0)).toEqual({ granted: 10, resetSeconds: 60 });
      expect(leaseRequests(sql, 25, 10, t0 + 1_000)).toEqual({ granted: 10, resetSeconds: 59 });
      expect(leaseRequests(sql, 25, 10, t0 + 2_000)).toEqual({ granted: 5, resetSeconds: 58 });
      expect(leaseRequests(sql, 25, 10, t0 + 3_000)).toEqual({ granted: 0, resetSeconds: 57 });
      // The first block leaves the window a minute after its grant; only its 10 come back.
      expect(leaseRequests(sql, 25, 20, t0 + 60_000)).toEqual({ granted: 10, resetSeconds: 1 });
    });
  });
});
