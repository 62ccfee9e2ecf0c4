import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { decryptText } from "../../src/core/crypto/aes";
import { fromBase64 } from "../../src/core/crypto/encoding";
import worker from "../../src/index";
import { BASE, createAccount, postJson } from "../helpers/api";

const WEBHOOK = "/webhooks/create-webhook/";
const SECRET_FORM = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

afterEach(() => {
  vi.restoreAllMocks();
});

async function storedWebhook(accountId: string) {
  return env.DB.prepare("SELECT url, secret_enc FROM webhooks WHERE account_id = ?")
    .bind(accountId)
    .first<{ url: string; secret_enc: string }>();
}

describe("create-webhook: secrets", () => {
  it("answers 201 with a new secret, keeps it when the URL is replaced, makes a new one on rotate_secret", async () => {
    const { apiKey, accountId } = await createAccount();
    const first = await postJson(WEBHOOK, {
      api_key: apiKey,
      webhook: "https://hooks.example.com/a?source=reviews&x=1",
    });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      webhook: "https://hooks.example.com/a?source=reviews&x=1",
      status: "success",
      secret: expect.stringMatching(SECRET_FORM),
    });
    const secret: string = first.body.secret;
    expect(fromBase64(secret.slice("whsec_".length)).byteLength).toBe(32);

    // Stored only encrypted.
    const row = await storedWebhook(accountId);
    expect(row!.secret_enc).not.toContain(secret.slice("whsec_".length, 20));
    expect(await decryptText(env.ENCRYPTION_KEY, row!.secret_enc)).toBe(secret);

    const replaced = await postJson(WEBHOOK, { api_key: apiKey, webhook: "https://hooks.example.com/b" });
    expect(replaced.status).toBe(201);
    expect(replaced.body).toEqual({ webhook: "https://hooks.example.com/b", status: "success", secret });
    expect((await storedWebhook(accountId))!.url).toBe("https://hooks.example.com/b");

    const rotated = await postJson(WEBHOOK, {
      api_key: apiKey,
      webhook: "https://hooks.example.com/b",
      rotate_secret: true,
    });
    expect(rotated.status).toBe(201);
    expect(rotated.body.secret).toMatch(SECRET_FORM);
    expect(rotated.body.secret).not.toBe(secret);

    const again = await postJson(WEBHOOK, {
      api_key: apiKey,
      webhook: "https://hooks.example.com/c",
      rotate_secret: "false",
    });
    expect(again.body.secret).toBe(rotated.body.secret);
  });

  it("each account has its own secret", async () => {
    const [a, b] = [await createAccount(), await createAccount()];
    const ra = await postJson(WEBHOOK, { api_key: a.apiKey, webhook: "https://hooks.example.com/a" });
    const rb = await postJson(WEBHOOK, { api_key: b.apiKey, webhook: "https://hooks.example.com/a" });
    expect(ra.body.secret).not.toBe(rb.body.secret);
  });
});

