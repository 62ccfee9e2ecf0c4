import { createApp } from "./http/app";
import { handleQueue } from "./queue/router";

export { AccountDurableObject } from "./account/account-do";

const app = createApp();

export default {
  fetch: app.fetch,
  queue: handleQueue,
} satisfies ExportedHandler<Env>;
