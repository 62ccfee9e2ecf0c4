/** The publisher health rule (src/core/health/status.ts), case by case, and the alert a change sends. */
import { describe, expect, it } from "vitest";
import {
  healthEvent,
  hourlySuccess,
  publisherHealth,
  type CanaryRun,
  type HourOutcomes,
} from "../../../src/core/health/status";

const NOW = Date.UTC(2026, 10, 24, 12, 30);
const HOUR = 3_600_000;
const hourAt = (hoursAgo: number) => Math.floor(NOW / HOUR) * HOUR - hoursAgo * HOUR;

function hour(
  hoursAgo: number,
  tasks: number,
  succeeded: number,
  failedPublisher: number,
  reason: string | null = null,
  failedAccounts: string[] = failedPublisher ? ["acct-a", "acct-b"] : [],
): HourOutcomes {
  return {
    hour: hourAt(hoursAgo),
    tasks,
    succeeded,
    failedPublisher,
    lastSuccessAt: succeeded ? hourAt(hoursAgo) + 60_000 : null,
    lastFailureAt: tasks > succeeded ? hourAt(hoursAgo) + 120_000 : null,
    lastFailureReason: tasks > succeeded ? reason : null,
    failedAccounts,
  };
}
const canary = (
  ok: boolean,
  minutesAgo: number,
  reason: string | null = ok ? null : "publisher_error",
): CanaryRun => ({
  ok,
  reason,
  finishedAt: NOW - minutesAgo * 60_000,
});

describe("publisherHealth", () => {
  it.each([
    ["nothing in 24 h", [hour(30, 5, 5, 0)], [], "unknown"],
    ["a few successes", [hour(1, 3, 3, 0)], [], "operational"],
    ["9 tasks all failing: too few for a rate", [hour(1, 9, 0, 9, "blocked")], [], "operational"],
    ["10 tasks, half failing for a publisher reason", [hour(1, 10, 5, 5, "blocked")], [], "failing"],
    [
      "10 tasks, 2 failing for a publisher reason",
      [hour(2, 6, 6, 0), hour(1, 4, 2, 2, "publisher_error")],
      [],
      "degraded",
    ],
    ["10 tasks, 1 publisher failure", [hour(1, 10, 9, 1, "blocked")], [], "operational"],
    [
      "10 tasks all failing, every failure from one account: no single client steers health",
      [hour(2, 5, 0, 5, "profile_not_found", ["acct-a"]), hour(1, 5, 0, 5, "profile_not_found", ["acct-a"])],
      [],
      "operational",
    ],
    [
      "the same failures from two accounts over the day",
      [hour(2, 5, 0, 5, "profile_not_found", ["acct-a"]), hour(1, 5, 0, 5, "profile_not_found", ["acct-b"])],
      [],
      "failing",
    ],
    ["10 tasks failing for other reasons (timeouts)", [hour(1, 10, 0, 0, "timeout")], [], "operational"],
    ["last canary failed", [hour(1, 3, 3, 0)], [canary(false, 5), canary(true, 65)], "degraded"],
    ["three canaries failed", [], [canary(false, 5), canary(false, 65), canary(false, 125)], "failing"],
    [
      "two of three canaries failed, the newest fine",
      [],
      [canary(true, 5), canary(false, 65), canary(false, 125)],
      "operational",
    ],
    ["canaries only, all fine", [], [canary(true, 5)], "operational"],
  ] as const)("%s → %s", (_, hours, canaries, status) => {
    expect(publisherHealth(hours, canaries, NOW, null).status).toBe(status);
  });

  it("reports the 24-hour rate and count, the last success given, and the newest failure reason of tasks and canaries", () => {
    const health = publisherHealth(
      [hour(3, 4, 3, 1, "blocked"), hour(30, 10, 0, 10, "publisher_error")],
      [canary(false, 10, "no_reviews")],
      NOW,
      1234,
    );
    expect(health).toEqual({
      status: "degraded",
      success_rate_24h: 0.75,
      tasks_24h: 4,
      last_success_at: 1234,
      last_failure_reason: "no_reviews",
    });
  });
});

describe("healthEvent", () => {
  it.each([
    [null, "operational", null],
    [null, "failing", "publisher.failing"],
    ["operational", "degraded", "publisher.degraded"],
    ["degraded", "failing", "publisher.failing"],
    ["failing", "operational", "publisher.recovered"],
    ["degraded", "operational", "publisher.recovered"],
    ["failing", "failing", null],
    ["operational", "unknown", null],
    ["unknown", "operational", null],
  ] as const)("%s → %s sends %s", (from, to, event) => {
    expect(healthEvent(from, to)).toBe(event);
  });
});

describe("hourlySuccess", () => {
  it("gives 24 hours oldest first, null where nothing finished", () => {
    const line = hourlySuccess([hour(0, 4, 3, 1), hour(23, 2, 0, 2), hour(24, 1, 1, 0)], NOW);
    expect(line).toHaveLength(24);
    expect(line[0]).toBe(0);
    expect(line[23]).toBe(0.75);
    expect(line.slice(1, 23).every((v) => v === null)).toBe(true);
  });
});
