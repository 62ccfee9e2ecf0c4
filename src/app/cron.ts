import { runEach } from "./jobs";
import { runHealthTick } from "./health/tick";
import { startDueMonitors } from "./monitors/schedule";
import { requeueIdleTasks, tickQueueGates } from "./scrape/sweep";

/**
 * The cron tick (wrangler.toml `[triggers]`, every 5 minutes): wake the queue gates (tasks whose run
 * died or whose message was lost go out again), sweep idle tasks, publisher health (canaries, alerts,
 * retention), and the monitors that are due.
 */
export async function runCronTick(env: Env, scheduledTime: number): Promise<void> {
  await runEach("cron", [
    ["queue gates", () => tickQueueGates(env)],
    ["sweep", () => requeueIdleTasks(env)],
    ["health", () => runHealthTick(env, scheduledTime)],
    ["monitors", () => startDueMonitors(env)],
  ]);
}
