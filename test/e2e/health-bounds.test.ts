/**
 * Health that clients cannot steer (security review 2026-11, findings 3 and 8): only tracked
 * publishers (the registry's and the canaries') are recorded, shown and alerted on; one account's
 * failures never turn a publisher degraded or failing; operator alerts are capped per tick; the
 * public reads never see client-created keys.
 */
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { evaluateHealthAlerts, MAX_ALERTS_PER_TICK } from "../../src/app/health/alerts";
import { loadHealth } from "../../src/app/health/read";
import { listPublishers } from "../../src/publishers/registry";
import { call, createAccount } from "../helpers/api";
import { QueueDriver } from "../helpers/queue";
import { origins, receivedHooks, slug, submitScrape } from "./support";

/** A listed publisher no other test uses, pointed at the fixture site whose /gone/ pages are 404. */
const LISTED = "hotfrog.com";
const INVENTED = "status.test";

async function opsAlertsFor(publisher: string): Promise<string[]> {
  return (await receivedHooks("ops"))
    .map((hook) => JSON.parse(hook.body) as { publisher: string; event: string })
    .filter((alert) => alert.publisher === publisher)
    .map((alert) => alert.event);
}

async function tick(now: number): Promise<void> {
  await worker.scheduled(createScheduledController({ scheduledTime: now, cron: "*/5 * * * *" }), env);
}

/** `count` tasks of one account whose profile is gone (profile_not_found), run to the end. */
async function failingTasks(publisher: string, count: number): Promise<void> {
  const driver = new QueueDriver({
    settings: { PUBLISHER_ORIGINS: JSON.stringify({ ...origins, [LISTED]: origins["status.test"] }) },
  });
  try {
    const { apiKey } = await createAccount({ plan: "unlimited" });
    for (let i = 0; i < count; i++)
      await submitScrape(publisher, `https://${publisher}/gone/${slug("steer")}`, {}, {}, apiKey);
    await driver.drain();
  } finally {
    driver.restore();
  }
}

describe("publisher health bounds", () => {
  it("never records, shows or alerts on a domain that is in no registry and no canary list", async () => {
    await failingTasks(INVENTED, 10);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM publisher_hours WHERE publisher_key = ?")
      .bind(INVENTED)
      .first<{ n: number }>();
    expect(rows!.n).toBe(0);
    const alerts = await evaluateHealthAlerts(env, Date.now());
    expect(alerts.filter((a) => a.publisher === INVENTED)).toEqual([]);
    expect(await opsAlertsFor(INVENTED)).toEqual([]);
    expect(await (await call("/status")).text()).not.toContain(INVENTED);
    expect((await call(`/publishers/${INVENTED}`)).status).toBe(404);
  });

  it("lets no single account turn a registry publisher failing; failures from a second account do", async () => {
    await failingTasks(LISTED, 10);
    const publisher = async () =>
      (
        await (
          await call(`/publishers/${LISTED}`)
        ).json<{
          health: { status: string; tasks_24h: number; success_rate_24h: number };
        }>()
      ).health;
    // Recorded (it is a registry publisher) but not steered: ten failures of one account.
    expect(await publisher()).toMatchObject({ status: "operational", tasks_24h: 10, success_rate_24h: 0 });
    expect((await evaluateHealthAlerts(env, Date.now())).filter((a) => a.publisher === LISTED)).toEqual([]);
    // Another account sees the same: now it is the publisher's.
    await failingTasks(LISTED, 2);
    expect((await publisher()).status).toBe("failing");
    expect(
      (await evaluateHealthAlerts(env, Date.now() + 1000)).filter((a) => a.publisher === LISTED),
    ).toEqual([{ publisher: LISTED, event: "publisher.failing" }]);
  });

  it(`sends at most ${MAX_ALERTS_PER_TICK} operator alerts per tick and the rest at the next`, async () => {
    const now = Date.now();
    const hour = Math.floor(now / 3_600_000) * 3_600_000;
    // 25 registry publishers turning failing at once (rows as the finish batch writes them).
    const targets = listPublishers()
      .filter((p) => !p.dedicated && p.domain !== LISTED && p.domain !== "consumeraffairs.com")
      .map((p) => p.domain)
      .slice(0, 25);
    expect(targets.length).toBe(25);
    await env.DB.batch(
      targets.map((key) =>
        env.DB.prepare(
          `INSERT INTO publisher_hours (publisher_key, hour, tasks, failed_publisher, last_failure_at, last_failure_reason, failed_accounts)
           VALUES (?1, ?2, 10, 10, ?3, 'blocked', '["a","b"]')
           ON CONFLICT (publisher_key, hour) DO UPDATE SET tasks = 10, succeeded = 0, failed_publisher = 10, failed_accounts = '["a","b"]'`,
        ).bind(key, hour, now),
      ),
    );
    try {
      const first = await evaluateHealthAlerts(env, now);
      expect(first.length).toBe(MAX_ALERTS_PER_TICK);
      const second = await evaluateHealthAlerts(env, now + 1);
      expect(new Set([...first, ...second].map((a) => a.publisher))).toEqual(new Set(targets));
      expect(await evaluateHealthAlerts(env, now + 2)).toEqual([]);
    } finally {
      await env.DB.batch([
        ...targets.map((key) =>
          env.DB.prepare("DELETE FROM publisher_hours WHERE publisher_key = ?").bind(key),
        ),
        ...targets.map((key) =>
          env.DB.prepare("DELETE FROM publisher_health WHERE publisher_key = ?").bind(key),
        ),
      ]);
    }
  });

  it("reads only tracked publishers for /status and /publishers, whatever keys clients created before", async () => {
    const now = Date.now();
    const hour = Math.floor(now / 3_600_000) * 3_600_000;
    const junk = Array.from({ length: 2000 }, (_, i) => `junk-${i}.${slug("client")}.test`);
    for (let i = 0; i < junk.length; i += 50)
      await env.DB.batch(
        junk
          .slice(i, i + 50)
          .map((key) =>
            env.DB.prepare(
              'INSERT INTO publisher_hours (publisher_key, hour, tasks, failed_publisher, failed_accounts) VALUES (?, ?, 10, 10, \'["a","b"]\')',
            ).bind(key, hour),
          ),
      );
    const views = await loadHealth(env, now);
    const tracked = new Set(listPublishers().flatMap((p) => [p.domain, ...p.aliases]));
    expect([...views.keys()].filter((key) => !tracked.has(key) && key.startsWith("junk-"))).toEqual([]);
    // The read is by primary key over the tracked set, not a scan of every key.
    const plan = await env.DB.prepare(
      `EXPLAIN QUERY PLAN SELECT publisher_key FROM publisher_hours WHERE publisher_key IN (SELECT value FROM json_each(?2)) AND hour >= ?1`,
    )
      .bind(hour, JSON.stringify([...tracked]))
      .all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail).join(" | ")).toMatch(/SEARCH publisher_hours USING/);
    // The next tick's housekeeping drops the untracked rows.
    await tick(now + 2000);
    const left = await env.DB.prepare(
      "SELECT count(*) AS n FROM publisher_hours WHERE publisher_key LIKE 'junk-%'",
    ).first<{
      n: number;
    }>();
    expect(left!.n).toBe(0);
  });
});
