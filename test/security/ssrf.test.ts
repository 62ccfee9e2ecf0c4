import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { deliverOnce } from "../../src/account/webhook-delivery";
import { createApp } from "../../src/http/app";
import { BASE, createAccount, postJson } from "../helpers/api";
import { QueueDriver } from "../helpers/queue";
import { retrieve, submitScrape } from "../e2e/support";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The deployed configuration: private networks off, no publisher origins. */
const deployed = { ...env, ALLOW_PRIVATE_NETWORK: "false", PUBLISHER_ORIGINS: "" } as Env;

async function createWebhookDeployed(apiKey: string, webhook: string) {
  const res = await createApp().fetch(
    new Request(`${BASE}/webhooks/create-webhook/`, {
      method: "POST",
      body: JSON.stringify({ api_key: apiKey, webhook }),
    }),
    deployed,
    createExecutionContext(),
  );
  return { status: res.status, body: await res.json<Record<string, unknown>>() };
}

const refused = {
  status: 400,
  body: { error: "Invalid payload", details: { webhook: ["Enter a valid URL."] } },
};

describe("webhook hosts that reach internal networks by name (deployed)", () => {
  it.each([
    "http://vm:8080/hook",
    "http://vm./hook",
    "https://printer.lan/hook",
    "https://kubernetes.default.svc/hook",
    "https://api.default.svc.cluster.local/hook",
    "https://localhost.localdomain/hook",
    "https://router.home.arpa/hook",
    "https://db.internal/hook",
    "https://wiki.corp/hook",
    "https://127.0.0.1.nip.io/hook",
    "https://app.10.0.0.5.sslip.io/hook",
    "https://192-168-1-1.sslip.io/hook",
    "https://7f000001.nip.io/hook",
    "https://anything.lvh.me/hook",
  ])("refuses %s", async (url) => {
    const { apiKey } = await createAccount();
    expect(await createWebhookDeployed(apiKey, url)).toEqual(refused);
  });

  it("still accepts public names, including wildcard-DNS names that embed a public address", async () => {
    const { apiKey } = await createAccount();
    for (const url of [
      "https://hooks.example.com/x",
      "https://8.8.8.8.nip.io/x",
      "https://hooks.example.co.uk:8443/x",
    ]) {
      expect(await createWebhookDeployed(apiKey, url), url).toMatchObject({
        status: 201,
        body: { webhook: url },
      });
    }
  });
});

describe("webhook IP literals (deployed)", () => {
  it.each([
    "http://[::127.0.0.1]/hook",
    "http://[::ffff:7f00:1]/hook",
    "http://[64:ff9b::7f00:1]/hook",
    "http://[64:ff9b::8.8.8.8]/hook",
    "http://[2002:7f00:1::]/hook",
    "http://[2001::1]/hook",
    "http://[fec0::1]/hook",
    "http://[fd00::1]/hook",
    "http://[fe80::1]/hook",
    "http://[::]/hook",
    "http://0.0.0.0/hook",
    "http://2130706433/hook",
    "http://0x7f.1/hook",
    "http://100.64.0.1/hook",
    "http://192.0.2.1/hook",
    "http://198.18.0.1/hook",
    "http://240.0.0.1/hook",
    "http://255.255.255.255/hook",
  ])("refuses %s", async (url) => {
    const { apiKey } = await createAccount();
    expect(await createWebhookDeployed(apiKey, url)).toEqual(refused);
  });

  it("accepts public addresses and stores the normalized URL", async () => {
    const { apiKey, accountId } = await createAccount();
    expect(await createWebhookDeployed(apiKey, "https://[2606:4700:4700::1111]/hook")).toMatchObject({
      status: 201,
    });
    const res = await createWebhookDeployed(apiKey, "HTTPS://Hooks.Example.COM:443/a/../hook?x=1");
    expect(res).toMatchObject({ status: 201, body: { webhook: "https://hooks.example.com/hook?x=1" } });
    const row = await env.DB.prepare("SELECT url FROM webhooks WHERE account_id = ?")
      .bind(accountId)
      .first<{ url: string }>();
    expect(row?.url).toBe("https://hooks.example.com/hook?x=1");
  });
});

