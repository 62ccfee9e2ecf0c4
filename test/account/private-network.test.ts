import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { delay, http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { deliverOnce } from "../../src/account/webhook-delivery";
import { createApp } from "../../src/http/app";
import { BASE, createAccount, postJson } from "../helpers/api";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The real app under a deployed configuration: private networks off (tests otherwise run with them on). */
async function createWebhookDeployed(apiKey: string, webhook: string) {
  const deployed = { ...env, ALLOW_PRIVATE_NETWORK: "false" } as Env;
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

const event = { id: "evt_t_in_progress", body: '{"task_id":"t"}' };
const options = { serviceName: "ReviewCollector", now: Date.now() };

describe("webhook targets on private networks", () => {
  it("are refused by create-webhook when ALLOW_PRIVATE_NETWORK is off", async () => {
    const { apiKey } = await createAccount();
    for (const url of [
      "http://127.0.0.1:8787/hook",
      "http://localhost/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://10.1.2.3/x",
      "http://[::1]/x",
      "http://metadata.google.internal/",
    ]) {
      expect(await createWebhookDeployed(apiKey, url), url).toEqual({
        status: 400,
        body: { error: "Invalid payload", details: { webhook: ["Enter a valid URL."] } },
      });
    }
    expect(await createWebhookDeployed(apiKey, "https://hooks.example.com/reviews?x=1")).toMatchObject({
      status: 201,
      body: { webhook: "https://hooks.example.com/reviews?x=1" },
    });
  });

  it("are accepted when ALLOW_PRIVATE_NETWORK is on (local development, and these tests)", async () => {
    const { apiKey } = await createAccount();
    expect(
      await postJson("/webhooks/create-webhook/", { api_key: apiKey, webhook: "http://127.0.0.1:8787/hook" }),
    ).toMatchObject({ status: 201 });
  });

  it("are checked again at send time and never called when not allowed", async () => {
    const calls: string[] = [];
    server.use(
      http.post(
        "http://127.0.0.1:9999/hook",
        ({ request }) => (calls.push(request.url), new HttpResponse(null, { status: 200 })),
      ),
    );
    const target = { url: "http://127.0.0.1:9999/hook", secret: "whsec_c2VjcmV0" };

    expect(await deliverOnce(target, event, { ...options, allowPrivateNetwork: false })).toEqual({
      ok: false,
      statusCode: null,
      error: "Webhook URL points to a private network address",
    });
    expect(calls).toEqual([]);
    expect(await deliverOnce(target, event, { ...options, allowPrivateNetwork: true })).toEqual({
      ok: true,
      statusCode: 200,
    });
    expect(calls).toHaveLength(1);
  });
});

describe("delivery timeout", () => {
  it("fails an attempt the receiver does not answer in time", async () => {
    server.use(
      http.post(
        "https://slow.receiver.example.com/hook",
        async () => (await delay("infinite"), new HttpResponse(null, { status: 200 })),
      ),
    );
    const target = { url: "https://slow.receiver.example.com/hook", secret: "whsec_c2VjcmV0" };
    expect(
      await deliverOnce(target, event, { ...options, allowPrivateNetwork: false, timeoutMs: 50 }),
    ).toEqual({
      ok: false,
      statusCode: null,
      error: "No response within 0.05 s",
    });
  });
});
