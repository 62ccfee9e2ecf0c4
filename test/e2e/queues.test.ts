/** Each publisher module's tasks travel on its own queue and are consumed under that queue's name. */
import { afterEach, expect, it } from "vitest";
import { postJson, submitBody, createAccount } from "../helpers/api";
import { GENERIC_QUEUE, PRODUCERS, QueueDriver } from "../helpers/queue";
import { retrieve, slug } from "./support";

let queue: QueueDriver;
afterEach(() => queue.restore());

it("runs two tasks of one request on different queues: a dedicated module's and the generic one", async () => {
  queue = new QueueDriver();
  const { apiKey } = await createAccount();
  const res = await postJson(
    "/submit/request-reviews/",
    submitBody(apiKey, {
      "trustpilot.com": {
        profile_key: `${slug("multi")}.com`,
        last_review_hashes: [],
        first_page_only: true,
      },
      "multipage.test": {
        profile_key: `https://multipage.test/biz/${slug("queues")}`,
        last_review_hashes: [],
        first_page_only: true,
      },
    }),
  );
  expect(res.status).toBe(201);
  const [trust, generic] = res.body.tasks as { publisher_key: string; tasks_id: string }[];
  expect(queue.sentTo.map((m) => [m.queue, m.body])).toEqual([
    [PRODUCERS.SCRAPE_TRUSTPILOT, { task_id: trust.tasks_id }],
    [GENERIC_QUEUE, { task_id: generic.tasks_id }],
  ]);
  expect(PRODUCERS.SCRAPE_TRUSTPILOT).not.toBe(GENERIC_QUEUE);
  await queue.drain();
  expect(queue.deliveries.map((d) => [d.queue, d.outcome])).toEqual([
    [PRODUCERS.SCRAPE_TRUSTPILOT, "ack"],
    [GENERIC_QUEUE, "ack"],
  ]);
  for (const task of [trust, generic]) {
    const body = await retrieve({ apiKey, taskId: task.tasks_id, publisher: task.publisher_key });
    expect(body.task_status).toBe(200);
    expect(body.reviews.length).toBeGreaterThan(0);
  }
});
