/**
 * Secrets at rest under a rotated ENCRYPTION_KEY (docs/architecture.md, "Product decisions", secrets at rest),
 * and the create-webhook 500 it caused: a stored webhook secret sealed under a key the service no
 * longer has. Every case goes through the Worker's own fetch handler, queue consumer or account
 * object, with the keys given as the Worker's settings.
 */
import { createExecutionContext, runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { accountStub } from "../../src/account/account-do";
import { decryptText, encryptText, keyId } from "../../src/core/crypto/aes";
import { emitTaskEvent } from "../../src/app/webhooks/events";
import worker from "../../src/index";
import { BASE, createAccount, postJson } from "../helpers/api";
import { QueueDriver } from "../helpers/queue";
import { deliveries, insertTask } from "../account/fixtures";
import { dispatchTasks } from "../../src/app/queue/dispatch";

const WEBHOOK = "/webhooks/create-webhook/";
const SECRET_FORM = /^whsec_[A-Za-z0-9+/]+={0,2}$/;
/** Keys of earlier deployments (test values only). */
const OLD_KEY = btoa("old-key-old-key-old-key-old-key!");
const OTHER_KEY = btoa("an-unconfigured-key-32-bytes-ok!");

afterEach(() => vi.restoreAllMocks());

/** The Worker with the given settings over the test ones (deployed: private networks refused). */
async function postWith(settings: Partial<Record<string, string>>, body: unknown) {
  const res = await worker.fetch(
    new Request(`${BASE}${WEBHOOK}`, { method: "POST", body: JSON.stringify(body) }),
    { ...env, ...settings },
    createExecutionContext(),
  );
  return { status: res.status, body: await res.json<Record<string, unknown>>(), headers: res.headers };
}

async function storedSecret(accountId: string): Promise<string | null> {
  const row = await env.DB.prepare("SELECT secret_enc FROM webhooks WHERE account_id = ?")
    .bind(accountId)
    .first<{ secret_enc: string }>();
  return row?.secret_enc ?? null;
}

async function storeWebhook(accountId: string, secretEnc: string, url = "https://hooks.example.com/old") {
  const now = Date.now();
  await env.DB.prepare(
    "INSERT INTO webhooks (account_id, url, secret_enc, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
  )
    .bind(accountId, url, secretEnc, now, now)
    .run();
}

const PRIVATE_TARGETS = [
  "http://localhost/hook",
  "http://127.0.0.1/hook",
  "http://10.1.2.3/hook",
  "http://172.16.0.1/hook",
  "http://192.168.1.10/hook",
  "http://169.254.169.254/latest/meta-data",
  "http://100.64.0.1/hook",
  "http://0.0.0.0/hook",
  "http://[::1]/hook",
  "http://[fd00::1]/hook",
  "http://metadata.google.internal/hook",
];

describe("create-webhook after eleven refused private targets (the reported 500)", () => {
  const deployed = { ALLOW_PRIVATE_NETWORK: "false" };

  it("a fresh account: eleven 400s, then 201 for a public URL", async () => {
    expect(PRIVATE_TARGETS).toHaveLength(11);
    const { apiKey, accountId } = await createAccount();
    for (const url of PRIVATE_TARGETS) {
      const res = await postWith(deployed, { api_key: apiKey, webhook: url });
      expect({ url, status: res.status }).toEqual({ url, status: 400 });
    }
    const res = await postWith(deployed, { api_key: apiKey, webhook: "https://hooks.example.com/reviews" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      webhook: "https://hooks.example.com/reviews",
      status: "success",
      secret: expect.stringMatching(SECRET_FORM),
    });
    expect(await decryptText(env.ENCRYPTION_KEY, (await storedSecret(accountId))!)).toBe(res.body.secret);
  });

  it("an account whose stored secret was sealed under a key the service no longer has: 201 with a fresh secret, a warning without it", async () => {
    const { apiKey, accountId } = await createAccount();
    // What a new .dev.vars over an old .wrangler/state (or a dropped key) leaves behind.
    await storeWebhook(
      accountId,
      await encryptText(OTHER_KEY, "whsec_b2xkIHNlY3JldCBvbGQgc2VjcmV0IG9sZCBzZWNyZXQ="),
    );
    const warned = vi.spyOn(console, "warn");
    for (const url of PRIVATE_TARGETS)
      expect((await postWith(deployed, { api_key: apiKey, webhook: url })).status).toBe(400);
    const res = await postWith(deployed, { api_key: apiKey, webhook: "https://hooks.example.com/reviews" });
    expect(res.status).toBe(201);
    const secret = res.body.secret as string;
    expect(secret).toMatch(SECRET_FORM);
    expect(secret).not.toBe("whsec_b2xkIHNlY3JldCBvbGQgc2VjcmV0IG9sZCBzZWNyZXQ=");
    const stored = (await storedSecret(accountId))!;
    expect(stored.startsWith(`v2.${await keyId(env.ENCRYPTION_KEY)}.`)).toBe(true);
    expect(await decryptText(env.ENCRYPTION_KEY, stored)).toBe(secret);
    const lines = warned.mock.calls.map((args) => args.join(" ")).join("\n");
    expect(lines).toContain("webhook secret unreadable");
    expect(lines).not.toContain("whsec_");
    expect(lines).not.toContain(apiKey);
  });
});

describe("ENCRYPTION_KEY rotation", () => {
  it("a secret sealed under the previous key is still opened (kept on replacement) and stored again under the current key", async () => {
    const { apiKey, accountId } = await createAccount();
    const secret = "whsec_c2VjcmV0IHNlY3JldCBzZWNyZXQgc2VjcmV0IHNlY3I=";
    await storeWebhook(accountId, await encryptText(OLD_KEY, secret));
    // Without the previous key it could not be opened: the next case. With it, the same secret.
    const rotated = { ENCRYPTION_KEY: env.ENCRYPTION_KEY, ENCRYPTION_KEY_PREVIOUS: OLD_KEY };
    const res = await postWith(rotated, { api_key: apiKey, webhook: "https://hooks.example.com/new" });
    expect({ status: res.status, secret: res.body.secret }).toEqual({ status: 201, secret });
    const stored = (await storedSecret(accountId))!;
    expect(stored.split(".")[1]).toBe(await keyId(env.ENCRYPTION_KEY));
    expect(stored.split(".")[1]).not.toBe(await keyId(OLD_KEY));
    await expect(decryptText(OLD_KEY, stored)).rejects.toThrow();
  });

  it("without ENCRYPTION_KEY_PREVIOUS the same value is unreadable: a fresh secret, never a 500", async () => {
    const { apiKey, accountId } = await createAccount();
    const secret = "whsec_c2VjcmV0IHNlY3JldCBzZWNyZXQgc2VjcmV0IHNlY3I=";
    await storeWebhook(accountId, await encryptText(OLD_KEY, secret));
    const res = await postWith({}, { api_key: apiKey, webhook: "https://hooks.example.com/new" });
    expect(res.status).toBe(201);
    expect(res.body.secret).not.toBe(secret);
  });

  it("values from before key ids (v1.<iv>.<data>) are opened with any configured key", async () => {
    const { apiKey, accountId } = await createAccount();
    const secret = "whsec_bGVnYWN5IGxlZ2FjeSBsZWdhY3kgbGVnYWN5IGxlZ2E=";
    const v2 = await encryptText(OLD_KEY, secret);
    const [, , iv, data] = v2.split(".");
    await storeWebhook(accountId, `v1.${iv}.${data}`);
    const res = await postWith(
      { ENCRYPTION_KEY_PREVIOUS: OLD_KEY },
      { api_key: apiKey, webhook: "https://hooks.example.com/new" },
    );
    expect({ status: res.status, secret: res.body.secret }).toEqual({ status: 201, secret });
  });

  it("a delivery whose secret no configured key opens is recorded as secret_unreadable and retried, not a crash", async () => {
    const { accountId } = await createAccount();
    await storeWebhook(
      accountId,
      await encryptText(OTHER_KEY, "whsec_dW5yZWFkYWJsZSB1bnJlYWRhYmxlIHVucmVhZGFibGU="),
      "https://hooks.example.com/x",
    );
    const { taskId } = await insertTask(accountId, { status: 101 });
    await emitTaskEvent(env, taskId, "task.in_progress");
    const record = await vi.waitFor(
      async () => {
        const found = (await deliveries(accountId)).find((d) => d.task_id === taskId);
        expect(found?.attempts).toBe(1);
        return found!;
      },
      { timeout: 5_000, interval: 10 },
    );
    expect(record).toMatchObject({ state: "pending", last_status_code: null });
    expect(record.last_error).toMatch(/^secret_unreadable/);
    expect(record.next_attempt_at).not.toBeNull();
    // The account object is still healthy: its next alarm runs the retry the same way.
    expect(await runDurableObjectAlarm(accountStub(env, accountId))).toBe(true);
    expect((await deliveries(accountId)).find((d) => d.task_id === taskId)?.attempts).toBe(2);
  });

  it("a task whose login cookies no configured key opens fails with secret_unreadable", async () => {
    const queue = new QueueDriver();
    try {
      const { accountId } = await createAccount();
      const { taskId } = await insertTask(accountId, { status: 100 });
      const cookies = await encryptText(
        OTHER_KEY,
        JSON.stringify([{ name: "s", value: "v", domain: "example.com" }]),
      );
      await env.DB.prepare("UPDATE tasks SET cookies_enc = ? WHERE id = ?").bind(cookies, taskId).run();
      await dispatchTasks(env, [{ taskId, publisherKey: "example.com", accountId }]);
      await queue.drain();
      const row = await env.DB.prepare("SELECT status, reason, cookies_enc FROM tasks WHERE id = ?")
        .bind(taskId)
        .first();
      expect(row).toEqual({ status: 500, reason: "secret_unreadable", cookies_enc: null });
      expect(queue.deliveries.every((d) => d.outcome === "ack")).toBe(true);
    } finally {
      queue.restore();
    }
  });
});

describe("create-webhook when the database fails", () => {
  it("one failed save is retried and answers 201", async () => {
    const { apiKey, accountId } = await createAccount();
    const prepare = env.DB.prepare.bind(env.DB);
    let failures = 0;
    vi.spyOn(env.DB, "prepare").mockImplementation((query: string) => {
      if (/^insert into "webhooks"/i.test(query) && failures++ === 0)
        throw new Error("D1_ERROR: Network connection lost.");
      return prepare(query);
    });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const res = await postJson(WEBHOOK, { api_key: apiKey, webhook: "https://hooks.example.com/a" });
    expect(res.status).toBe(201);
    expect(failures).toBe(2);
    expect(await decryptText(env.ENCRYPTION_KEY, (await storedSecret(accountId))!)).toBe(res.body.secret);
  });

  it("a save that fails twice answers 503 with Retry-After, stores nothing and logs neither key nor secret", async () => {
    const { apiKey, accountId } = await createAccount();
    const prepare = env.DB.prepare.bind(env.DB);
    vi.spyOn(env.DB, "prepare").mockImplementation((query: string) => {
      if (/^insert into "webhooks"/i.test(query)) throw new Error("D1_ERROR: database is locked");
      return prepare(query);
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const res = await postJson(WEBHOOK, { api_key: apiKey, webhook: "https://hooks.example.com/a" });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 503,
      body: { error: "Database error: could not save webhook" },
    });
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await storedSecret(accountId)).toBeNull();
    const lines = logged.mock.calls.map((args) => args.join(" ")).join("\n");
    expect(lines).toContain("database is locked");
    expect(lines).not.toContain(apiKey);
    expect(lines).not.toContain("whsec_");
  });

  it("an account object that cannot lease requests never makes it a 500: the quota fails open (docs/api.md) and the webhook is saved", async () => {
    const { apiKey } = await createAccount();
    const get = env.ACCOUNT.get.bind(env.ACCOUNT);
    vi.spyOn(env.ACCOUNT, "get").mockImplementation((id) => {
      const stub = get(id);
      return new Proxy(stub, {
        get(target, prop, receiver) {
          if (prop === "leaseRequests") return () => Promise.reject(new Error("The service was stopped"));
          return Reflect.get(target, prop, receiver);
        },
      });
    });
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await postJson(WEBHOOK, { api_key: apiKey, webhook: "https://hooks.example.com/a" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      webhook: "https://hooks.example.com/a",
      status: "success",
      secret: expect.stringMatching(/^whsec_/),
    });
  });
});
