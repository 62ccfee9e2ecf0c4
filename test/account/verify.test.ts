import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { deliveryHeaders } from "../../src/core/webhooks/signing";
import { verifyWebhook } from "../../client/verify-webhook";

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const body = JSON.stringify({
  task_id: "t-1",
  event: "task.completed",
  task_status: 200,
  text: "café <b>&</b>",
});
const now = 1_790_000_000_000;
const timestamp = String(now / 1000);

/** Headers made the way a receiver's own code would, with node:crypto. */
function signedByHand(ts = timestamp, payload = body, key = secret): Record<string, string> {
  return {
    "x-webhook-id": "evt_t-1_completed",
    "x-webhook-timestamp": ts,
    "x-webhook-signature": `sha256=${createHmac("sha256", key).update(`${ts}.${payload}`).digest("hex")}`,
  };
}

describe("verifyWebhook", () => {
  it("accepts a delivery signed by the service, from Headers and from a Node header record", async () => {
    const headers = await deliveryHeaders({
      serviceName: "ReviewCollector",
      secret,
      eventId: "evt_t-1_completed",
      timestamp: now / 1000,
      body,
    });
    expect(await verifyWebhook({ secret, headers: new Headers(headers), body, now })).toEqual({
      ok: true,
      id: "evt_t-1_completed",
      timestamp: now / 1000,
    });
    expect(
      await verifyWebhook({
        secret,
        headers: signedByHand(),
        body: new TextEncoder().encode(body),
        now: new Date(now),
      }),
    ).toMatchObject({ ok: true });
    expect(
      await verifyWebhook({
        secret,
        headers: { ...signedByHand(), "x-webhook-timestamp": [timestamp] },
        body,
        now,
      }),
    ).toMatchObject({ ok: true });
  });

  it("refuses a changed body, a wrong secret and a malformed signature", async () => {
    expect(
      await verifyWebhook({ secret, headers: signedByHand(), body: body.replace("200", "500"), now }),
    ).toEqual({ ok: false, reason: "invalid_signature" });
    expect(await verifyWebhook({ secret: "whsec_other", headers: signedByHand(), body, now })).toEqual({
      ok: false,
      reason: "invalid_signature",
    });
    const truncated = {
      ...signedByHand(),
      "x-webhook-signature": signedByHand()["x-webhook-signature"].slice(0, -2),
    };
    expect(await verifyWebhook({ secret, headers: truncated, body, now })).toEqual({
      ok: false,
      reason: "invalid_signature",
    });
    const unprefixed = {
      ...signedByHand(),
      "x-webhook-signature": signedByHand()["x-webhook-signature"].slice("sha256=".length),
    };
    expect(await verifyWebhook({ secret, headers: unprefixed, body, now })).toEqual({
      ok: false,
      reason: "invalid_signature",
    });
  });

  it("refuses timestamps outside the tolerance, five minutes by default", async () => {
    const at = (offsetSeconds: number) => String(now / 1000 + offsetSeconds);
    expect(await verifyWebhook({ secret, headers: signedByHand(at(-300)), body, now })).toMatchObject({
      ok: true,
    });
    expect(await verifyWebhook({ secret, headers: signedByHand(at(300)), body, now })).toMatchObject({
      ok: true,
    });
    expect(await verifyWebhook({ secret, headers: signedByHand(at(-301)), body, now })).toEqual({
      ok: false,
      reason: "timestamp_out_of_tolerance",
    });
    expect(
      await verifyWebhook({ secret, headers: signedByHand(at(-301)), body, now, toleranceSeconds: 600 }),
    ).toMatchObject({ ok: true });
    expect(await verifyWebhook({ secret, headers: signedByHand("soon"), body, now })).toEqual({
      ok: false,
      reason: "invalid_timestamp",
    });
  });

  it("refuses a delivery without its headers", async () => {
    const { "x-webhook-signature": _dropped, ...unsigned } = signedByHand();
    expect(await verifyWebhook({ secret, headers: unsigned, body, now })).toEqual({
      ok: false,
      reason: "missing_headers",
    });
  });
});
