import { createApp } from "./http/app";
import { handleQueue } from "./queue/router";
import { requeueIdleTasks } from "./domain/scrape/sweep";

export { AccountDurableObject } from "./account/account-do";
export { BrowserGate } from "./scraping/browser-gate";

const app = createApp();

export default {
  fetch: app.fetch,
  queue: handleQueue,
  async scheduled(_controller, env) {
    await requeueIdleTasks(env);
  },
} satisfies ExportedHandler<Env>;
