import { database } from "../../../db/client";
import { saveWebhook, webhookTargetAllowed } from "../../../account/webhook-config";
import { errorText, log } from "../../../log";
import { settings } from "../../../settings";
import { endpoint, WEBHOOK_ENDPOINT } from "../../endpoint";
import { ApiError, ERROR_TEXT, invalid } from "../../errors";
import { CreateWebhookRequestSchema } from "../../schemas/webhooks";
import { MSG } from "../../../core/validation";

export const createWebhookHandler = endpoint({ ...WEBHOOK_ENDPOINT, schema: CreateWebhookRequestSchema }, async (c, input, account) => {
  if (!webhookTargetAllowed(input.webhook, settings(c.env).allowPrivateNetwork)) {
    throw invalid(ERROR_TEXT.webhook, { webhook: [MSG.url] });
  }
  // Stored (and echoed) as the URL parser normalizes it, so the host checked above is exactly the
  // host every delivery later reads back, whatever spelling the client used.
  const webhook = new URL(input.webhook).href;
  let secret: string;
  try {
    secret = await saveWebhook(c.env, database(c.env.DB), account.id, webhook, input.rotate_secret ?? false);
  } catch (err) {
    log("error", "webhook save failed", { request_id: c.get("requestId"), error: errorText(err) });
    throw new ApiError(500, { error: "Database error: could not save webhook" });
  }
  return c.json({ webhook, status: "success" as const, secret }, 201);
});
