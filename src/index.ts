import { createApp } from "./http/app";
import { handleQueue } from "./app/queue/router";
import { requeueIdleTasks, tickQueueGates } from "./app/scrape/sweep";
import { runHealthTick } from "./app/health/tick";
import { startDueMonitors } from "./app/monitors/schedule";

export { AccountDurableObject } from "./account/account-do";
export { BrowserGate } from "./scraping/browser-gate";
export { QueueGate } from "./queue/queue-gate";

const app = createApp();

export default {
  fetch(request, env, ctx) {
    return app.fetch(request, env, ctx);
  },
  queue: handleQueue,
  async scheduled(controller, env) {
    await tickQueueGates(env);
    await requeueIdleTasks(env);
    await runHealthTick(env, controller.scheduledTime);
    await startDueMonitors(env);
  },
} satisfies ExportedHandler<Env>;
