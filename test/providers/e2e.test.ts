/**
 * Routes end to end: submit through the Worker, the real consumer with FETCH_ROUTES set, the
 * provider fakes relaying to the walled fixture site (which refuses the Worker's own fetch), then
 * retrieve: fallthrough, request counts in progress and in the completed answer, provider_error,
 * and the keys in no log line, file, row or response.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { QueueDriver } from "../helpers/queue";
import { retrieve, slug, submitScrape, taskRow } from "../e2e/support";
import { call } from "../helpers/api";
import { logLines, scrapeFailures } from "../helpers/logs";
import { echoedKey, WALLED_REVIEW_TEXTS } from "./fakes";
import { keyForms, PROVIDER_CLIENT_DETAIL } from "../../src/scraping/routes/providers/common";
import { FAKE_KEYS, PROVIDER_SECRETS, WALLED_DOMAIN } from "./keys";

let driver: QueueDriver | undefined;
afterEach(() => {
  driver?.restore();
  driver = undefined;
  vi.restoreAllMocks();
});

function routed(routes: Record<string, string[]>, settings: Record<string, string> = {}): QueueDriver {
  driver = new QueueDriver({
    settings: { ...PROVIDER_SECRETS, FETCH_ROUTES: JSON.stringify(routes), ...settings },
  });
  return driver;
}

const profile = (name: string) => `https://${WALLED_DOMAIN}/page/${slug(name)}`;

/** Every text form a key could leak in: as is, URL-encoded, and inside basic auth. */
const KEY_FORMS = Object.values(FAKE_KEYS).flatMap((key) => [key, encodeURIComponent(key), btoa(`${key}:`)]);

