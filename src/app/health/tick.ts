import { log, errorText } from "../../log";
import { evaluateHealthAlerts } from "./alerts";
import { pruneHealthData, startDueCanaries } from "./canaries";

/**
 * What the cron tick does for publisher health: start the canaries that are due, alert on every
 * change of health, and drop what is past its retention. Each step runs even when another fails
 * (a failure is logged and the next tick tries again).
 */
export async function runHealthTick(env: Env, now = Date.now()): Promise<void> {
  for (const [step, run] of [
    ["canaries", () => startDueCanaries(env, now)],
    ["alerts", () => evaluateHealthAlerts(env, now)],
    ["prune", () => pruneHealthData(env, now)],
  ] as const) {
    try {
      await run();
    } catch (err) {
      log("error", "health tick step failed", { step, error: errorText(err) });
    }
  }
}
