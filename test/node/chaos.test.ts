/**
 * `npm run chaos` at a small size: the real script against a real `wrangler dev` (queue consumers
 * on) with the fixture sites, 20 tasks over 3 accounts and one SIGKILL of the whole service. It
 * must end with nothing lost or duplicated, and the first page after the restart must come within
 * seconds; the full size (200 tasks, 5 accounts, 3 kills) is run by
 * hand and its line kept in docs/architecture.md.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("npm run chaos (small)", () => {
  it("survives one kill of the local service: every task ends once, every review and webhook event is there", async () => {
    const child = spawn(
      process.execPath,
      ["scripts/chaos.mjs", "--tasks", "20", "--accounts", "3", "--kills", "1", "--timeout", "240"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const status = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    const summary = out.split("\n").find((line) => line.startsWith("chaos: tasks ")) ?? out;
    expect(summary, out).toMatch(
      /^chaos: tasks 20 \(20 ended\), reviews \d+, deliveries \d+ \(\d+ events\), kills 1, lost 0, duplicated 0, \d+ s$/,
    );
    expect(status, out).toBe(0);
    // After the restart, work resumes within seconds: the dead runs' slots are reclaimed by their
    // missed heartbeats, not held until their leases end.
    const restart =
      /^chaos: restart 1: the service answered [\d.]+ s after it was started, its next page, ended task or delivery ([\d.]+) s after that$/m.exec(
        out,
      );
    expect(restart, out).not.toBeNull();
    expect(Number(restart![1])).toBeLessThan(30);
  }, 290_000);
});
