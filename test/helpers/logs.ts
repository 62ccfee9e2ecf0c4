/** Reading what src/log.ts wrote, through a `vi.spyOn(console, …)` spy: one JSON object per line. */
import { expect, type MockInstance } from "vitest";

export interface LogLine {
  level: string;
  message: string;
  [field: string]: unknown;
}

/** Every line the spy saw, parsed; a line that is not one JSON object fails the test. */
export function logLines(spy: MockInstance): LogLine[] {
  return spy.mock.calls.map((args: unknown[]) => {
    expect(args, "one argument per log call").toHaveLength(1);
    const parsed = JSON.parse(String(args[0])) as LogLine;
    expect(parsed).toEqual(
      expect.objectContaining({ level: expect.any(String), message: expect.any(String) }),
    );
    return parsed;
  });
}

/** The "scrape attempt failed" lines of one task (all tasks when no id is given). */
export function scrapeFailures(spy: MockInstance, taskId?: string): LogLine[] {
  return logLines(spy).filter(
    (line) => line.message === "scrape attempt failed" && (taskId === undefined || line.task_id === taskId),
  );
}

/** The `detail` of every scrape failure of the task, joined: what the adapter said was wrong. */
export function failureDetails(spy: MockInstance, taskId: string): string {
  return scrapeFailures(spy, taskId)
    .map((line) => String(line.detail))
    .join("\n");
}
