import { accountStub } from "../../../account/account-do";
import type { DeliveryRecord } from "../../../account/outbox";
import { endpoint, WEBHOOK_ENDPOINT } from "../../endpoint";
import { DELIVERIES_DEFAULT_LIMIT, DeliveriesRequestSchema, type Delivery } from "./deliveries.schemas";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function toDelivery(record: DeliveryRecord): Delivery {
  return {
    id: record.id,
    task_id: record.task_id,
    event: record.event,
    state: record.state,
    attempts: record.attempts,
    last_status_code: record.last_status_code,
    last_error: record.last_error,
    next_attempt_at: iso(record.next_attempt_at),
    last_attempt_at: iso(record.last_attempt_at),
    created_at: new Date(record.created_at).toISOString(),
  };
}

export const deliveriesHandler = endpoint(
  { ...WEBHOOK_ENDPOINT, schema: DeliveriesRequestSchema },
  async (c, input, account) => {
    const records = await accountStub(c.env, account.id).listWebhookDeliveries(
      input.limit ?? DELIVERIES_DEFAULT_LIMIT,
      input.task_id,
    );
    return c.json({ deliveries: records.map(toDelivery) }, 200);
  },
);