describe("webhook ports (deployed)", () => {
  it("allows only 80, 443, 8080 and 8443 at create-webhook", async () => {
    const { apiKey } = await createAccount();
    for (const port of ["22", "25", "6379", "8099", "9200", "81"]) {
      expect(await createWebhookDeployed(apiKey, `https://hooks.example.com:${port}/x`), port).toEqual(
        refused,
      );
    }
    for (const url of [
      "http://hooks.example.com:80/x",
      "https://hooks.example.com:443/x",
      "http://hooks.example.com:8080/x",
      "https://hooks.example.com:8443/x",
      "http://hooks.example.com/x",
    ]) {
      expect(await createWebhookDeployed(apiKey, url), url).toMatchObject({ status: 201 });
    }
  });

  it("allows any port in local development", async () => {
    const { apiKey } = await createAccount();
    expect(
      await postJson("/webhooks/create-webhook/", {
        api_key: apiKey,
        webhook: "https://hooks.example.com:6379/x",
      }),
    ).toMatchObject({ status: 201 });
  });

  it("refuses other ports and internal names at delivery too, without calling them", async () => {
    const calls: string[] = [];
    const record = ({ request }: { request: { url: string } }) => (
      calls.push(request.url),
      new HttpResponse(null, { status: 200 })
    );
    server.use(
      http.post("https://hooks.example.com:6379/x", record),
      http.post("http://vm:8080/hook", record),
      http.post("https://hooks.example.com:8443/x", record),
    );
    const event = { id: "evt_t_in_progress", body: '{"task_id":"t"}' };
    const options = { serviceName: "ReviewCollector", now: Date.now(), allowPrivateNetwork: false };
    expect(
      await deliverOnce(
        { url: "https://hooks.example.com:6379/x", secret: "whsec_c2VjcmV0" },
        event,
        options,
      ),
    ).toEqual({
      ok: false,
      statusCode: null,
      error: "Webhook URL port is not one of 80, 443, 8080, 8443",
    });
    expect(
      await deliverOnce({ url: "http://vm:8080/hook", secret: "whsec_c2VjcmV0" }, event, options),
    ).toEqual({
      ok: false,
      statusCode: null,
      error: "Webhook URL points to a private network address",
    });
    expect(calls).toEqual([]);
    expect(
      await deliverOnce(
        { url: "https://hooks.example.com:8443/x", secret: "whsec_c2VjcmV0" },
        event,
        options,
      ),
    ).toEqual({ ok: true, statusCode: 200 });
    expect(calls).toEqual(["https://hooks.example.com:8443/x"]);
  });
});

describe("profile redirects to internal names (deployed)", () => {
  it("fails the task with profile_not_found and never requests the internal host", async () => {
    const internal: string[] = [];
    server.use(
      http.get(
        "https://redirector.example.com/biz/cafe",
        () => new HttpResponse(null, { status: 302, headers: { Location: "http://vm:8099/biz/cafe" } }),
      ),
      http.get(
        "http://vm:8099/*",
        ({ request }) => (internal.push(request.url), HttpResponse.text("<html></html>")),
      ),
    );
    const queue = new QueueDriver({ settings: { ALLOW_PRIVATE_NETWORK: "false", PUBLISHER_ORIGINS: "" } });
    try {
      const task = await submitScrape("redirector.example.com", "https://redirector.example.com/biz/cafe");
      await queue.drain();
      expect((await retrieve(task)).response_message).toEqual([
        {
          status: "failed",
          message: "Task processing failed",
          task_status: 500,
          reason: "profile_not_found",
        },
      ]);
      expect(internal).toEqual([]);
    } finally {
      queue.restore();
    }
  });
});
