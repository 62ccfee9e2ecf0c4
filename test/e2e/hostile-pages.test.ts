/** Pages that try to hurt the service: oversized bodies, side channels from rendered pages, browser session floods. */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { browserGate } from "../../src/scraping/browser-gate";
import { QueueDriver } from "../helpers/queue";
import { fixtureRequests, retrieve, slug, submitScrape } from "./support";

let queue: QueueDriver;
afterEach(() => queue.restore());

const failedWith = (reason: string) => [
  { status: "failed", message: "Task processing failed", task_status: 500, reason },
];

describe("page size cap", () => {
  for (const [title, query] of [
    ["refuses a page whose Content-Length is over MAX_PAGE_BYTES", "?declared=1"],
    ["stops reading a streamed page once it passes MAX_PAGE_BYTES", ""],
  ] as const) {
    it(title, async () => {
      queue = new QueueDriver({ settings: { MAX_PAGE_BYTES: "100000" } });
      const task = await submitScrape("abuse.test", `https://abuse.test/big/${slug("big")}${query}`);
      const deliveries = await queue.drain();
      expect(deliveries.map((d) => d.outcome)).toEqual(["ack"]);
      expect((await retrieve(task)).response_message).toEqual(failedWith("publisher_error"));
    });
  }

  it("reads the same page whole under the default cap", async () => {
    queue = new QueueDriver();
    const task = await submitScrape("abuse.test", `https://abuse.test/big/${slug("big")}`);
    await queue.drain();
    expect((await retrieve(task)).reviews).toHaveLength(2);
  });
});

describe("rendered pages", () => {
  it("cannot open a WebSocket (or WebRTC) to any host; the page still renders its reviews", async () => {
    queue = new QueueDriver();
    const path = `/socket/${slug("socket")}`;
    const task = await submitScrape("abuse.test", `https://abuse.test${path}`);
    await queue.drain();
    expect((await retrieve(task)).reviews).toHaveLength(2);
    // The page was rendered (its HTML has no reviews), and its WebSocket never reached the server.
    expect(await fixtureRequests("abuse.test", path)).toEqual({ [path]: 2 });
    expect(await fixtureRequests("abuse.test", "ws:")).toEqual({});
  });
});

describe("origin mapping in the browser", () => {
  it("sends a rendered page's request to an absolute https URL on a mapped subdomain to the fixture origin", async () => {
    queue = new QueueDriver();
    const path = `/api-page/${slug("api")}`;
    const task = await submitScrape("abuse.test", `https://abuse.test${path}`);
    await queue.drain();
    expect((await retrieve(task)).reviews).toHaveLength(2);
    expect((await fixtureRequests("abuse.test", "/api/reviews"))["/api/reviews"]).toBeGreaterThanOrEqual(1);
  });
});

describe("browser session cap", () => {
  it("holds BROWSER_SESSIONS_MAX under concurrent renders: the task without a slot waits and finishes later", async () => {
    queue = new QueueDriver({ settings: { BROWSER_SESSIONS_MAX: "1" } });
    const tasks = [
      await submitScrape("abuse.test", `https://abuse.test/socket/${slug("cap-a")}`),
      await submitScrape("abuse.test", `https://abuse.test/socket/${slug("cap-b")}`),
    ];
    let maxInUse = 0;
    let running = true;
    const watcher = (async () => {
      while (running) {
        maxInUse = Math.max(maxInUse, await browserGate(env).inUse());
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    await Promise.all([queue.deliverNext(), queue.deliverNext()]);
    // One of the two found every slot taken and handed its task back (to its queue's gate, for a
    // later, delayed run): it is still unfinished while the other is done.
    const statuses = await Promise.all(
      tasks.map(
        async (task) =>
          (await retrieve(task)).task_status ?? (await retrieve(task)).response_message[0].task_status,
      ),
    );
    expect(statuses.sort()).toEqual([101, 200].sort());
    await queue.drain();
    running = false;
    await watcher;
    expect(maxInUse).toBe(1);
    for (const task of tasks) expect((await retrieve(task)).reviews).toHaveLength(2);
    expect(await browserGate(env).inUse()).toBe(0);
  });
});