describe("routes end to end", () => {
  it("a publisher that refuses the Worker is reached through the next route, and the task shows what each route cost", async () => {
    const queue = routed({ [WALLED_DOMAIN]: ["direct", "provider:zyte"] });
    const warn = vi.spyOn(console, "warn");
    const task = await submitScrape(WALLED_DOMAIN, profile("fallback"));
    await queue.drain();
    const body = await retrieve(task, 1, 100);
    expect(body.task_status).toBe(200);
    expect(body.reviews.map((r: { text: string }) => r.text).sort()).toEqual([...WALLED_REVIEW_TEXTS].sort());
    expect(body.requests).toEqual({ direct: 1, browser: 0, provider: 1 });
    // The documented field order: requests come last.
    expect(Object.keys(body)).toEqual([
      "foreign_key",
      "batch_id",
      "task_id",
      "related_task_ids",
      "task_status",
      "business",
      "reviews",
      "pagination",
      "coverage",
      "requests",
    ]);
    expect(
      logLines(warn).find((line) => line.message === "route blocked, trying the next route"),
    ).toMatchObject({
      publisher: WALLED_DOMAIN,
      route: "direct",
      next: "provider:zyte",
    });
  });

  it("progress shows the requests while the task runs", async () => {
    const queue = routed({ "*": ["provider:scrapfly"] });
    const task = await submitScrape(WALLED_DOMAIN, profile("progress"));
    // Claimed and stopped before its page is stored: the task has made no request yet.
    await env.DB.prepare(
      "UPDATE tasks SET status = 101, pages_scraped = 1, requests_provider = 3 WHERE id = ?",
    )
      .bind(task.taskId)
      .run();
    const progress = await retrieve(task);
    expect(progress.response_message[0].progress).toEqual({
      pages_scraped: 1,
      reviews_found: 0,
      requests: { direct: 0, browser: 0, provider: 3 },
    });
    await queue.drain();
  });

  it.each([
    ["zyte", /^zyte: 402 /],
    ["brightdata", /^brightdata: 403 /],
    ["scrapfly", /^scrapfly: 429 ERR::SCRAPE::QUOTA_LIMIT_REACHED/],
  ])(
    "%s: spent credit fails the task with provider_error at once, the detail naming provider and status",
    async (provider, detail) => {
      const queue = routed({ "*": [`provider:${provider}`, "direct"] });
      const warn = vi.spyOn(console, "warn");
      const task = await submitScrape(WALLED_DOMAIN, profile("pquota"));
      const deliveries = await queue.drain();
      expect(deliveries.map((d) => d.outcome)).toEqual(["ack"]);
      const body = await retrieve(task);
      expect(body.response_message).toEqual([
        { status: "failed", message: "Task processing failed", task_status: 500, reason: "provider_error" },
      ]);
      const [failure] = scrapeFailures(warn, task.taskId);
      expect(failure).toMatchObject({ reason: "provider_error", outcome: "failing" });
      expect(String(failure.detail)).toMatch(detail);
    },
  );

  it.each(Object.keys(FAKE_KEYS) as (keyof typeof FAKE_KEYS)[])(
    "%s: a provider error that echoes the key past 180 characters leaves no part of it, nor the provider, to the client",
    async (provider) => {
      const queue = routed({ "*": [`provider:${provider}`] });
      const warn = vi.spyOn(console, "warn");
      const task = await submitScrape(
        WALLED_DOMAIN,
        `https://${WALLED_DOMAIN}/session/pecho-${slug("echo")}`,
      );
      await queue.drain();
      const body = await retrieve(task, 1, 100);
      // Page 1 was read; page 2's provider failure ends the walk with a stable, generic reason.
      expect(body.task_status).toBe(200);
      expect(body.coverage.stop_reason).toBe(`provider_error: ${PROVIDER_CLIENT_DETAIL.provider_error}`);
      const clientText = JSON.stringify(body) + JSON.stringify(await taskRow(task.taskId));
      expect(clientText).not.toContain(provider);
      // The operator's log has the provider's answer, with every form and piece of the key removed.
      const [failure] = scrapeFailures(warn, task.taskId);
      expect(String(failure.detail)).toMatch(new RegExp(`^${provider}: 40[13] `));
      expect(String(failure.detail)).toContain("[key]");
      const key = FAKE_KEYS[provider];
      const echoed = echoedKey(key);
      for (const text of [clientText, String(failure.detail)]) {
        for (const form of keyForms(key)) expect(text).not.toContain(form);
        // No 8 characters in a row of the key, nor of the echoed base64 forms.
        for (const quoted of [key, ...echoed.split(/[ =]/).filter((part) => part.length >= 16)])
          for (let i = 0; i + 8 <= quoted.length; i++)
            if (!/^y+$/.test(quoted.slice(i, i + 8))) expect(text).not.toContain(quoted.slice(i, i + 8));
      }
    },
  );

  it("a provider that cannot get past the publisher ends the route list with blocked", async () => {
    const queue = routed({ "*": ["direct", "provider:brightdata"] });
    const task = await submitScrape(WALLED_DOMAIN, profile("pban"));
    await queue.drain();
    expect((await retrieve(task)).response_message[0]).toMatchObject({ status: "failed", reason: "blocked" });
    expect(await taskRow(task.taskId)).toMatchObject({
      requests_direct: expect.any(Number),
      requests_provider: expect.any(Number),
    });
  });

  it("the cookies a publisher set carry over to the task's next run, encrypted in the stored cursor", async () => {
    const queue = routed({}, { PAGES_PER_RUN: "1" });
    const name = slug("session");
    const task = await submitScrape(WALLED_DOMAIN, `https://${WALLED_DOMAIN}/session/${name}`);
    await queue.deliverNext();
    const row = (await taskRow(task.taskId))!;
    expect(row.pages_scraped).toBe(1);
    const cursor = JSON.parse(String(row.cursor)) as { jar?: string };
    expect(cursor.jar).toMatch(/^v\d+\./);
    expect(String(row.cursor)).not.toContain("session-token");
    await queue.drain();
    const body = await retrieve(task, 1, 100);
    expect(body.task_status).toBe(200);
    expect(body.reviews.map((r: { text: string }) => r.text).sort()).toEqual(
      [1, 2, 3].flatMap((page) => [1, 2].map((i) => `Session page ${page}, review ${i}.`)).sort(),
    );
    // Three runs, one page each; the completed task keeps no cursor, so no jar.
    expect(body.requests).toEqual({ direct: 3, browser: 0, provider: 0 });
    expect((await taskRow(task.taskId))!.cursor).toBeNull();
  });

  it("no provider key appears in any log line, review file, task row or response, through successes and every failure", async () => {
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((level) =>
      vi.spyOn(console, level),
    );
    const texts: string[] = [];
    for (const provider of Object.keys(FAKE_KEYS)) {
      for (const name of ["clean", "pquota", "pban", "pdown"]) {
        const queue = routed({ "*": ["direct", `provider:${provider}`] });
        const task = await submitScrape(WALLED_DOMAIN, profile(name));
        await queue.drain();
        queue.restore();
        const answer = await call("/retrieve-task/", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({
            api_key: task.apiKey,
            foreign_key: "order-1",
            publisher_key: WALLED_DOMAIN,
            task_id: task.taskId,
          }),
        });
        const text = await answer.text();
        texts.push(text);
        const parsed = JSON.parse(text) as { business?: { reviews_urls: string[] } };
        for (const fileUrl of parsed.business?.reviews_urls ?? []) {
          const url = new URL(fileUrl);
          texts.push(await (await call(url.pathname + url.search)).text());
        }
        texts.push(JSON.stringify(await taskRow(task.taskId)));
        const listed = await env.REVIEW_FILES.list({ prefix: `tasks/${task.taskId}/` });
        for (const object of listed.objects)
          texts.push((await (await env.REVIEW_FILES.get(object.key))?.text()) ?? "");
      }
    }
    const logged = spies.flatMap((spy) => spy.mock.calls.map((args) => args.map(String).join(" ")));
    expect(logged.length).toBeGreaterThan(0);
    expect(texts.some((t) => t.includes("Worth the climb"))).toBe(true);
    for (const text of [...logged, ...texts]) {
      for (const form of KEY_FORMS) expect(text).not.toContain(form);
    }
    // Twelve tasks, the `pdown` ones through every provider backoff in real time: slow on a busy machine.
  }, 90_000);
});
