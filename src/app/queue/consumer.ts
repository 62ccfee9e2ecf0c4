import { runScrape, type RunCarry, type RunOutcome } from "../scrape/run";
import { retryDelaySeconds } from "../scrape/retry-policy";
import { errorText, log } from "../../log";
import { ScrapeMessageSchema, type ScrapeMessage } from "../../queue/messages";
import { scrapeQueueNamed } from "../../publishers/registry";

/**
 * How long after its start an invocation keeps taking over the next task of a slot it frees. Past
 * it, the gate's next choice goes out as a message, so an invocation ends within one run of this
 * (a run is at most PAGES_PER_RUN pages): far inside the platform's 15 minutes of wall time for a
 * consumer.
 */
export const TAKE_OVER_MS = 60_000;

/**
 * Runs one invocation may hold in all, its batch's included: the platform counts D1 queries (1,000)
 * and subrequests per invocation, and a run of PAGES_PER_RUN (5) pages makes about 20 of each, so
 * 32 runs stay well inside both however fast the publisher answers; their CPU (parsing, mostly)
 * stays a few seconds, inside a consumer's 30 s default.
 */
export const RUNS_PER_INVOCATION = 32;

/**
 * Scrape queue consumer: one scraping run per message, and every message of a batch runs at once.
 * A run spends nearly all its time waiting on the publisher, so one invocation walking several tasks
 * side by side turns the same slots into more pages per second; how many runs a queue has in flight
 * is still decided by its gate (src/queue/queue-gate.ts), never by how the platform batches.
 *
 * When a run ends, the task its gate picks for the freed slot (fair share decides which) is run next
 * by the same invocation instead of travelling as a new message: no queue hop between two runs of a
 * slot, and no slot idle while a batch waits for its slowest run (the local queue simulator delivers
 * a queue's next batch only then). Each message is settled on its own: the run decides between
 * acknowledging and retrying; an error before it could decide (D1 or the queue unavailable) retries
 * that message with backoff, and the task is safe to pick up again. One run's failure never touches
 * the others in the batch.
 */
export async function consumeScrapeBatch(
  batch: MessageBatch<unknown>,
  env: Env,
  _ctx: ExecutionContext,
): Promise<void> {
  const budget: TakeOverBudget = {
    until: Date.now() + TAKE_OVER_MS,
    runs: RUNS_PER_INVOCATION - batch.messages.length,
  };
  await Promise.all(batch.messages.map((message) => consumeMessage(message, batch.queue, env, budget)));
}

/** What the runs of one invocation may still take over: shared by the batch's messages. */
interface TakeOverBudget {
  until: number;
  runs: number;
}

/**
 * A carry for the next run: it may take over a task while the budget lasts. One run is reserved up
 * front (runs of a batch end side by side) and given back by `settle` when none was taken.
 */
function carryFor(budget: TakeOverBudget): RunCarry {
  const takeNext = Date.now() < budget.until && budget.runs > 0;
  if (takeNext) budget.runs--;
  return { takeNext, next: null };
}

function settle(carry: RunCarry, budget: TakeOverBudget): ScrapeMessage | null {
  if (carry.takeNext && !carry.next) budget.runs++;
  return carry.next;
}

async function consumeMessage(
  message: Message<unknown>,
  queue: string,
  env: Env,
  budget: TakeOverBudget,
): Promise<void> {
  const parsed = ScrapeMessageSchema.safeParse(message.body);
  if (!parsed.success) {
    log("error", "scrape queue: dropping a malformed message", { message_id: message.id, queue });
    message.ack();
    return;
  }
  const carry = carryFor(budget);
  const attempts = message.attempts + (parsed.data.prior_attempts ?? 0);
  try {
    const outcome = await runScrape(env, parsed.data, attempts, queue, carry);
    if (outcome.kind === "retry") message.retry({ delaySeconds: outcome.delaySeconds });
    else message.ack();
  } catch (err) {
    log("error", "scrape queue: run failed before it finished", {
      task_id: parsed.data.task_id,
      queue,
      error: errorText(err),
    });
    message.retry({ delaySeconds: retryDelaySeconds(attempts) });
    settle(carry, budget);
    return;
  }
  let next = settle(carry, budget);
  while (next) next = await runTakenOver(next, queue, env, budget);
}

/**
 * A run taken over from the gate, with no message of its own: its first attempt. What would retry a
 * message is a new message with the delay, counting this attempt. Returns the task to run next.
 */
async function runTakenOver(
  task: ScrapeMessage,
  queue: string,
  env: Env,
  budget: TakeOverBudget,
): Promise<ScrapeMessage | null> {
  const carry = carryFor(budget);
  let outcome: RunOutcome;
  try {
    outcome = await runScrape(env, task, 1, queue, carry);
  } catch (err) {
    log("error", "scrape queue: run failed before it finished", {
      task_id: task.task_id,
      queue,
      error: errorText(err),
    });
    outcome = { kind: "retry", delaySeconds: retryDelaySeconds(1) };
  }
  if (outcome.kind === "retry") {
    // Should this send fail too, the gate still holds the task as sent and sends it again when that
    // mark expires: late, never lost.
    await resend(env, queue, { ...task, prior_attempts: 1 }, outcome.delaySeconds).catch((err: unknown) =>
      log("error", "scrape queue: could not send a retry", {
        task_id: task.task_id,
        queue,
        error: errorText(err),
      }),
    );
  }
  return settle(carry, budget);
}

async function resend(env: Env, queue: string, body: ScrapeMessage, delaySeconds: number): Promise<void> {
  const ref = scrapeQueueNamed(queue);
  if (!ref) throw new Error(`No producer for queue "${queue}"`);
  await (env[ref.binding] as Queue<ScrapeMessage>).send(body, { contentType: "json", delaySeconds });
}
