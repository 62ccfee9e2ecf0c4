/** Task notifications from the pipeline's transitions, received by a fixture endpoint over real HTTP. */
import { describe, expect, it, vi } from "vitest";
import { createAccount, postJson } from "../helpers/api";
import { queuePerTest } from "../helpers/queue";
import { origins, receivedHooks, slug, submitScrape } from "./support";

const queue = queuePerTest();

async function accountWithWebhook(name: string) {
  const { apiKey } = await createAccount();
  const res = await postJson("/webhooks/create-webhook/", {
    api_key: apiKey,
    webhook: `${origins["status.test"]}/__hook/${name}`,
  });
  expect(res.status).toBe(201);
  return apiKey;
}

/** Every message twice: notifications must still come once per transition. */
async function deliverEverythingTwice() {
  while (queue().pending.length) {
    queue().duplicatePending();
    await queue().drain();
  }
}

describe("webhook notifications from the pipeline", () => {
  it("sends task.in_progress and task.completed once each, even when messages are redelivered", async () => {
    const name = slug("hook-ok");
    const apiKey = await accountWithWebhook(name);
    const task = await submitScrape(
      "multipage.test",
      `https://multipage.test/biz/${name}`,
      { first_page_only: true },
      {},
      apiKey,
    );
    await deliverEverythingTwice();

    await vi.waitFor(async () => expect(await receivedHooks(name)).toHaveLength(2), {
      timeout: 10_000,
      interval: 50,
    });
    // The account's delivery log agrees: two events, each delivered at the first attempt.
    const log = await postJson("/webhooks/deliveries/", { api_key: apiKey, task_id: task.taskId });
    expect(
      log.body.deliveries
        .map((d: { event: string; attempts: number; state: string }) => [d.event, d.attempts, d.state])
        .sort(),
    ).toEqual([
      ["task.completed", 1, "delivered"],
      ["task.in_progress", 1, "delivered"],
    ]);
    const bodies = (await receivedHooks(name)).map((hook) => JSON.parse(hook.body));
    expect(bodies.map((b) => b.event).sort()).toEqual(["task.completed", "task.in_progress"]);
    const completed = bodies.find((b) => b.event === "task.completed");
    expect(completed).toMatchObject({
      task_id: task.taskId,
      task_status: 200,
      reviews_count: 3,
      publisher_key: "multipage.test",
    });
    expect(completed.reviews_urls).toHaveLength(1);
    expect(bodies.find((b) => b.event === "task.in_progress")).toMatchObject({
      task_status: 101,
      reviews_urls: [],
    });
  });

  it("sends task.failed with the reason", async () => {
    const name = slug("hook-fail");
    const apiKey = await accountWithWebhook(name);
    const task = await submitScrape("status.test", `https://status.test/gone/${name}`, {}, {}, apiKey);
    await deliverEverythingTwice();

    await vi.waitFor(async () => expect(await receivedHooks(name)).toHaveLength(2), {
      timeout: 10_000,
      interval: 50,
    });
    const bodies = (await receivedHooks(name)).map((hook) => JSON.parse(hook.body));
    expect(bodies.find((b) => b.event === "task.failed")).toMatchObject({
      task_id: task.taskId,
      task_status: 500,
      reason: "profile_not_found",
      reviews_urls: [],
    });
  });
});
