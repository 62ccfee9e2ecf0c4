import { createApp } from "./http/app";
import { handleQueue } from "./app/queue/router";
import { runCronTick } from "./app/cron";

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
    await runCronTick(env, controller.scheduledTime);
  },
} satisfies ExportedHandler<Env>;
