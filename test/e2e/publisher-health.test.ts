/**
 * Publisher health end to end: canaries started by the Worker's scheduled() handler run through the
 * real queue consumer against a fixture site; the site's layout breaks and is repaired; health in
 * GET /publishers/{domain} follows, and the operator webhook receives one signed alert per change.
 * The publisher is consumeraffairs.com (generic module, fixture in test/fixtures/sites.ts), used by no
 * other test, so other files' tasks never enter its numbers.
 */
import puppeteer from "@cloudflare/puppeteer";
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { BASE, call } from "../helpers/api";
import { MODULES } from "../../src/publishers/registry";
import { queuePerTest } from "../helpers/queue";
import { origins, receivedHooks, slug } from "./support";

const queue = queuePerTest();
const PUBLISHER = "consumeraffairs.com";
const OPS_SECRET = (env as unknown as { OPS_WEBHOOK_SECRET: string }).OPS_WEBHOOK_SECRET;

async function setLayout(state: "broken" | "ok") {
  const res = await fetch(`${origins[PUBLISHER]}/__layout?state=${state}`, { method: "POST" });
  expect(res.status).toBe(204);
}

async function health() {
  const res = await call(`/publishers/${PUBLISHER}`);
  expect(res.status).toBe(200);
  return (
    await res.json<{
      health: {
        status: string;
        tasks_24h: number;
        success_rate_24h: number | null;
        last_failure_reason: string | null;
      };
    }>()
  ).health;
}

/** The operator alerts about this publisher, in the order received, each checked for its signatures. */
async function alerts(): Promise<string[]> {
  const hooks = await receivedHooks("ops");
  const ours = hooks.filter(
    (hook) => (JSON.parse(hook.body) as { publisher: string }).publisher === PUBLISHER,
  );
  for (const hook of ours) new Webhook(OPS_SECRET).verify(hook.body, hook.headers);
  return ours.map((hook) => (JSON.parse(hook.body) as { event: string }).event);
}

describe("publisher health", () => {
  it("turns failing when a publisher's layout breaks and recovers when it is repaired, alerting once per change", async () => {
    const profile = `https://www.consumeraffairs.com/biz/${slug("canary")}`;
    const tickEnv = {
      ...env,
      CANARY_PROFILES: JSON.stringify({ [PUBLISHER]: profile }),
      CANARY_INTERVAL_MINUTES: "1",
    } as Env;
    let now = Date.now();
    /** One cron tick a minute and a bit after the last, then the queue consumer runs what it started. */
    const tick = async () => {
      now += 61_000;
      await worker.scheduled(createScheduledController({ scheduledTime: now, cron: "*/5 * * * *" }), tickEnv);
      const started = queue().pending.filter((m) => m.queue === "scrape-generic").length;
      await queue().drain();
      return started;
    };
    await setLayout("ok");
    try {
      expect(await tick(), "the first tick starts the canary").toBe(1);
      expect(await health()).toMatchObject({ status: "operational", tasks_24h: 1, success_rate_24h: 1 });

      await setLayout("broken");
      await tick(); // runs canary 2 on the new layout: no reviews where there were three
      await tick(); // sees it: degraded; runs canary 3
      expect(await health()).toMatchObject({ status: "degraded", last_failure_reason: "no_reviews" });
      await tick(); // runs canary 4
      await tick(); // three failed canaries in a row: failing
      expect((await health()).status).toBe("failing");
      await vi.waitFor(
        async () => expect(await alerts()).toEqual(["publisher.degraded", "publisher.failing"]),
        { timeout: 10_000, interval: 100 },
      );

      await setLayout("ok");
      await tick(); // runs a canary on the repaired site
      await tick(); // sees it: operational again
      expect((await health()).status).toBe("operational");
      await vi.waitFor(
        async () =>
          expect(await alerts()).toEqual(["publisher.degraded", "publisher.failing", "publisher.recovered"]),
        {
          timeout: 10_000,
          interval: 100,
        },
      );
      // Nothing changed since: further ticks send nothing more.
      await tick();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await alerts()).toHaveLength(3);
    } finally {
      await setLayout("ok");
    }
  });

  it("starts no canary while the last one is unfinished or its interval has not passed", async () => {
    const profile = `https://www.consumeraffairs.com/biz/${slug("due")}`;
    const tickEnv = {
      ...env,
      CANARY_PROFILES: JSON.stringify({ [PUBLISHER]: profile }),
      CANARY_INTERVAL_MINUTES: "60",
    } as Env;
    const now = Date.now() + 3 * 3_600_000;
    await worker.scheduled(createScheduledController({ scheduledTime: now, cron: "*/5 * * * *" }), tickEnv);
    expect(queue().pending).toHaveLength(1);
    // Unfinished: the next tick, an interval later, waits for it.
    await worker.scheduled(
      createScheduledController({ scheduledTime: now + 3_600_000, cron: "*/5 * * * *" }),
      tickEnv,
    );
    expect(queue().pending).toHaveLength(1);
    await queue().drain();
    // Finished, but created (just now) less than an interval before this tick.
    await worker.scheduled(
      createScheduledController({ scheduledTime: Date.now() + 1_000, cron: "*/5 * * * *" }),
      tickEnv,
    );
    expect(queue().pending).toHaveLength(0);
  });
});

describe("GET /status", () => {
  it("renders in Chromium under its own CSP: a row with the health of every dedicated publisher and a 24-hour sparkline", async () => {
    const browser = await puppeteer.launch(env.BROWSER);
    try {
      const page = await browser.newPage();
      await page.setRequestInterception(true);
      const requested: string[] = [];
      page.on("request", (request) => {
        requested.push(request.url());
        void (async () => {
          const url = new URL(request.url());
          const res = await call(url.pathname + url.search);
          await request.respond({
            status: res.status,
            headers: Object.fromEntries(res.headers),
            body: Buffer.from(await res.arrayBuffer()),
          });
        })().catch(() => request.abort());
      });
      await page.goto(`${BASE}/status`, { waitUntil: "load" });
      // What the browser shows, read in the page (hence the string): one entry per row.
      const rows = (await page.evaluate(`[...document.querySelectorAll("tbody tr")].map((tr) => ({
        publisher: tr.dataset.publisher,
        cells: [...tr.cells].map((td) => td.innerText.trim()),
        bars: tr.querySelectorAll("svg rect").length,
        styled: getComputedStyle(tr.cells[1]).fontWeight,
      }))`)) as { publisher: string; cells: string[]; bars: number; styled: string }[];
      const shown = new Map(rows.map((row) => [row.publisher, row]));
      for (const module of MODULES) {
        const row = shown.get(module.domains[0]);
        expect(row, module.domains[0]).toBeDefined();
        expect(["operational", "degraded", "failing", "unknown"]).toContain(row!.cells[1].toLowerCase());
        expect(row!.bars, "24 hourly bars").toBe(24);
      }
      // The inline style applied: the CSP's hash matches the style block.
      expect(rows[0].styled).toBe("600");
      // consumeraffairs.com has canary history from the test above: its row shows it.
      const jabber = shown.get(PUBLISHER);
      expect(jabber?.cells[3]).toMatch(/^\d+$/);
      expect(Number(jabber?.cells[3])).toBeGreaterThan(0);
      expect(requested).toEqual([`${BASE}/status`]);
    } finally {
      await browser.close();
    }
  });
});
