import { runEach } from "./jobs";
import { runHealthTick } from "./health/tick";
import { startDueMonitors } from "./monitors/schedule";
import { settleStuckRuns } from "./monitors/settle";
import { requeueIdleTasks, tickQueueGates } from "./scrape/sweep";
import { moveLegacyReviews } from "./scrape/legacy-reviews";
import { sweepRetention } from "./scrape/retention";

/**
 * The cron tick (wrangler.toml `[triggers]`, every 5 minutes): wake the queue gates (tasks whose run
 * died or whose message was lost go out again), sweep idle tasks, publisher health (canaries, alerts,
 * retention), the monitors that are due, a monitor run whose settle every delivery failed, the move
 * of D1 review rows to R2 (migration 0010) and the retention of finished tasks (RETENTION_DAYS).
 */
export async function runCronTick(env: Env, scheduledTime: number): Promise<void> {
  await runEach("cron", [
    ["queue gates", () => tickQueueGates(env)],
    ["sweep", () => requeueIdleTasks(env)],
    ["health", () => runHealthTick(env, scheduledTime)],
    ["monitors", () => startDueMonitors(env)],
    ["monitor settles", () => settleStuckRuns(env)],
    ["move reviews", () => moveLegacyReviews(env)],
    ["retention", () => sweepRetention(env, scheduledTime)],
  ]);
}
