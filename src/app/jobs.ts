import { errorText, log } from "../log";

/**
 * Runs each named job in turn, each even when one before it failed: a failure is logged (by the
 * error's name and message only) and the next cron tick tries again.
 */
export async function runEach(
  what: string,
  jobs: readonly (readonly [string, () => Promise<unknown>])[],
): Promise<void> {
  for (const [job, run] of jobs) {
    try {
      await run();
    } catch (err) {
      log("error", `${what} job failed`, { job, error: errorText(err) });
    }
  }
}
