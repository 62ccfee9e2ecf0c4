/**
 * One delivery attempt of a webhook event, and the retry schedule that follows a failed one.
 * Nothing here logs: bodies carry signed file URLs and the secret must never leave memory.
 */
import { isPrivateHost, webhookPortAllowed } from "../core/network/private-address";
import type { WebhookTarget } from "./webhook-config";
import { deliveryHeaders } from "../core/webhooks/signing";

/** A receiver that has not answered within this time has failed the attempt. */
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface OutgoingEvent {
  id: string;
  /** The JSON body exactly as signed and sent. */
  body: string;
}

export interface DeliveryOptions {
  serviceName: string;
  allowPrivateNetwork: boolean;
  /** Milliseconds since the epoch; the attempt's timestamp header is taken from it. */
  now: number;
  timeoutMs?: number;
}

export type DeliveryOutcome =
  { ok: true; statusCode: number } | { ok: false; statusCode: number | null; error: string };

function describeFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) {
    return `No response within ${timeoutMs / 1000} s`;
  }
  return `Connection failed: ${err instanceof Error ? err.message : "unknown error"}`;
}

/**
 * POSTs the event once. Success is a 2xx answer within the timeout; a redirect is a failure (it is
 * not followed, so a receiver cannot bounce signed events to a host the account never named).
 */
export async function deliverOnce(
  target: WebhookTarget & { secret: string },
  event: OutgoingEvent,
  options: DeliveryOptions,
): Promise<DeliveryOutcome> {
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    return { ok: false, statusCode: null, error: "Webhook URL is not valid" };
  }
  // The URL was checked when it was saved; a deployment that turned private networks off since
  // (or a stored row from elsewhere) must still never reach them.
  if (!options.allowPrivateNetwork && isPrivateHost(url.hostname)) {
    return { ok: false, statusCode: null, error: "Webhook URL points to a private network address" };
  }
  if (!options.allowPrivateNetwork && !webhookPortAllowed(url)) {
    return { ok: false, statusCode: null, error: "Webhook URL port is not one of 80, 443, 8080, 8443" };
  }
  const headers = await deliveryHeaders({
    serviceName: options.serviceName,
    secret: target.secret,
    eventId: event.id,
    timestamp: Math.floor(options.now / 1000),
    body: event.body,
  });
  // Not AbortSignal.timeout(): its timer outlives a quick answer and keeps the Durable Object
  // busy (and billed, and unevictable) for the full 10 s after every delivery.
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const abort = new AbortController();
  const timer = setTimeout(
    () => abort.abort(new DOMException("Delivery timed out", "TimeoutError")),
    timeoutMs,
  );
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers,
      body: event.body,
      redirect: "manual",
      signal: abort.signal,
    });
    // The receiver's answer is not used; release the connection.
    await response.body?.cancel().catch(() => undefined);
  } catch (err) {
    return { ok: false, statusCode: null, error: describeFailure(err, timeoutMs) };
  } finally {
    clearTimeout(timer);
  }
  if (response.status >= 200 && response.status < 300) return { ok: true, statusCode: response.status };
  if (response.status >= 300 && response.status < 400) {
    return {
      ok: false,
      statusCode: response.status,
      error: `Redirect (HTTP ${response.status}) not followed`,
    };
  }
  return { ok: false, statusCode: response.status, error: `HTTP ${response.status}` };
}

/**
 * Seconds to wait after the given number of failed attempts, or null when the schedule is spent
 * and the event is given up. The first retry follows the first failure.
 */
export function retryDelaySeconds(failedAttempts: number, schedule: readonly number[]): number | null {
  return failedAttempts >= 1 && failedAttempts <= schedule.length ? schedule[failedAttempts - 1] : null;
}
