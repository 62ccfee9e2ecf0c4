import { failTask } from "../domain/scrape/finish";
import { errorText, log } from "../log";
import { ScrapeMessageSchema } from "./messages";

/**
 * Dead letters are scrape messages whose retries ran out without the run deciding anything (the
 * Worker kept crashing). Their task fails with the reason an earlier attempt recorded, or
 * `internal`, unless a live run still holds it or a later run has taken over.
 */
export async function consumeDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const parsed = ScrapeMessageSchema.safeParse(message.body);
    if (parsed.success) {
      try {
        await failTask(env, parsed.data.task_id, "internal", { abandonedRun: parsed.data.run ?? 1 });
      } catch (err) {
        log("error", "dead letters: could not fail task", { task_id: parsed.data.task_id, error: errorText(err) });
        message.retry();
        continue;
      }
    }
    message.ack();
  }
}
