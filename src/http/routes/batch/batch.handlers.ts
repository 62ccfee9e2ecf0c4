import { bodyLimit } from "hono/body-limit";
import { submitBatch, type StoredEntry } from "../../../app/tasks/submit-batch";
import { batchTasksPage, type BatchScope } from "../../../app/tasks/retrieve-batch";
import type { ErrorDetails } from "../../../core/validation";
import { settings } from "../../../settings";
import { primarySession } from "../../d1-session";
import { endpoint } from "../../endpoint";
import { ApiError, ERROR_TEXT, UNAUTHORIZED_MESSAGE, invalid } from "../../errors";
import { MAX_BODY_BYTES } from "../../middleware/json-body";
import {
  BATCH_PAGE_SIZE_DEFAULT,
  RetrieveBatchRequestSchema,
  batchRequestSchema,
  type ItemOutcome,
} from "../../schemas/batch";

/**
 * The batch's body cap is the service's 1 MiB, answered as a 400 naming the limit (not the 413 of
 * the other endpoints): a batch too large is split by the client, like one with too many items.
 */
export const batchBodyLimit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw invalid(ERROR_TEXT.submit, {
      non_field_errors: [
        `Ensure the request body has no more than ${MAX_BODY_BYTES} bytes (1 MiB); send fewer items per batch.`,
      ],
    });
  },
});

type Accepted = Extract<ItemOutcome, { item: unknown }>;
type Refused = Extract<ItemOutcome, { details: unknown }>;
const accepted = (o: ItemOutcome): o is Accepted => "item" in o;
const refusedItem = (o: ItemOutcome): o is Refused => "details" in o;

/** Every refused item's tree merged into one, under `requests`. */
function mergedDetails(refused: readonly Refused[]): ErrorDetails {
  const byIndex: ErrorDetails = {};
  for (const { index, details } of refused) {
    const requests = details.requests as ErrorDetails;
    byIndex[String(index)] = requests[String(index)];
  }
  return { requests: byIndex };
}

/** An accepted item's entry in `results`: submit's own answer for it, plus its index. */
function acceptedResult(entry: StoredEntry, item: Accepted["item"]) {
  const [first] = entry.tasks;
  return {
    index: entry.index,
    status: "success" as const,
    tasks_id: first.tasks_id,
    request_id: entry.requestId,
    foreign_key: item.foreign_key,
    publisher_key: first.publisher_key,
    tasks: entry.tasks,
  };
}

export const submitBatchHandler = endpoint(
  {
    errorText: ERROR_TEXT.submit,
    schema: (env) => batchRequestSchema(settings(env).batchMax),
    apiKeyPath: ["api_key"],
    unauthorizedMessage: UNAUTHORIZED_MESSAGE.submit,
    // Plan limits count per task, as for submit: every task of every valid item, all or none.
    tasksOf: (input) =>
      input.requests.reduce((n, outcome) => n + (accepted(outcome) ? outcome.item.publishers.length : 0), 0),
  },
  async (c, input, account, d1) => {
    const valid = input.requests.filter(accepted);
    const refused = input.requests.filter(refusedItem);
    const refusedResults = new Map(
      refused.map((o) => [o.index, { index: o.index, error: ERROR_TEXT.submit, details: o.details }]),
    );
    if (!valid.length) {
      return c.json(
        {
          error: ERROR_TEXT.submit,
          details: mergedDetails(refused),
          status: "failed" as const,
          accepted: 0 as const,
          refused: refused.length,
          results: [...refusedResults.values()],
        },
        400,
      );
    }
    const { batchId, stored } = await submitBatch(
      c.env,
      account.id,
      valid.map(({ index, item }) => ({ index, request: { data: item } })),
      new URL(c.req.url).origin,
      d1.session,
    );
    // `stored` is in the order of `valid`: entry i is valid[i]'s.
    const storedResults = new Map(
      stored.map((entry, i) => [entry.index, acceptedResult(entry, valid[i].item)]),
    );
    const results = input.requests.map((o) => storedResults.get(o.index) ?? refusedResults.get(o.index)!);
    return c.json(
      {
        status: refused.length ? ("partial" as const) : ("success" as const),
        batch_id: batchId,
        accepted: stored.length,
        refused: refused.length,
        results,
      },
      201,
    );
  },
);

export const retrieveBatchHandler = endpoint(
  {
    errorText: ERROR_TEXT.retrieve,
    schema: RetrieveBatchRequestSchema,
    apiKeyPath: ["api_key"],
    unauthorizedMessage: UNAUTHORIZED_MESSAGE.retrieve,
    consistency: "read",
  },
  async (c, input, account, d1) => {
    const page = input.page ?? 1;
    const pageSize = input.page_size ?? BATCH_PAGE_SIZE_DEFAULT;
    const scope: BatchScope =
      input.batch_id !== undefined ? { batchId: input.batch_id } : { foreignKeys: input.foreign_keys! };
    let found = await batchTasksPage(d1.db, account.id, scope, page, pageSize);
    // A replica may not have a batch submitted a moment ago: ask the primary before a 404.
    if (!found && d1.unconstrained)
      found = await batchTasksPage(primarySession(c.env), account.id, scope, page, pageSize);
    if (!found)
      throw new ApiError(404, {
        error: "Batch not found",
        details: { batch_id: `No batch with batch_id "${input.batch_id}"` },
      });
    const total = found.totals.tasks;
    const totalPages = Math.ceil(total / pageSize);
    return c.json(
      {
        batch_id: input.batch_id ?? null,
        ended: found.totals.queued + found.totals.in_progress === 0,
        totals: found.totals,
        tasks: found.tasks,
        pagination: {
          total_tasks: total,
          page,
          page_size: pageSize,
          total_pages: totalPages,
          has_next: page < totalPages,
          has_previous: page > 1,
        },
      },
      200,
    );
  },
);
