import { database } from "../../../db/client";
import { saveWebhook, webhookTargetAllowed } from "../../../account/webhook-config";
import { errorText, log } from "../../../log";
import { settings } from "../../../settings";
import { endpoint, WEBHOOK_ENDPOINT } from "../../endpoint";
import { ApiError, ERROR_TEXT, invalid } from "../../errors";
import { CreateWebhookRequestSchema } from "../../schemas/webhooks";
import { MSG } from "../../../core/validation";

/** What a client is told to wait after the database failed twice. */
const SAVE_RETRY_AFTER_SECONDS = 5;

export const createWebhookHandler = endpoint(
  { ...WEBHOOK_ENDPOINT, schema: CreateWebhookRequestSchema },
  async (c, input, account) => {
    if (!webhookTargetAllowed(input.webhook, settings(c.env).allowPrivateNetwork)) {
      throw invalid(ERROR_TEXT.webhook, { webhook: [MSG.url] });
    }
    // Stored (and echoed) as the URL parser normalizes it, so the host checked above is exactly the
    // host every delivery later reads back, whatever spelling the client used.
    const webhook = new URL(input.webhook).href;
    // The save is one upsert (never half a webhook), so a failure is safe to try once more; a
    // second one is the database being unavailable, which the client may retry: 503, not 500.
    let secret: string | undefined;
    for (let attempt = 1; secret === undefined; attempt++) {
      try {
        secret = await saveWebhook(
          c.env,
          database(c.env.DB),
          account.id,
          webhook,
          input.rotate_secret ?? false,
        );
      } catch (err) {
        log(attempt === 1 ? "warn" : "error", "webhook save failed", {
          request_id: c.get("requestId"),
          attempt,
          error: errorText(err),
        });
        if (attempt >= 2)
          throw new ApiError(
            503,
            { error: "Database error: could not save webhook" },
            { "Retry-After": String(SAVE_RETRY_AFTER_SECONDS) },
          );
      }
    }
    return c.json({ webhook, status: "success" as const, secret }, 201);
  },
);
