/** Monitor bodies at the size limits (docs/monitoring.md, "Limits"), found against the real API. */
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { MONITOR_LIMITS } from "../../src/app/monitors/store";
import { MAX_PUBLISHERS } from "../../src/http/schemas/publishers";
import { business, postJson } from "./api";

/** Description and tags that add `extra` bytes to the business's JSON (description at most 10,000, tags 255). */
function businessWith(extra: number) {
  const base = business();
  const description = base.description + "d".repeat(Math.min(extra, 10_000 - base.description.length));
  let rest = extra - (description.length - base.description.length);
  const tags = [...base.tags];
  // Each further tag costs its characters plus 3 bytes ("", and a comma).
  while (rest > 0) {
    const chars = Math.min(255, rest - 3);
    tags.push("t".repeat(chars));
    rest -= chars + 3;
  }
  return { ...base, description, tags };
}

/**
 * A create-monitor body whose business JSON is `businessExtra` bytes larger than the plain test
 * business, with `publishers` generic publishers (default 25), each with a login cookie of
 * `cookieChars` characters (0 = none).
 */
export function monitorBody(
  apiKey: string,
  host: string,
  sizes: { businessExtra: number; cookieChars: number; publishers?: number },
  overrides: Record<string, unknown> = {},
) {
  const count = sizes.publishers ?? MAX_PUBLISHERS;
  const publishers = Object.fromEntries(
    Array.from({ length: count }, (_, i) => {
      const domain = `p${i}.${host}`;
      return [
        domain,
        {
          profile_key: `https://${domain}/biz/blue-door`,
          ...(sizes.cookieChars
            ? {
                persona: {
                  additional_cookies: {
                    login: [{ name: "session", value: "v".repeat(sizes.cookieChars), domain }],
                  },
                },
              }
            : {}),
        },
      ];
    }),
  );
  return {
    api_key: apiKey,
    foreign_key: "store-large",
    business: businessWith(sizes.businessExtra),
    publishers,
    interval_hours: 1,
    ...overrides,
  };
}

export async function storedSizes(monitorId: string): Promise<{ business: number; publishers: number }> {
  const row = await env.DB.prepare(
    `SELECT length(CAST(business AS BLOB)) AS business,
       length(CAST(publishers AS BLOB)) + length(CAST(cookies AS BLOB)) AS publishers
     FROM monitor_details WHERE monitor_id = ?`,
  )
    .bind(monitorId)
    .first<{ business: number; publishers: number }>();
  return row!;
}

/**
 * The sizes of the largest monitor the limits allow, with 25 publishers that each carry login
 * cookies: one probe monitor is created and measured (sizes grow linearly with the strings; a
 * sealed cookie grows by 4 bytes per 3), then deleted.
 */
export async function largestSizes(apiKey: string, host: string) {
  const probe = await postJson(
    "/monitors/create-monitor/",
    monitorBody(apiKey, host, { businessExtra: 0, cookieChars: 600 }),
  );
  expect(probe.status, JSON.stringify(probe.body)).toBe(201);
  const measured = await storedSizes(probe.body.monitor_id);
  await postJson("/monitors/delete-monitor/", { api_key: apiKey, monitor_id: probe.body.monitor_id });
  const businessExtra = MONITOR_LIMITS.businessBytes - measured.business;
  // Base64 rounds to 4 characters per 3 bytes: stay one block under, per publisher.
  const spare = MONITOR_LIMITS.publishersBytes - measured.publishers;
  const cookieChars = 600 + Math.floor(((spare / MAX_PUBLISHERS) * 3) / 4) - 3;
  return { businessExtra, cookieChars };
}