describe("create-webhook: validation", () => {
  const invalidUrls = [
    "hooks.example.com/reviews",
    "//hooks.example.com/reviews",
    "ftp://hooks.example.com/reviews",
    "javascript:alert(1)",
    "mailto:ops@example.com",
    "https://user:pass@hooks.example.com/reviews",
    "https://user@hooks.example.com/reviews",
    "http://",
    "https:///path-only",
    "https:hooks.example.com/reviews",
    "https:/hooks.example.com/reviews",
    "https:\\\\hooks.example.com\\reviews",
    "https://hooks.example.com/a b",
    "not a url",
    `https://hooks.example.com/${"a".repeat(2049 - "https://hooks.example.com/".length)}`,
  ];

  it.each(
    invalidUrls.map((url) => [url.length > 80 ? `${url.slice(0, 40)}… (${url.length} chars)` : url, url]),
  )("%s is not a valid URL", async (_name, url) => {
    const { apiKey } = await createAccount();
    const res = await postJson(WEBHOOK, { api_key: apiKey, webhook: url });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { error: "Invalid payload", details: { webhook: ["Enter a valid URL."] } },
    });
  });

  it.each([
    [undefined, "This field is required."],
    [null, "This field may not be null."],
    ["", "This field may not be blank."],
    [42, "Not a valid string."],
    [{ url: "https://hooks.example.com" }, "Not a valid string."],
  ])("webhook = %j", async (webhook, message) => {
    const { apiKey } = await createAccount();
    const res = await postJson(WEBHOOK, { api_key: apiKey, webhook });
    expect(res.body).toEqual({ error: "Invalid payload", details: { webhook: [message] } });
  });

  it("rotate_secret must be a boolean", async () => {
    const { apiKey } = await createAccount();
    const res = await postJson(WEBHOOK, {
      api_key: apiKey,
      webhook: "https://hooks.example.com/",
      rotate_secret: "sometimes",
    });
    expect(res.body).toEqual({
      error: "Invalid payload",
      details: { rotate_secret: ["Must be a valid boolean."] },
    });
  });

  it("accepts a URL of exactly 2048 characters, http, a port, a query, and (in local development) loopback hosts", async () => {
    const { apiKey } = await createAccount();
    const long = `https://hooks.example.com/${"a".repeat(2048 - "https://hooks.example.com/".length)}`;
    for (const url of [
      long,
      "http://hooks.example.com:8080/in?a=1&b=%20x",
      "  https://hooks.example.com/trimmed  ",
      "http://127.0.0.1:9999/hook",
      "http://localhost:3000/hook",
    ]) {
      const res = await postJson(WEBHOOK, { api_key: apiKey, webhook: url });
      expect({ url, status: res.status, webhook: res.body.webhook }).toEqual({
        url,
        status: 201,
        webhook: url.trim(),
      });
    }
  });
});

describe("create-webhook: deployed configuration refuses private targets", () => {
  // The Worker's own fetch handler with the deployed setting (wrangler.toml: "false").
  const deployed = { ...env, ALLOW_PRIVATE_NETWORK: "false" } as Env;
  const postDeployed = async (body: unknown) => {
    const res = await worker.fetch(
      new Request(`${BASE}${WEBHOOK}`, { method: "POST", body: JSON.stringify(body) }),
      deployed,
      createExecutionContext(),
    );
    return { status: res.status, body: await res.json<Record<string, unknown>>() };
  };

  it.each([
    ["http://localhost/hook", false],
    ["http://api.localhost/hook", false],
    ["http://127.0.0.1/hook", false],
    ["http://10.1.2.3/hook", false],
    ["http://172.16.0.1/hook", false],
    ["http://192.168.1.10/hook", false],
    ["http://169.254.169.254/latest/meta-data", false],
    ["http://100.64.0.1/hook", false],
    ["http://0.0.0.0/hook", false],
    ["http://[::1]/hook", false],
    ["http://[fd00::1]/hook", false],
    ["http://[fe80::1]/hook", false],
    ["http://[::ffff:127.0.0.1]/hook", false],
    ["http://metadata.google.internal/hook", false],
    ["https://hooks.example.com/hook", true],
    ["https://8.8.8.8/hook", true],
    ["https://172.32.0.1/hook", true],
  ])("%s allowed: %s", async (url, allowed) => {
    const { apiKey, accountId } = await createAccount();
    const res = await postDeployed({ api_key: apiKey, webhook: url });
    if (allowed) {
      expect({ status: res.status, webhook: res.body.webhook }).toEqual({ status: 201, webhook: url });
      expect((await storedWebhook(accountId))!.url).toBe(url);
    } else {
      expect(res).toEqual({
        status: 400,
        body: { error: "Invalid payload", details: { webhook: ["Enter a valid URL."] } },
      });
      expect(await storedWebhook(accountId)).toBeNull();
    }
  });
});
