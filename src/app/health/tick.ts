import { runEach } from "../jobs";
import { evaluateHealthAlerts } from "./alerts";
import { pruneHealthData, startDueCanaries } from "./canaries";

/**
 * What the cron tick does for publisher health: start the canaries that are due, alert on every
 * change of health, and drop what is past its retention. Each step runs even when another fails.
 */
export async function runHealthTick(env: Env, now = Date.now()): Promise<void> {
  await runEach("health tick", [
    ["canaries", () => startDueCanaries(env, now)],
    ["alerts", () => evaluateHealthAlerts(env, now)],
    ["prune", () => pruneHealthData(env, now)],
  ]);
}
