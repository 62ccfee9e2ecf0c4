import { createApp } from "./http/app";
import { handleQueue } from "./app/queue/router";
import { requeueIdleTasks } from "./app/scrape/sweep";

export { AccountDurableObject } from "./account/account-do";
export { BrowserGate } from "./scraping/browser-gate";

const app = createApp();

export default {
  fetch(request, env, ctx) {
    return app.fetch(request, env, ctx);
  },
  queue: handleQueue,
  async scheduled(_controller, env) {
    await requeueIdleTasks(env);
  },
} satisfies ExportedHandler<Env>;
